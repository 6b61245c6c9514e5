"""The SQL that shapes tables: package data in `recon_assets/<domain>/sql/`, one file per asset or step, beside the
domain that owns it (as dagster-open-platform keeps `defs/<domain>/sql/`). A file is named by its stem alone, unique
across the domains, so callers say `load_sql("publications")` wherever the file lives."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from types import ModuleType

PACKAGE_DIR = Path(__file__).resolve().parents[1]


def sql_files() -> dict[str, list[Path]]:
    """{name: the files of that name} over every `recon_assets/<domain>/sql/<name>.sql`, names sorted; a name held
    by more than one domain lists each of its files (`sql_path` refuses it)."""
    return {name: list(paths) for name, paths in _sql_files_under(PACKAGE_DIR).items()}


@cache
def _sql_files_under(package_dir: Path) -> dict[str, tuple[Path, ...]]:
    """`sql_files` of `package_dir`, listed once per process: the files are package data, and loading the
    definitions asked for the list about 225 times (each a glob and a sort of some 400 paths: about 0.3 CPU-s of each
    load, issue 23)."""
    found: dict[str, list[Path]] = {}
    for path in sorted(package_dir.glob("*/sql/*.sql")):
        found.setdefault(path.stem, []).append(path)
    return {name: tuple(paths) for name, paths in sorted(found.items())}


@cache
def sql_path(name: str) -> Path:
    """The one file `recon_assets/<domain>/sql/<name>.sql`, whichever domain holds it.

    Raises:
        FileNotFoundError: no domain holds a SQL file of that name.
        ValueError: more than one domain holds one (the name would be ambiguous).
    """
    paths = sql_files().get(name, [])
    if not paths:
        raise FileNotFoundError(f"no SQL file {name}.sql in any recon_assets/<domain>/sql/ folder")
    if len(paths) > 1:
        held = ", ".join(str(path.relative_to(PACKAGE_DIR.parent)) for path in paths)
        raise ValueError(f"SQL file name {name}.sql is not unique: {held}; rename one so load_sql({name!r}) is unambiguous")
    return paths[0]


@cache
def load_sql(name: str) -> str:
    """Text of `recon_assets/<domain>/sql/<name>.sql` (`sql_path`).

    Raises:
        FileNotFoundError, ValueError: see `sql_path`.
    """
    return sql_path(name).read_text()


def code_version(*modules: ModuleType, sql: Sequence[str] = (), files: Sequence[Path] = ()) -> str:
    """A 16-hex-digit SHA-256 of the source of `modules`, the SQL files `sql` (names as for `load_sql`) and `files`:
    an asset's `code_version`, so the UI marks its materializations out of date when the code that computes it
    changes (and a judge's settings, so that a changed cue re-judges).

    Raises:
        FileNotFoundError, ValueError: a name in `sql` does not resolve (see `sql_path`).
    """
    digest = hashlib.sha256()
    for path in [*(Path(module.__file__) for module in modules), *(sql_path(name) for name in sql), *files]:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
