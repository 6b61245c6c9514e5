"""`recon paper`'s printed summary (cli/paper.py `_print_summary`), read from the tables a paper's run wrote."""

import duckdb

from recon_assets.cli.paper import _print_summary
from recon_assets.shared.sql_files import load_sql

KEY = "sha256:0f"
REPLACED = "uses MCD15A2H 006 (a version the graph lacks): replaced by MCD15A2H V061 (since 2021-03-01, on the authority of cmr)"


def test_an_unmatched_replaced_version_shows_its_lifecycle_and_a_name_without_version_has_no_double_space(tmp_path, capsys):
    """New-user finding: a version the graph lacks that the lifecycle's rules replace was flagged in paper_datasets
    but printed only as 'unmatched: MCD15A2H 006 (p. 5): the graph has MCD15A2H but not version 006', hiding the
    paper's most useful finding; and a name stated without a version printed 'Landsat  (p. 1)'."""
    database = tmp_path / "paper.duckdb"
    with duckdb.connect(str(database)) as con:
        for table in ("paper_datasets", "paper_scores", "paper_stage_failures"):
            con.execute(load_sql(table))
        con.executemany(
            "INSERT INTO paper_datasets (paper_key, position, matched, name, stated_version, reason, quote, page, lifecycle) "
            "VALUES (?, ?, false, ?, ?, ?, 'q', ?, ?)",
            [
                [KEY, 1, "MCD15A2H", "006", "the graph has MCD15A2H but not version 006", 5, REPLACED],
                [KEY, 2, "Landsat", None, "no version stated", 1, None],
            ],
        )
    _print_summary(database, KEY, {})
    printed = capsys.readouterr().out.splitlines()
    assert printed[:3] == [
        "datasets (0 matched, 2 unmatched):",
        f"  unmatched: MCD15A2H 006 (p. 5): the graph has MCD15A2H but not version 006; {REPLACED}",
        "  unmatched: Landsat (p. 1): no version stated",
    ]
    # paper_claims, which records what was sent online, is optional: without its table nothing is said to be sent
    assert "sent online: nothing (no online stage recorded its use)" in printed
