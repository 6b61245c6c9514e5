"""Issue 14: a disk that fills under DAGSTER_HOME printed a 101-line traceback; issue 24: one beside the database printed
111 lines, Dagster's stack traces included. `recon run` now prints one line saying which path is full and exits 1, and
nothing else about it unless --verbose. The full disk is simulated at Dagster's event-log storage or at the DuckDB
resource, in every process of the run (full_disk_fault.py says how); the run itself is a real `recon run` subprocess on
the tiny KG (`tiny_kg`: what is tested is the process handling, not the science; the fault comes in its first job)."""

from __future__ import annotations

import errno
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
import sqlalchemy

from recon_assets.cli import run as run_module
from recon_assets.cli.run import disk_full_message
from recon_assets_tests.tiny_kg import TINY_KG

FAULT_SCRIPT = Path(__file__).with_name("full_disk_fault.py")


@pytest.mark.parametrize(
    ("fault", "expected"),
    [
        pytest.param(
            "sqlite",
            "error: [kg_tables_job] no space left on the device holding {home} (under DAGSTER_HOME: Dagster's run and event storage): "
            "free space there, or set DAGSTER_HOME to a folder on another disk",
            id="sqlite-database-or-disk-is-full",
        ),
        pytest.param(
            "oserror",
            "error: [kg_tables_job] no space left on the device holding {home}/history/runs/run.db (under DAGSTER_HOME: Dagster's run and "
            "event storage): free space there, or set DAGSTER_HOME to a folder on another disk",
            id="oserror-enospc",
        ),
    ],
)
def test_a_full_disk_under_dagster_home_is_one_line_naming_the_path(tmp_path, fault, expected):
    home = tmp_path / "home"
    env = {**os.environ, "DAGSTER_HOME": str(home), "RECON_KG_PATH": str(TINY_KG), "FAULT": fault}
    run = subprocess.run(
        [sys.executable, str(FAULT_SCRIPT), "run", "--db", str(tmp_path / "r.duckdb")],
        capture_output=True, text=True, env=env, timeout=900,
    )
    assert run.returncode == 1
    # The run worker cannot store the run's events; `recon run` reads the cause on its console. (Issue 23: the run is
    # launched through the code location, so its job is named.)
    assert run.stderr.splitlines() == [f"{expected.format(home=home)} (`recon run --verbose` shows all Dagster said)"]
    assert_only_the_cause(run)


def assert_only_the_cause(run: subprocess.CompletedProcess) -> None:
    """Nothing about the failure but its one line, which ends the output: no stack trace, no Dagster failure record."""
    assert run.stderr.splitlines()[-1].startswith("error: ")
    for marker in ("Traceback", "Stack Trace", " - ERROR - ", "dagster._core.errors"):
        assert marker not in run.stdout + run.stderr, marker


@pytest.mark.parametrize("verbose", [False, True], ids=["one-line", "verbose"])
def test_a_full_disk_beside_the_database_is_one_line_and_nothing_else_unless_verbose(tmp_path, verbose):
    """Hostile pass: a full disk beside the database printed 111 lines, Dagster's stack traces included, before the
    clear cause. Every step failure now ends `recon run` with one line; --verbose adds Dagster's failure records."""
    home, database = tmp_path / "home", tmp_path / "r.duckdb"
    env = {**os.environ, "DAGSTER_HOME": str(home), "RECON_KG_PATH": str(TINY_KG), "FAULT": "duckdb"}
    run = subprocess.run(
        [sys.executable, str(FAULT_SCRIPT), "run", "--db", str(database), *(["--verbose"] if verbose else [])],
        capture_output=True, text=True, env=env, timeout=900,
    )
    assert run.returncode == 1
    full = (f"no space left on the device holding {database} (the DuckDB file r.duckdb and its spill folder r.duckdb.tmp): "
            "free space there, or give --db on another disk")
    last = run.stderr.splitlines()[-1]
    assert re.fullmatch(
        rf"error: \[kg_tables_job\] step \w+ failed: {re.escape(full)}(; step \w+ failed: {re.escape(full)})* \(run [0-9a-f-]+: "
        rf"its full logs with `recon run --verbose`, or in `dagster dev` with DAGSTER_HOME={re.escape(str(home))}\)", last,
    ), last
    if verbose:
        assert "Stack Trace" in run.stderr and " - ERROR - " in run.stderr
    else:
        assert run.stderr.splitlines() == [last]
        assert_only_the_cause(run)


def test_any_other_failure_is_one_line_unless_verbose(monkeypatch, tmp_path, capsys):
    """Every failure of `recon run` ends with its cause in one line, whatever raised it (a multi-line message, a key
    in it); --verbose lets the exception and its stack trace through."""
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("GROQ_API_KEY", "gsk_one_line_secret_1234567890")

    def fails(*_):
        raise RuntimeError("the report template is missing\n  File x, line 3\nwith gsk_one_line_secret_1234567890")

    monkeypatch.setattr(run_module, "_run_pipeline", fails)
    assert run_module.run_pipeline(None, tmp_path / "r.duckdb", None) == 1
    assert capsys.readouterr().err == (
        "error: RuntimeError: the report template is missing (`recon run --verbose` prints its stack trace)\n"
    )
    with pytest.raises(RuntimeError, match="the report template is missing"):
        run_module.run_pipeline(None, tmp_path / "r.duckdb", None, verbose=True)

    def interrupted(*_):
        raise KeyboardInterrupt

    monkeypatch.setattr(run_module, "_run_pipeline", interrupted)
    assert run_module.run_pipeline(None, tmp_path / "r.duckdb", None) == 130
    assert capsys.readouterr().err == "error: interrupted (Ctrl-C)\n"


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        pytest.param(
            RuntimeError("step failed"), None, id="not-a-full-disk",
        ),
        pytest.param(
            duckdb.IOException('Could not write file "r.duckdb.tmp/x": No space left on device'),
            "no space left on the device holding {db} (the DuckDB file r.duckdb and its spill folder r.duckdb.tmp): "
            "free space there, or give --db on another disk",
            id="duckdb",
        ),
        pytest.param(
            OSError(errno.EDQUOT, os.strerror(errno.EDQUOT), "/elsewhere/file"),
            "no space left on the device holding /elsewhere/file (written by this run): free space there, or move it to another disk",
            id="quota-elsewhere",
        ),
        pytest.param(
            OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)),
            "no space left on a device this run writes to (DAGSTER_HOME {home}, or the DuckDB file's folder {folder}): "
            "free space there, or move them to another disk",
            id="enospc-without-a-path",
        ),
    ],
)
def test_disk_full_message_finds_the_cause_in_the_chain(monkeypatch, tmp_path, error, expected):
    home, database = tmp_path / "home", tmp_path / "r.duckdb"
    monkeypatch.setenv("DAGSTER_HOME", str(home))
    try:
        try:
            raise error
        except BaseException as cause:
            raise sqlalchemy.exc.OperationalError("wrapped", {}, sqlite3.OperationalError("other")) from cause
    except sqlalchemy.exc.OperationalError as chained:
        message = disk_full_message(chained, database)
    assert message == (expected.format(db=database, home=home, folder=tmp_path) if expected else None)
