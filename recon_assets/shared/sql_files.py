"""The SQL that shapes tables: package data in `recon_assets/sql/`, one file per asset or step."""

from __future__ import annotations

from functools import cache
from pathlib import Path

SQL_DIR = Path(__file__).resolve().parents[1] / "sql"


@cache
def load_sql(name: str) -> str:
    """Text of `recon_assets/sql/<name>.sql`.

    Raises:
        FileNotFoundError: no SQL file of that name.
    """
    return (SQL_DIR / f"{name}.sql").read_text()
