"""Where recon_assets finds its files and keeps its database. No Dagster import: `recon explain` reads it."""

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DB_PATH = Path("data") / "recon.duckdb"


def database_path() -> Path:
    """The DuckDB file: RECON_DB_PATH, else data/recon.duckdb relative to the working directory."""
    return Path(os.environ.get("RECON_DB_PATH") or DEFAULT_DB_PATH)
