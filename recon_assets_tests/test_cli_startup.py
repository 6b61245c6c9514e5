"""`recon --help` and `recon explain` start without importing what they do not use (issue 23 "Start-up"): held by
the modules a fresh interpreter has imported after the command, never by a time (benchmarks/startup.py measures
the time). `recon explain` reads DuckDB directly and needs pandas and DuckDB, but never Dagster."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from recon_assets.shared import table_docs

# Each takes about a second to import (Dagster) or a few tenths (pandas, DuckDB); `--help` needs none of them.
HEAVY = ("dagster", "pandas", "duckdb")

# Runs `recon` with the arguments of argv[1] (JSON) and prints, last, the JSON list of the modules then imported.
RECON_THEN_MODULES = """
import contextlib, io, json, sys
from recon_assets.cli.main import main
with contextlib.redirect_stdout(io.StringIO()) as output:
    try:
        status = main(json.loads(sys.argv[1]))
    except SystemExit as exit:  # argparse ends --help this way
        status = exit.code
print(json.dumps({"status": status, "output": output.getvalue(), "modules": sorted(sys.modules)}))
"""


def recon_in_fresh_python(*arguments: str) -> dict:
    """{status, output, modules} of `recon ARGUMENTS` run by `main` in a new interpreter."""
    done = subprocess.run([sys.executable, "-c", RECON_THEN_MODULES, json.dumps(arguments)], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.parametrize("arguments", [("--help",), ("explain", "--help"), ("run", "--help"), ("paper", "--help")])
def test_help_imports_no_heavy_library(arguments):
    result = recon_in_fresh_python(*arguments)
    assert result["status"] == 0 and result["output"].startswith("usage: recon")
    assert [module for module in HEAVY if module in result["modules"]] == []


def test_explain_reads_the_scores_without_dagster(sample_run):
    result = recon_in_fresh_python("explain", "10.3390/rs14153753", "--db", str(sample_run.database))
    assert result["status"] == 0 and "scored edge(s) for DOI 10.3390/rs14153753" in result["output"]
    assert "dagster" not in result["modules"] and "duckdb" in result["modules"]


def test_explain_of_a_bad_doi_imports_no_heavy_library():
    """Hostile pass (2026-12-04): `recon explain ""` imported pandas, DuckDB and the scoring before saying it is no DOI."""
    result = recon_in_fresh_python("explain", "not a doi", "--db", "/nonexistent/recon.duckdb")
    assert result["status"] == 2 and [module for module in HEAVY if module in result["modules"]] == []


def test_explain_opens_a_motherduck_database_as_the_other_commands_do(monkeypatch, capsys):
    """Bug row (review): `recon explain` and `recon ask` opened the database with a local-file-only opener, so a
    MotherDuck --db was never asked for its token; one read-only opener (`duckdb_files.read_only`) serves them all."""
    from recon_assets.cli.main import main

    monkeypatch.delenv("MOTHERDUCK_TOKEN", raising=False)
    assert main(["explain", "10.3390/rs12081239", "--db", "md:recon"]) == 2
    assert capsys.readouterr().err.startswith(
        "error: cannot read md:recon: MissingTokenError: md:recon is a MotherDuck database but MOTHERDUCK_TOKEN is not set"
    )


@pytest.mark.parametrize("table", list(table_docs.TABLE_DOCS))
def test_declared_columns_run_only_the_declaring_file(table):
    """`declared_columns` runs one SQL file, the one of the table's name when there is one (as `recon explain` does
    for edge_reliability), and gives what running every declaring file gives (TABLE_DOCS)."""
    if table in table_docs.DECLARING_FILES:
        assert table in table_docs.declared_column_docs(table)
    assert table_docs.declared_columns(table) == tuple(table_docs.TABLE_DOCS[table])


def test_an_unknown_table_has_no_declared_columns():
    with pytest.raises(KeyError):
        table_docs.declared_columns("no_such_table")
    with pytest.raises(AttributeError):
        table_docs.NO_SUCH_NAME


def test_explain_without_a_database_names_the_absolute_path_and_how_it_was_chosen(tmp_path, capsys, monkeypatch):
    """New-user finding: `recon explain` run from another folder said "no database file at data/recon.duckdb"."""
    from recon_assets.cli.main import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("RECON_DB_PATH", raising=False)
    assert main(["explain", "10.1002/2014jb011547"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"error: no database file at {tmp_path / 'data' / 'recon.duckdb'} (--db, else RECON_DB_PATH, else data/recon.duckdb "
        "under the current folder): run `recon run` first, or give --db"
    )


def test_main_called_in_process_leaves_sigpipe_to_its_caller(tmp_path, monkeypatch, capsys):
    """`main` set SIGPIPE to its default in the calling process: a test worker that called it was later killed,
    silently, by a write to a socket its client had closed (a loopback server test after a deadline: the clean-clone
    runs' "node down: Not properly terminated"). Only the `recon` command's entry point (`console`) sets it."""
    import signal
    import tomllib

    from recon_assets.cli.main import main

    monkeypatch.chdir(tmp_path)
    before = signal.getsignal(signal.SIGPIPE)
    assert main(["explain", "10.1002/2014jb011547"]) == 2
    capsys.readouterr()
    assert signal.getsignal(signal.SIGPIPE) == before
    scripts = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["recon"] == "recon_assets.cli.main:console"
