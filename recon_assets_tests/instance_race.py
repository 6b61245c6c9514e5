"""Widen the window in which two processes create the storage of a new Dagster instance at once (issue 24, hostile
pass: two `recon run` on a new, empty DAGSTER_HOME left two rows in a storage's alembic_version table, 1 time in 2).

Dagster's SQLite storages (runs, schedules, the event log's index) create their tables, then stamp the schema's
revision in `alembic_version`; a second process that looks in between finds the tables without a revision, takes the
database for one made by an older Dagster and stamps that older revision too (or fails: "table alembic_version already
exists"). Installed in a process (`install`, from a `sitecustomize` module on PYTHONPATH so that every process
`recon run` starts has it: the `dagster job launch`, its code server and the run worker), each stamp first records
which process stamps which database (a file `<database file>.<pid>` in RACE_DIR holding its command line), then waits
until RACE_DIR holds a file `go`: a test holds one process there while it starts another.

Simulated, not real: the stamp is made slow; the storage, the processes and their order are real.
"""

import os
import sys
import time
from pathlib import Path

from dagster._core.storage.event_log.sqlite import consolidated_sqlite_event_log, sqlite_event_log
from dagster._core.storage.runs.sqlite import sqlite_run_storage
from dagster._core.storage.schedules.sqlite import sqlite_schedule_storage

# A guard: a process held longer than this goes on (the test's own deadline then fails it).
HOLD_SECONDS = 300.0
_MODULES = (sqlite_run_storage, sqlite_schedule_storage, sqlite_event_log, consolidated_sqlite_event_log)


def stamps(race_dir: Path) -> dict[str, list[str]]:
    """{database file name: [command line of each process that stamped it]}."""
    found: dict[str, list[str]] = {}
    for marker in sorted(race_dir.glob("*.db.*")):
        found.setdefault(marker.name.rsplit(".", 1)[0], []).append(marker.read_text())
    return found


def install() -> None:
    """Make every schema stamp of this process recorded and held as the module docstring says."""
    race_dir = Path(os.environ["RACE_DIR"])
    for module in _MODULES:
        original = module.stamp_alembic_rev

        def held_stamp(alembic_config, connection, rev="head", _original=original):
            database = Path(connection.engine.url.database or "memory").name
            (race_dir / f"{database}.{os.getpid()}").write_text(" ".join(sys.argv))
            deadline = time.monotonic() + HOLD_SECONDS
            while not (race_dir / "go").exists() and time.monotonic() < deadline:
                time.sleep(0.05)
            return _original(alembic_config, connection, rev=rev)

        module.stamp_alembic_rev = held_stamp
