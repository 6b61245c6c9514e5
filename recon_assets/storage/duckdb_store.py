"""The table store on DuckDB: a local DuckDB file, or a MotherDuck database when the database setting is `md:<name>`
(MotherDuck is DuckDB hosted, reached through DuckDB's `motherduck` extension: one engine, two places).

`TableStore` is the one resource assets read and write tables through: it opens the connection (the file's lock
held for a local file, the token from MOTHERDUCK_TOKEN for MotherDuck), and each connection it hands out is a
`Tables`: the engine connection plus the store's operations (create and migrate tables, replace partitions or whole
tables, upsert, read a SQL file's rows as a DataFrame or an Arrow table).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from pathlib import Path

import dagster as dg
import duckdb
from filelock import Timeout
from pydantic import Field, field_validator
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_exponential

from recon_assets.shared.paths import database_lock
from recon_assets.shared.run_tags import DATABASE_TAG, tag_run
from recon_assets.storage.tables import Tables
from recon_assets.storage.duckdb_settings import (
    DEFAULT_LOCK_WAIT_SECONDS,
    MEMORY_LIMIT_VARIABLE,
    MOTHERDUCK_TOKEN_VARIABLE,
    check_memory_limit,
    connect_motherduck,
    is_motherduck,
    memory_limit_warning,
    refuse_written_token,
    usable_token,
)

@dataclass(frozen=True)
class ConnectionTarget:
    """What `duckdb.connect` opens for a database setting: `database` (a file path or `md:<name>`), its settings
    `config` (never the token: `TableStore.connect` adds it) and `local_file`, the file whose lock writers hold (None
    for MotherDuck, which serves several writers itself)."""

    database: str
    config: dict[str, Any]
    local_file: Path | None



def connection_target(database: str, connection_config: dict[str, Any] | None = None) -> ConnectionTarget:
    """The `ConnectionTarget` of the database setting `database` with DuckDB settings `connection_config`
    (`duckdb_settings.duckdb_connection_config`: memory_limit, temp_directory).

    Raises:
        MissingTokenError: the MotherDuck setting carries a token (`md:x?motherduck_token=...`): it would be shown in
            the UI and on every run's tags; one line saying to use MOTHERDUCK_TOKEN.
    """
    config = dict(connection_config or {})
    if not is_motherduck(database):
        return ConnectionTarget(database, config, Path(database))
    refuse_written_token(database)
    return ConnectionTarget(database, config, None)


class TableStore(dg.ConfigurableResource):
    """Where every table lives: a local DuckDB file, or a MotherDuck database (`database` = `md:<name>`, token from
    MOTHERDUCK_TOKEN). Each `connect()` is one connection with the store's operations (`Tables`); for a local file it
    holds the file's lock (`paths.database_lock`) until it closes, so two runs (from the UI, a schedule or `recon run`)
    never write the file at once, whichever Dagster instance launched them. When a run's resources start it checks
    the token, creates a local file's folder (loading the definitions creates nothing) and names the database on the
    run (tag recon/database)."""

    database: str = Field(description="A DuckDB file's path, or md:<name> for a MotherDuck database.")
    connection_config: dict[str, Any] = Field(
        default={}, description="DuckDB settings of each connection (memory_limit, temp_directory)."
    )
    lock_wait_seconds: float = Field(
        default=DEFAULT_LOCK_WAIT_SECONDS, gt=0, description="Seconds a step waits for another process writing a local file."
    )
    motherduck_token: str | None = Field(
        default=None, description=f"MotherDuck's token, from {MOTHERDUCK_TOKEN_VARIABLE} (a MotherDuck database only)."
    )

    @field_validator("connection_config")
    @classmethod
    def _usable_memory_limit(cls, config: dict) -> dict:
        """A memory_limit a run cannot work with (`check_memory_limit`; a launchpad's run config may set one) is
        refused when the resource is built: at launch (`cli.launch_checks`) and when a run starts its resources, in
        one line, not with DuckDB's OutOfMemoryException in the first step."""
        if "memory_limit" in (config or {}):
            check_memory_limit(str(config["memory_limit"]), source=f"the store's memory_limit ({MEMORY_LIMIT_VARIABLE})")
        return config

    @property
    def target(self) -> ConnectionTarget:
        """What each connection opens (`connection_target`).

        Raises:
            MissingTokenError: see `connection_target`.
        """
        return connection_target(self.database, self.connection_config)

    def setup_for_execution(self, context: dg.InitResourceContext) -> None:
        target = self.target
        if target.local_file is None:
            self._token()
            tag_run(context, {DATABASE_TAG: target.database})
        else:
            target.local_file.parent.mkdir(parents=True, exist_ok=True)
            tag_run(context, {DATABASE_TAG: str(target.local_file.resolve())})
        memory_limit = target.config.get("memory_limit")
        if memory_limit is not None and (warning := memory_limit_warning(str(memory_limit))):
            context.log.warning(warning)

    def _token(self) -> str:
        """The MotherDuck token (`usable_token`)."""
        return usable_token(self.database, self.motherduck_token)

    @contextmanager
    def connect(self) -> Iterator[Tables]:
        """One connection to the store (`Tables`), closed when the block ends; a local file's lock is held until then.

        Raises:
            TimeoutError: another process held a local file's lock for lock_wait_seconds (its path named).
            MissingTokenError: a MotherDuck database without MOTHERDUCK_TOKEN.
            MotherDuckUnreachable: DuckDB's motherduck extension could not be downloaded (`connect_motherduck`).
            duckdb.Error: the database cannot be opened.
        """
        target = self.target
        config = {"custom_user_agent": "recon_assets", **target.config}
        with self._lock(target.local_file):
            con = (
                connect_motherduck(target.database, self._token(), config=config) if target.local_file is None
                else _open(target.database, config)
            )
            try:
                yield Tables(con)
            finally:
                con.close()

    @contextmanager
    def _lock(self, local_file: Path | None) -> Iterator[None]:
        """Hold `local_file`'s lock (`paths.database_lock`) for the block; no lock for MotherDuck."""
        if local_file is None:
            yield
            return
        lock = database_lock(local_file)
        try:
            lock.acquire(timeout=self.lock_wait_seconds)
        except Timeout as error:
            raise TimeoutError(
                f"another process has been writing {self.database} for over {self.lock_wait_seconds:.0f}s (lock "
                f"{lock.lock_file}): wait for that run (`recon run` or a run from the UI) to finish"
            ) from error
        try:
            yield
        finally:
            lock.release()


# A reader of a local file outside the lock (`recon explain`, a notebook) holds DuckDB's own file lock for a moment:
# retried as dagster_duckdb's DuckDBResource does (10 attempts), with exponential waits up to 2 s. MotherDuck is not
# retried: its IOException is a failed download of the extension or an unreachable service.
@retry(
    retry=retry_if_exception_type(duckdb.IOException), stop=stop_after_attempt(10), wait=wait_exponential(multiplier=0.05, max=2),
    reraise=True,
)
def _open(database: str, config: dict[str, Any]) -> duckdb.DuckDBPyConnection:
    return duckdb.connect(database, config=config)
