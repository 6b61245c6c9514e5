"""Issue 14: a disk that fills under DAGSTER_HOME printed a 101-line traceback. `recon run` now prints one line
saying which path is full and exits 1. The full disk is simulated at Dagster's event-log storage
(full_disk_fault.py says how); the run itself is a real `recon run` subprocess on the shipped sample."""

from __future__ import annotations

import errno
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
import sqlalchemy

from recon_assets.cli.run import disk_full_message

FAULT_SCRIPT = Path(__file__).with_name("full_disk_fault.py")


@pytest.mark.parametrize(
    ("fault", "expected"),
    [
        pytest.param(
            "sqlite",
            "error: no space left on the device holding {home} (under DAGSTER_HOME: Dagster's run and event storage): "
            "free space there, or set DAGSTER_HOME to a folder on another disk",
            id="sqlite-database-or-disk-is-full",
        ),
        pytest.param(
            "oserror",
            "error: no space left on the device holding {home}/history/runs/run.db (under DAGSTER_HOME: Dagster's run and "
            "event storage): free space there, or set DAGSTER_HOME to a folder on another disk",
            id="oserror-enospc",
        ),
    ],
)
def test_a_full_disk_under_dagster_home_is_one_line_naming_the_path(tmp_path, fault, expected):
    home = tmp_path / "home"
    env = {**os.environ, "DAGSTER_HOME": str(home), "RECON_KG_PATH": "", "FAULT": fault}
    run = subprocess.run(
        [sys.executable, str(FAULT_SCRIPT), "run", "--db", str(tmp_path / "r.duckdb")],
        capture_output=True, text=True, env=env, timeout=300,
    )
    assert run.returncode == 1
    errors = [line for line in run.stderr.splitlines() if not line.startswith("20")]  # Dagster's own log lines start with the date
    assert errors == [expected.format(home=home)]
    assert "Traceback" not in run.stdout + run.stderr


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
