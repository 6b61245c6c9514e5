"""The DuckDB file every asset writes: the settings of each connection to it."""

from __future__ import annotations

import os
from pathlib import Path

import dagster as dg
from dagster_duckdb import DuckDBResource

# DuckDB's own default is 80% of RAM, which let a v1-size ingest take 6.7 GB. With a limit it spills to its temp
# directory instead: 3 GB leaves room for Python and DuckDB's unmanaged memory under issue 5's 4 GB target.
DEFAULT_DUCKDB_MEMORY_LIMIT = "3GB"


def duckdb_connection_config(database: Path) -> dict[str, str]:
    """DuckDB settings for every connection to `database`: `memory_limit` (RECON_DUCKDB_MEMORY_LIMIT, a DuckDB size
    such as '3GB'; default DEFAULT_DUCKDB_MEMORY_LIMIT) and `temp_directory` `<database>.tmp` beside it, where data
    beyond the limit spills (https://duckdb.org/docs/stable/configuration/overview)."""
    return {
        "memory_limit": os.environ.get("RECON_DUCKDB_MEMORY_LIMIT") or DEFAULT_DUCKDB_MEMORY_LIMIT,
        "temp_directory": f"{database}.tmp",
    }


class DuckDBFile(DuckDBResource):
    """dagster_duckdb's resource, creating the database file's folder when a run's resources start (so loading the
    definitions creates nothing)."""

    def setup_for_execution(self, context: dg.InitResourceContext) -> None:
        Path(self.database).parent.mkdir(parents=True, exist_ok=True)
