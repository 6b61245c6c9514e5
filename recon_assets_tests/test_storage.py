"""Tables created from their declaring DDL, whose column comments an older version's table cannot take as it is."""

import duckdb
import pandas as pd
import pytest

from recon_assets.shared.table_docs import TABLE_DOCS
from recon_assets.storage.ownership import OWNER_MARK, foreign_tables, mark_owned
from recon_assets.storage.schema import declared_schema, not_null_columns, primary_key
from recon_assets.storage.tables import (
    ForeignTablesError, StaleSchemaError, create_tables, migrate, replace_partitions, replace_table, transaction,
)

OLDER_USAGE = "CREATE TABLE openalex_usage (day DATE, run_id VARCHAR, asset VARCHAR, requests BIGINT, recorded_at TIMESTAMPTZ)"


def older(con: duckdb.DuckDBPyConnection, *statements: str) -> None:
    """Run `statements`, making tables as an older version of recon_assets wrote them, and mark the output tables of
    the current schema recon_assets' (`ownership.mark_owned`): these tests' older tables are recon's own."""
    for statement in statements:
        con.execute(statement)
    made = con.execute("SELECT table_name FROM duckdb_tables() WHERE schema_name = current_schema()").fetchall()
    mark_owned(con, [table for (table,) in made if table in TABLE_DOCS])


def comments(con: duckdb.DuckDBPyConnection, table: str) -> dict[str, str]:
    return dict(con.execute("SELECT column_name, comment FROM duckdb_columns() WHERE table_name = ? ORDER BY column_index", [table]).fetchall())


def test_an_older_table_is_migrated_then_given_its_meanings():
    with duckdb.connect() as con:
        older(con, OLDER_USAGE)
        con.execute("INSERT INTO openalex_usage VALUES ('2026-11-30', 'r1', 'openalex_works', 12, now())")
        create_tables(con, "openalex_usage")
        assert con.execute("SELECT run_id, list_calls, requests FROM openalex_usage").fetchall() == [("r1", None, 12)]
        stored = comments(con, "openalex_usage")  # the added column comes last: its place differs, not its meaning
        assert stored == {column: TABLE_DOCS["openalex_usage"][column] for column in stored} and set(stored) == set(TABLE_DOCS["openalex_usage"])


def test_an_older_table_with_an_unknown_column_is_refused_naming_it():
    """An older version's table carrying recon_assets' mark (`ownership`): unmarked, a column its DDL does not declare
    would make it another program's (test_only_recons_mark_or_an_older_versions_shape_makes_a_table_recons)."""
    with duckdb.connect() as con:
        older(con, OLDER_USAGE.replace("requests BIGINT", "requests BIGINT, calls_left BIGINT"))
        with pytest.raises(StaleSchemaError, match=r"table openalex_usage .* \(missing columns \['list_calls'\], unknown \['calls_left'\]\): it cannot be migrated"):
            create_tables(con, "openalex_usage")


def test_missing_tables_are_created_with_their_declared_meanings_and_a_rerun_changes_nothing():
    with duckdb.connect() as con:
        create_tables(con, "crossref_cache", "crossref_retractions")
        create_tables(con, "crossref_cache", "crossref_retractions")
        assert comments(con, "crossref_cache") == TABLE_DOCS["crossref_cache"]
        assert comments(con, "crossref_retractions") == TABLE_DOCS["crossref_retractions"]


def test_a_failure_that_is_not_an_older_table_is_raised_as_it_is():
    with duckdb.connect() as con, pytest.raises(duckdb.CatalogException, match="kg_citation_pairs"):
        create_tables(con, "publication_citations_rows")  # reads a view this database does not have


def test_an_older_table_whose_column_changed_type_is_refused_naming_it():
    """Hostile finding: edge_reliability.reliability stored as VARCHAR by an older table was written into, and the
    check after it failed with a pandas TypeError; the type is now compared before anything is written."""
    with duckdb.connect() as con:
        create_tables(con, "edge_reliability")
        con.execute("ALTER TABLE edge_reliability ALTER COLUMN reliability TYPE VARCHAR")
        declared = declared_schema("edge_reliability").types["reliability"]
        with pytest.raises(StaleSchemaError, match=rf"column types differ: reliability VARCHAR \(this version: {declared}\)\): it cannot be migrated"):
            migrate(con, "edge_reliability")


