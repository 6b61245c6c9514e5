"""The README and docs/ are the user's manual: the README's set-up commands and docs/TABLES.md's column docs must match
what the project does."""

from collections import Counter

import duckdb
import pytest

from recon_assets.declarations import ASSET_TABLES
from recon_assets.judgement.cues import packaged_cue_rules
from recon_assets.shared import table_docs
from recon_assets.shared.table_docs import TABLE_DOCS, tables_markdown
from recon_assets.storage.ownership import OWNER_MARK, foreign_tables

from recon_assets_tests.pipeline_runs import REPO_ROOT

README = (REPO_ROOT / "README.md").read_text()
# The tables of one paper's analysis (`recon paper`, the papers folder sensor) and of one question's brief (`recon ask`,
# the question file sensor, the weekly briefs schedule): `recon run` does not write them.
PAPER_ASSETS = (
    "paper_documents", "paper_datasets", "paper_claims", "paper_keywords", "paper_citation_gaps", "claim_verdicts", "paper_scores",
    "paper_reports",
)
QUESTION_ASSETS = ("question_plans", "question_evidence", "question_verdicts", "research_briefs", "question_verdict_history")


def _only_written_by(assets: tuple[str, ...]) -> set[str]:
    """The tables `assets` write or keep that no other asset does."""
    written = {table for name in assets for table in (*ASSET_TABLES[name].writes, *ASSET_TABLES[name].keeps)}
    return written - {table for name, asset in ASSET_TABLES.items() if name not in assets for table in (*asset.writes, *asset.keeps)}


PAPER_TABLES = _only_written_by(PAPER_ASSETS)
ON_DEMAND_TABLES = PAPER_TABLES | _only_written_by(QUESTION_ASSETS)
TABLES = (REPO_ROOT / "docs" / "TABLES.md").read_text()
METHOD = (REPO_ROOT / "docs" / "METHOD.md").read_text()


def test_docs_tables_documents_every_output_column_as_table_docs_say():
    """Regenerate docs/TABLES.md's block "The DuckDB tables" with:
    python -c "from recon_assets.shared.table_docs import tables_markdown; print(tables_markdown())"."""
    assert tables_markdown() in TABLES


def test_ci_runs_the_readme_test_command():
    ci = (REPO_ROOT / ".ci" / "run").read_text()
    command = next(line.split("'")[1] for line in ci.splitlines() if line.startswith("TEST_COMMAND="))
    assert command in README


def test_table_docs_cover_every_table_the_pipeline_writes(sample_run):
    tables = {name for (name,) in sample_run.query("SELECT table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE'")}
    assert tables == set(TABLE_DOCS) - ON_DEMAND_TABLES
    for table in tables:
        columns = [name for (name,) in sample_run.query(
            "SELECT column_name FROM information_schema.columns WHERE table_name = ? ORDER BY ordinal_position", [table]
        )]
        assert columns == list(TABLE_DOCS[table]), table


def test_declared_meanings_are_in_the_database_the_pipeline_writes(sample_run):
    """Every output table declares its column meanings once, in its DDL: the database the pipeline writes holds them,
    and each table carries recon_assets' mark of ownership (`storage.ownership`: no other program's table of its name
    is ever replaced), so the database holds no table another program could have written."""
    for table, columns in TABLE_DOCS.items():
        if table in ON_DEMAND_TABLES:
            continue  # test_paper_assets.py and test_briefs_assets.py write them
        stored = dict(sample_run.query("SELECT column_name, comment FROM duckdb_columns() WHERE table_name = ?", [table]))
        assert stored == columns, table
        assert sample_run.query("SELECT comment FROM duckdb_tables() WHERE table_name = ?", [table]) == [(OWNER_MARK,)], table
    with duckdb.connect(str(sample_run.database), read_only=True) as con:
        assert foreign_tables(con) == {}


def test_a_declared_column_without_a_meaning_is_refused(monkeypatch):
    declaring = "CREATE TABLE t (a INTEGER, b INTEGER); COMMENT ON COLUMN t.a IS 'A.';"
    shipped = table_docs.load_sql  # the catalog's own query (declared_column_comments) is the shipped file
    monkeypatch.setattr(table_docs, "load_sql", lambda name: declaring if name == "x" else shipped(name))
    with pytest.raises(ValueError, match=r"column t.b has no COMMENT ON COLUMN in x.sql"):
        table_docs.declared_column_docs.__wrapped__("x")


def test_method_counts_the_cues_the_offline_judge_reads():
    """New-user finding: the README (now docs/METHOD.md) said 34 cues (19 contradiction) after one was removed from
    cues.yaml."""
    rules = packaged_cue_rules().rules
    kinds = Counter(str(rule.kind) for rule in rules)
    assert (
        f"holds every cue the offline judge reads ({len(rules)} today: {kinds['contradiction']} contradiction, "
        f"{kinds['supersession']} supersession, {kinds['refinement']} refinement, {kinds['support']} support)"
    ) in " ".join(METHOD.split())
