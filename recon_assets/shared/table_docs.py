"""What every column of every output table means, read from the one place it is declared: the table's DDL in
the `sql/` folder of the domain that writes it (`CREATE TABLE` with the column's type, `COMMENT ON COLUMN` with its meaning), run on an in-memory
DuckDB and read back from its catalog. Shown in the Dagster UI (column schema) and docs/TABLES.md, and the columns a
stored table must have (`storage`).
"""

import os
import threading
from functools import cache

import duckdb

from recon_assets.shared.sql_files import load_sql

_CATALOG_LOCK = threading.Lock()


@cache
def _catalog(pid: int) -> duckdb.DuckDBPyConnection:
    """This process's (`pid`: a forked child opens its own) in-memory DuckDB holding the declaring files, one schema
    each. One database for all: opening one costs about 16 ms of CPU, more than running a file, and TABLE_DOCS runs
    55 files in every process that writes metadata (issue 23: 2.0 -> 0.2 CPU-s)."""
    return duckdb.connect()


@cache
def declared_column_docs(sql_name: str) -> dict[str, dict[str, str]]:
    """{table: {column: meaning}} of the tables `recon_assets/<domain>/sql/<sql_name>.sql` creates, in the order it creates
    them and their columns, read from DuckDB's catalog (`duckdb_columns().comment`) after running the file on an
    in-memory database (in a schema of its own, so no other file's tables are read).

    Raises:
        ValueError: a column the file creates has no `COMMENT ON COLUMN`.
    """
    schema = f"declared_{sql_name}"
    with _CATALOG_LOCK:
        con = _catalog(os.getpid())
        # DuckDB's own statements, the schema's name formatted in (a name cannot be bound): recon_assets_tests/test_sql_text.py KEPT
        con.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE; CREATE SCHEMA "{schema}"; SET schema = \'{schema}\'')
        con.execute(load_sql(sql_name))
        rows = con.execute(load_sql("declared_column_comments"), [schema]).fetchall()
    docs: dict[str, dict[str, str]] = {}
    for table, column, comment in rows:
        if not comment:
            raise ValueError(f"column {table}.{column} has no COMMENT ON COLUMN in {sql_name}.sql")
        docs.setdefault(table, {})[column] = comment
    return docs


# The SQL files that create the output tables, in the order docs/TABLES.md documents them; each creates the table of
# its name, except kg_snapshot.sql (kg_snapshots, kg_nodes, kg_relationships, kg_rejects) and
# kg_snapshot_history.sql (kg_snapshot_history and its _elements and _edges).
DECLARING_FILES = (
    "kg_snapshot",
    "publications",
    "datasets",
    "dataset_lineage",
    "dataset_publication_edges",
    "publication_citations",
    "publication_research_areas",
    "science_keywords",
    "openalex_cache",
    "openalex_works",
    "openalex_citing_cache",
    "openalex_citing_works",
    "openalex_usage",
    "openalex_search_cache",
    "crossref_cache",
    "crossref_record_cache",
    "crossref_relations",
    "crossref_retractions",
    "publication_centrality",
    "centrality_reference",
    "steward_judgements",
    "coherence_judgements",
    "recorded_disputes",
    "text_embeddings",
    "judge_text_readings",
    "llm_judgements",
    "llm_answers",
    "edge_reliability",
    "dataset_verdicts",
    "dataset_verdict_history",
    "dispute_evaluation",
    "dispute_evaluation_pairs",
    "reliability_evaluation",
    "reliability_evaluation_baselines",
    "reliability_evaluation_cases",
    "kg_snapshot_diff",
    "kg_snapshot_history",
    "paper_documents",
    "paper_texts",
    "paper_datasets",
    "paper_claims",
    "paper_keywords",
    "paper_citation_gaps",
    "claim_verdicts",
    "paper_scores",
    "paper_stage_failures",
    "paper_llm_use",
    "paper_search_cache",
    "asked_questions",
    "question_sessions",
    "question_plans",
    "question_evidence",
    "question_verdicts",
    "question_verdict_log",
    "research_briefs",
    "question_verdict_history",
)



def __getattr__(name: str) -> dict[str, dict[str, str]]:
    """`TABLE_DOCS`: {table: {column: meaning}} of every output table, in DECLARING_FILES' order. Built on first use
    (PEP 562): running every declaring file takes about a second, which `recon --help` and `recon explain` do not pay.

    Raises:
        AttributeError: any other name.
    """
    if name == "TABLE_DOCS":
        return _table_docs()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@cache
def _table_docs() -> dict[str, dict[str, str]]:
    return {table: columns for sql_name in DECLARING_FILES for table, columns in declared_column_docs(sql_name).items()}


def declaring_file(table: str) -> str:
    """The SQL file of DECLARING_FILES that creates output table `table`: the file of its name when there is one (so
    only that file is run), else the one whose DDL creates it.

    Raises:
        KeyError: `table` is not an output table.
    """
    if table in DECLARING_FILES:
        return table
    return {declared: sql_name for sql_name in DECLARING_FILES for declared in declared_column_docs(sql_name)}[table]


def tables_markdown() -> str:
    """The column docs of docs/TABLES.md ("The DuckDB tables"), generated from TABLE_DOCS so the two never disagree."""
    sections = []
    for table, columns in _table_docs().items():
        rows = "\n".join(f"| `{column}` | {text.replace('|', '/')} |" for column, text in columns.items())
        sections.append(f"#### `{table}`\n\n| column | meaning |\n|---|---|\n{rows}\n")
    return "\n".join(sections)


def declared_columns(table: str) -> tuple[str, ...]:
    """The columns of output table `table`, in the order its DDL declares them (the shape code building its rows
    gives them).

    Raises:
        KeyError: `table` is not an output table.
    """
    return tuple(declared_column_docs(declaring_file(table))[table])
