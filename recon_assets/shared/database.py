"""The DuckDB file every asset writes: the settings of each connection to it, and the resource that holds the
file's lock for each connection."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import dagster as dg
import duckdb
from dagster_duckdb import DuckDBResource
from filelock import Timeout
from pydantic import Field

from recon_assets.shared.credentials import shown_setting
from recon_assets.shared.paths import database_lock
from recon_assets.shared.run_tags import DATABASE_TAG, tag_run

# DuckDB's own default is 80% of RAM, which let a v1-size ingest take 6.7 GB. With a limit it spills to its temp
# directory instead: 3 GB leaves room for Python and DuckDB's unmanaged memory under issue 5's 4 GB target.
DEFAULT_DUCKDB_MEMORY_LIMIT = "3GB"
# How long a step waits for another process writing the same DuckDB file (seconds): as long as `recon run` waits for
# the `duckdb` pool (cli.run.DEFAULT_POOL_WAIT_SECONDS).
DEFAULT_LOCK_WAIT_SECONDS = 3600.0


def duckdb_connection_config(database: Path) -> dict[str, str]:
    """DuckDB settings for every connection to `database`: `memory_limit` (RECON_DUCKDB_MEMORY_LIMIT, a DuckDB size
    such as '3GB'; default DEFAULT_DUCKDB_MEMORY_LIMIT) and `temp_directory` `<database>.tmp` beside it, where data
    beyond the limit spills (https://duckdb.org/docs/stable/configuration/overview)."""
    return {
        "memory_limit": os.environ.get("RECON_DUCKDB_MEMORY_LIMIT") or DEFAULT_DUCKDB_MEMORY_LIMIT,
        "temp_directory": f"{database}.tmp",
    }


def check_memory_limit(value: str) -> None:
    """Refuse a RECON_DUCKDB_MEMORY_LIMIT DuckDB cannot read, by asking DuckDB itself (an in-memory connection with
    it): without this a bad value ended the first step with DuckDB's parser error.

    Raises:
        ValueError: DuckDB refuses `value`; the message quotes it through `credentials.shown_setting`.
    """
    try:
        duckdb.connect(":memory:", config={"memory_limit": value}).close()
    except duckdb.Error as error:
        raise ValueError(
            f"RECON_DUCKDB_MEMORY_LIMIT must be a DuckDB memory size such as '3GB' or '2GiB', got {shown_setting(value)}"
            f" ({type(error).__name__})"
        ) from None


class LockedDuckDBResource(DuckDBResource):
    """dagster_duckdb's resource, holding the database's file lock (`paths.database_lock`) for each connection, so
    that a run from the UI and `recon run` (which holds the lock for its whole run) never write the file at once,
    whichever Dagster instance launched them. When a run's resources start it creates the file's folder (so loading
    the definitions creates nothing) and names the file on the run (tag recon/database)."""

    lock_wait_seconds: float = Field(
        default=DEFAULT_LOCK_WAIT_SECONDS, gt=0, description="Seconds a step waits for another process writing the file."
    )

    def setup_for_execution(self, context: dg.InitResourceContext) -> None:
        Path(self.database).parent.mkdir(parents=True, exist_ok=True)
        tag_run(context, {DATABASE_TAG: str(Path(self.database).resolve())})

    @contextmanager
    def get_connection(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """A connection to the file, with its lock held until the connection is closed.

        Raises:
            TimeoutError: another process held the lock for lock_wait_seconds (its path named).
        """
        lock = database_lock(Path(self.database))
        try:
            lock.acquire(timeout=self.lock_wait_seconds)
        except Timeout as error:
            raise TimeoutError(
                f"another process has been writing {self.database} for over {self.lock_wait_seconds:.0f}s (lock "
                f"{lock.lock_file}): wait for that run (`recon run` or a run from the UI) to finish"
            ) from error
        try:
            with super().get_connection() as con:
                yield con
        finally:
            lock.release()