def test_an_older_table_with_a_not_null_this_version_does_not_declare_is_relaxed_keeping_its_rows():
    """Review finding: `migrate` did not compare NOT NULL, so a column an older version declared NOT NULL that this
    version may leave NULL would have failed the first write with DuckDB's constraint error."""
    with duckdb.connect() as con:
        older(
            con, "CREATE TABLE kg_rejects (snapshot_id VARCHAR NOT NULL, source VARCHAR NOT NULL, line_number BIGINT, "
            "element_id VARCHAR, reason VARCHAR NOT NULL, raw VARCHAR NOT NULL)"
        )
        con.execute("INSERT INTO kg_rejects VALUES ('s1', 'graph.json', 3, NULL, 'malformed JSON', '{oops')")
        assert "raw" not in declared_schema("kg_rejects").not_null
        assert migrate(con, "kg_rejects") == []
        assert not_null_columns(con, "kg_rejects") == declared_schema("kg_rejects").not_null == {"snapshot_id", "source", "reason"}
        con.execute("INSERT INTO kg_rejects VALUES ('s1', 'graph.json', 4, NULL, 'relationship without start or end id', NULL)")
        assert con.execute("SELECT line_number, raw FROM kg_rejects ORDER BY 1").fetchall() == [(3, "{oops"), (4, None)]


def test_an_older_table_without_its_primary_key_is_given_it_or_refused_naming_it():
    """Hostile finding: an older edge_reliability without its primary key failed with DuckDB's Binder error on the
    upsert (`INSERT OR REPLACE` needs the key). The key is added when the rows kept allow it; rows repeating it, or
    another key, are refused in one line before anything is written."""
    key = ["research_area", "dataset_id", "publication_id"]
    with duckdb.connect() as con:
        create_tables(con, "edge_reliability")
        columns = ", ".join(f'"{c}" {t}' for c, t in declared_schema("edge_reliability").types.items())
        older(con, f"DROP TABLE edge_reliability; CREATE TABLE edge_reliability ({columns})")
        con.execute("INSERT INTO edge_reliability (research_area, dataset_id, publication_id) VALUES ('floods', 'd1', 'p1')")
        assert migrate(con, "edge_reliability") == []
        assert declared_schema("edge_reliability").primary_key == tuple(key)
        assert con.execute("SELECT constraint_column_names FROM duckdb_constraints() WHERE table_name = 'edge_reliability' "
                           "AND constraint_type = 'PRIMARY KEY'").fetchall() == [(key,)]
        older(con, f"DROP TABLE edge_reliability; CREATE TABLE edge_reliability ({columns})")
        con.execute("INSERT INTO edge_reliability (research_area, dataset_id, publication_id) VALUES ('floods', 'd1', 'p1'), ('floods', 'd1', 'p1')")
        with pytest.raises(StaleSchemaError, match=r"table edge_reliability .*\(no primary key, and the rows do not allow this version's \['research_area', 'dataset_id', 'publication_id'\]: 1 rows repeat a key\): it cannot be migrated"):
            migrate(con, "edge_reliability")
        older(con, f"DROP TABLE edge_reliability; CREATE TABLE edge_reliability ({columns}, PRIMARY KEY (research_area, dataset_id))")
        with pytest.raises(StaleSchemaError, match=r"primary key \['research_area', 'dataset_id'\] \(this version: \['research_area', 'dataset_id', 'publication_id'\]\)"):
            migrate(con, "edge_reliability")


def test_a_table_declared_with_others_in_one_file_is_type_checked_and_migrated():
    """kg_nodes is declared in kg_snapshot.sql beside three other tables: its types are compared and a missing column
    is added as for a table with a file of its own."""
    with duckdb.connect() as con:
        create_tables(con, "kg_snapshot")
        con.execute("ALTER TABLE kg_nodes ALTER COLUMN labels TYPE VARCHAR")
        with pytest.raises(StaleSchemaError, match=r"table kg_nodes .*column types differ: labels VARCHAR \(this version: VARCHAR\[\]\)"):
            migrate(con, "kg_nodes")
    with duckdb.connect() as con:
        create_tables(con, "kg_snapshot")
        con.execute("ALTER TABLE kg_rejects DROP COLUMN reason")
        assert migrate(con, "kg_rejects") == ["reason"]


OLDER_CACHE = "CREATE TABLE openalex_cache (doi VARCHAR, status VARCHAR NOT NULL, work JSON, fetched_at TIMESTAMPTZ NOT NULL)"


