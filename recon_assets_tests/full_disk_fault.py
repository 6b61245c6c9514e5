"""`recon run` with a full disk simulated at Dagster's event-log storage: run as a script, it makes
`SqliteEventLogStorage.store_event` fail, from the first event of step `publications` on, with the error a full disk
gives (FAULT=sqlite: SQLite's "database or disk is full" as SQLAlchemy wraps it; FAULT=oserror: OSError ENOSPC naming
a file under DAGSTER_HOME), or, with FAULT=duckdb, the disk beside the database: every DuckDB connection a step asks
for after the first (kg_snapshot's) fails with DuckDB's IOException for a full disk; then runs `recon` with the given
arguments. `recon run` launches its runs in processes of their own (the code server, the run worker): the fault reaches
them as a `sitecustomize` module on their PYTHONPATH, which Python imports at start-up in every process.

Simulated, not real: no filesystem fills up (a small tmpfs cannot be mounted here); everything else (the CLI,
Dagster's execution and its instance) is real.
"""

import errno
import os
import sqlite3
import sys
import tempfile
from pathlib import Path

import duckdb
import sqlalchemy
from dagster._core.storage.event_log.sqlite.sqlite_event_log import SqliteEventLogStorage

from recon_assets.storage.duckdb_store import TableStore

_store_event = SqliteEventLogStorage.store_event
_get_connection = TableStore.connect
_connections: list[str] = []


def _full_disk_store_event(self, event):
    if event.dagster_event is not None and event.dagster_event.step_key == "publications":
        if os.environ["FAULT"] == "sqlite":
            raise sqlalchemy.exc.OperationalError("INSERT INTO event_logs", {}, sqlite3.OperationalError("database or disk is full"))
        path = os.path.join(os.environ["DAGSTER_HOME"], "history", "runs", "run.db")
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), path)
    return _store_event(self, event)


def _full_disk_connection(self):
    _connections.append(self.database)
    if len(_connections) > 1:
        raise duckdb.IOException(f'IO Error: Could not write file "{self.database}.wal": No space left on device')
    return _get_connection(self)


def install() -> None:
    """Make this process's storage fail as FAULT says."""
    if os.environ["FAULT"] == "duckdb":
        TableStore.connect = _full_disk_connection
    else:
        SqliteEventLogStorage.store_event = _full_disk_store_event


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as site:
        Path(site, "sitecustomize.py").write_text("import full_disk_fault\nfull_disk_fault.install()\n")
        os.environ["PYTHONPATH"] = os.pathsep.join([site, str(Path(__file__).parent), *filter(None, [os.environ.get("PYTHONPATH")])])
        install()
        from recon_assets.cli.main import main

        code = main(sys.argv[1:])
    sys.exit(code)
