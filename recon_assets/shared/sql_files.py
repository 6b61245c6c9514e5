"""The SQL that shapes tables lives in the repository's `sql/` folder, one file per asset or step."""

from __future__ import annotations

from functools import cache

from recon_assets.shared.paths import REPO_ROOT

SQL_DIR = REPO_ROOT / "sql"


@cache
def load_sql(name: str) -> str:
    """Text of `sql/<name>.sql`.

    Raises:
        FileNotFoundError: the file is missing (the package must be installed from a checkout, `pip install -e .`).
    """
    path = SQL_DIR / f"{name}.sql"
    if not path.is_file():
        raise FileNotFoundError(f"SQL file {path} not found: install recon_assets from its checkout (pip install -e .)")
    return path.read_text()