@pytest.mark.parametrize(
    ("older_statements", "refused"),
    [
        ([OLDER_CACHE, "INSERT INTO openalex_cache VALUES (NULL, 'found', NULL, now())"],
         r"\(no primary key, and the rows do not allow this version's \['doi'\]: 1 rows leave a column of it NULL\): .* DROP TABLE openalex_cache"),
        ([OLDER_CACHE.replace("doi VARCHAR", "doi VARCHAR UNIQUE")], r"\(UNIQUE on \[\['doi'\]\] \(this version: \[\]\)\)"),
        ([OLDER_CACHE, "CREATE INDEX cache_doi ON openalex_cache (doi)"], r"\(ADD PRIMARY KEY \(\"doi\"\) is refused by DuckDB while indexes \['cache_doi'\] depend on the table\): .* DROP INDEX cache_doi \(the rows are kept\) and run again"),
    ],
    ids=["null-in-the-key", "unique-constraint", "index-on-it"],
)
def test_an_older_entry_that_cannot_be_given_its_key_is_refused_in_one_line(older_statements, refused):
    """Hostile findings: a NULL key was reported as repeated rows; a UNIQUE constraint or an index on the table ended in
    DuckDB's Binder, Catalog or Dependency error on the upsert or the ALTER. (A view of the table's name, which passed
    `CREATE TABLE IF NOT EXISTS` and failed the run on 'stage_fingerprints is not an table', is another program's:
    test_only_recons_mark_or_an_older_versions_shape_makes_a_table_recons and the write rows above.)"""
    with duckdb.connect() as con:
        older(con, *older_statements)
        with pytest.raises(StaleSchemaError, match=r"table openalex_cache in this database was written by another version .*" + refused) as error:
            create_tables(con, "openalex_cache")  # refuses a view; a table with every declared column is kept as it is
            with transaction(con):
                migrate(con, "openalex_cache")  # as `_insert` does before writing, in the write's transaction
        assert error.value.__cause__ is None  # `recon run` prints a failure's innermost cause: this line, not DuckDB's


def test_a_table_of_that_name_in_another_schema_is_not_taken_for_it():
    """Hostile finding: the key was read from whichever schema's table of that name came first, so an older main table
    without its key kept none (another schema's key was taken for it) and the upsert failed with a Binder error."""
    with duckdb.connect() as con:
        con.execute("CREATE SCHEMA archive")
        con.execute(OLDER_CACHE.replace("openalex_cache", "archive.openalex_cache").replace("doi VARCHAR", "doi VARCHAR PRIMARY KEY"))
        older(con, OLDER_CACHE)
        con.execute("INSERT INTO openalex_cache VALUES ('10.1/a', 'found', NULL, now())")
        assert migrate(con, "openalex_cache") == []
        assert con.execute("SELECT schema_name, constraint_column_names FROM duckdb_constraints() WHERE table_name = 'openalex_cache' "
                           "AND constraint_type = 'PRIMARY KEY' ORDER BY 1").fetchall() == [("archive", ["doi"]), ("main", ["doi"])]
        assert con.execute("SELECT doi FROM openalex_cache").fetchall() == [("10.1/a",)]


def test_an_older_partitioned_table_without_its_key_is_rewritten_keeping_the_other_areas():
    """Hostile finding: `replace_partitions` deleted the area's rows, then `_insert` added the missing primary key in
    the same transaction: the key still indexed the deleted rows and the insert of the same keys failed ('Duplicate
    key ... violates primary key constraint'), so an older edge_reliability could never be scored again."""
    with duckdb.connect() as con:
        create_tables(con, "edge_reliability")
        columns = ", ".join(f'"{c}" {t}' for c, t in declared_schema("edge_reliability").types.items())
        older(con, f"DROP TABLE edge_reliability; CREATE TABLE edge_reliability ({columns})")
        con.execute("INSERT INTO edge_reliability (research_area, dataset_id, publication_id) VALUES ('floods', 'd1', 'p1'), ('wildfires', 'd1', 'p1')")
        rescored = con.execute("SELECT * REPLACE (0.5 AS reliability) FROM edge_reliability WHERE research_area = 'floods'").df()
        replace_partitions(con, "edge_reliability", rescored, ["floods"])
        assert con.execute("SELECT research_area, reliability FROM edge_reliability ORDER BY 1").fetchall() == [("floods", 0.5), ("wildfires", None)]
        assert primary_key(con, "edge_reliability") == ("research_area", "dataset_id", "publication_id")


