"""`recon run` with a full disk simulated at Dagster's event-log storage: run as a script, it makes
`SqliteEventLogStorage.store_event` fail, from the first event of step `publications` on, with the error a full disk
gives (FAULT=sqlite: SQLite's "database or disk is full" as SQLAlchemy wraps it; FAULT=oserror: OSError ENOSPC naming
a file under DAGSTER_HOME), then runs `recon` with the given arguments.

Simulated, not real: no filesystem fills up (a small tmpfs cannot be mounted here); everything else (the CLI,
Dagster's execution and its instance) is real.
"""

import errno
import os
import sqlite3
import sys

import sqlalchemy
from dagster._core.storage.event_log.sqlite.sqlite_event_log import SqliteEventLogStorage

_store_event = SqliteEventLogStorage.store_event


def _full_disk_store_event(self, event):
    if event.dagster_event is not None and event.dagster_event.step_key == "publications":
        if os.environ["FAULT"] == "sqlite":
            raise sqlalchemy.exc.OperationalError("INSERT INTO event_logs", {}, sqlite3.OperationalError("database or disk is full"))
        path = os.path.join(os.environ["DAGSTER_HOME"], "history", "runs", "run.db")
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), path)
    return _store_event(self, event)


if __name__ == "__main__":
    SqliteEventLogStorage.store_event = _full_disk_store_event
    from recon_assets.cli.main import main

    sys.exit(main(sys.argv[1:]))
