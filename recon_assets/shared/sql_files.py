"""The SQL that shapes tables: package data in `recon_assets/sql/`, one file per asset or step."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from types import ModuleType

SQL_DIR = Path(__file__).resolve().parents[1] / "sql"


@cache
def load_sql(name: str) -> str:
    """Text of `recon_assets/sql/<name>.sql`.

    Raises:
        FileNotFoundError: no SQL file of that name.
    """
    return (SQL_DIR / f"{name}.sql").read_text()


def code_version(*modules: ModuleType, sql: Sequence[str] = (), files: Sequence[Path] = ()) -> str:
    """A 16-hex-digit SHA-256 of the source of `modules`, the SQL files `sql` (names as for `load_sql`) and `files`:
    an asset's `code_version`, so the UI marks its materializations out of date when the code that computes it
    changes (and a judge's settings, so that a changed cue re-judges)."""
    digest = hashlib.sha256()
    for path in [*(Path(module.__file__) for module in modules), *(SQL_DIR / f"{name}.sql" for name in sql), *files]:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