@pytest.mark.parametrize("write", ["create_tables", "replace_table", "replace_partitions", "migrate"])
def test_a_table_another_program_wrote_under_a_recon_name_is_left_as_it_is(write):
    """Hostile pass (2026-12-04): `recon run` on another program's DuckDB file replaced its `publications(doi)` with
    recon's. Every write refuses a table of an output table's name that is not recon_assets' in one line, and the
    table keeps its columns and rows."""
    with duckdb.connect() as con:
        con.execute("CREATE TABLE publications (doi VARCHAR); INSERT INTO publications VALUES ('10.1/theirs')")
        rows = pd.DataFrame({"doi": ["10.1/ours"]})
        attempt = {
            "create_tables": lambda: create_tables(con, "publications"),
            "replace_table": lambda: replace_table(con, "publications", rows),
            "replace_partitions": lambda: replace_partitions(con, "publications", rows, ["floods"], column="doi"),
            "migrate": lambda: migrate(con, "publications"),
        }[write]
        with pytest.raises(ForeignTablesError, match=r"^this database holds a table named as recon_assets' own that recon_assets did not "
                           r"write \(publications \(no recon_assets mark; 1 of its \d+ columns; 1 without a comment\)\), e\.g\. another program's: "
                           r"recon_assets leaves it as it is and writes nothing in its place; give another --db, or rename it$"):
            attempt()
        assert con.execute("SELECT * FROM publications").fetchall() == [("10.1/theirs",)]


@pytest.mark.parametrize(("made", "why"), [
    # hostile pass 27: 7 of 13 names, all VARCHAR, a user's row: replaced silently
    ("CREATE TABLE publications (publication_id VARCHAR, doi VARCHAR, title VARCHAR, year VARCHAR, first_author_tag VARCHAR, "
     "doi_raw VARCHAR, year_issue VARCHAR)", "no recon_assets mark; 7 of its 13 columns; other types: year; 7 without a comment"),
    # hostile pass 27: a comment on one column made any table recon's
    ("CREATE TABLE publications (doi VARCHAR, note VARCHAR); COMMENT ON COLUMN publications.doi IS 'the DOI'",
     "no recon_assets mark; 1 of its 13 columns; 1 it does not declare; 1 without a comment"),
    # hostile pass 27: a view with 23 of edge_reliability's 44 columns passed the pre-check and failed mid-run
    ("CREATE VIEW edge_reliability AS SELECT 1 AS research_area", "a view"),
    # hostile pass 28: DuckDB's names are case-insensitive: CREATE OR REPLACE TABLE publications replaced it
    ('CREATE TABLE "Publications" (a INTEGER, b VARCHAR)', "no recon_assets mark; 0 of its 13 columns; 2 it does not declare; 2 without a comment"),
    # hostile pass 28: half of a small table's columns, uncommented, was taken for an older version's and altered
    ("CREATE TABLE openalex_cache (doi VARCHAR, status VARCHAR)", "no recon_assets mark; 2 of its 4 columns; 2 without a comment"),
], ids=["half-the-columns-other-types", "a-column-comment", "a-view", "other-capitals", "a-small-table"])
def test_only_recons_mark_or_an_older_versions_shape_makes_a_table_recons(made, why):
    with duckdb.connect() as con:
        con.execute(made)
        assert list(foreign_tables(con).values()) == [why]


def test_a_users_own_table_recons_marked_tables_and_an_older_versions_are_recons():
    with duckdb.connect() as con:
        con.execute("CREATE TABLE my_notes (doi VARCHAR)")
        create_tables(con, "publications")
        assert con.execute("SELECT comment FROM duckdb_tables() WHERE table_name = 'publications'").fetchone() == (OWNER_MARK,)
        assert foreign_tables(con) == {}
        con.execute(OLDER_USAGE)  # most of its columns, no mark, no comment: written before 2026-12-01, or not by recon
        assert list(foreign_tables(con)) == ["openalex_usage"]
        for column in ("day", "run_id", "asset", "requests", "recorded_at"):  # as versions of 2026-12-01 to 12-04 wrote it
            con.execute(f"COMMENT ON COLUMN openalex_usage.{column} IS 'a meaning'")
        assert foreign_tables(con) == {}
        con.execute("CREATE OR REPLACE TABLE publications (doi INTEGER)")  # any shape with the mark
        con.execute(f"COMMENT ON TABLE publications IS '{OWNER_MARK}'")
        assert foreign_tables(con) == {}


def test_a_view_of_a_recon_name_is_refused_by_a_write_and_kept():
    """Hostile findings: a view named stage_fingerprints passed `CREATE TABLE IF NOT EXISTS` and the run failed on
    'stage_fingerprints is not an table'; a view with most of edge_reliability's columns passed the pre-check."""
    with duckdb.connect() as con:
        con.execute(OLDER_CACHE.replace("openalex_cache", "cache_v1") + "; CREATE VIEW openalex_cache AS SELECT * FROM cache_v1")
        with pytest.raises(ForeignTablesError, match=r"\(openalex_cache \(a view\)\)"):
            create_tables(con, "openalex_cache")
        assert con.execute("SELECT count(*) FROM duckdb_views() WHERE view_name = 'openalex_cache'").fetchone() == (1,)
