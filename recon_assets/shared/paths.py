"""Where recon_assets finds its files and keeps its database. No Dagster import: `recon explain` reads it."""

import errno
import os
from pathlib import Path

from filelock import FileLock

# The shipped sample KG and its recorded OpenAlex answers (package data; recon_assets/sample/README.md).
SAMPLE_DIR = Path(__file__).resolve().parents[1] / "sample"
DEFAULT_DB_PATH = Path("data") / "recon.duckdb"


def database_path() -> Path:
    """The DuckDB file: RECON_DB_PATH, else data/recon.duckdb relative to the working directory."""
    return Path(os.environ.get("RECON_DB_PATH") or DEFAULT_DB_PATH)


def resolved(path: Path, name: str) -> Path:
    """`path` made absolute, its symbolic links resolved (`Path.resolve`).

    Raises:
        ValueError: a symbolic-link loop, or a link the system cannot follow: one line naming `name` (the flag or
            variable that gave the path). Python before 3.13 raises RuntimeError for a loop, 3.13 an OSError (ELOOP).
    """
    try:
        return path.resolve()
    except RuntimeError as error:
        raise ValueError(f"{name} {path} is a symbolic-link loop: point it at a file") from error
    except OSError as error:
        why = "is a symbolic-link loop: point it at a file" if error.errno == errno.ELOOP else f"cannot be resolved: {error.strerror or error}"
        raise ValueError(f"{name} {path} {why}") from error


def database_lock(database: Path) -> FileLock:
    """The lock every writer of `database` holds while it writes: `<database>.lock` beside it. One object per file
    in this process (a singleton), so a step's DuckDB connections in one thread re-enter it; a run in another process
    (from the UI, a schedule or `recon run`, which takes it only for its pre-check) waits for it."""
    return FileLock(f"{Path(database).resolve()}.lock", is_singleton=True)


def recon_run_lock(database: Path) -> FileLock:
    """The lock one `recon run` holds on `database` from its checks to its summary: `<database>.recon-run.lock`
    beside it. The steps take `database_lock` for each connection only, so without it a second `recon run` started
    between two steps of the first ran too (hostile pass, 2026-12-03)."""
    return FileLock(f"{Path(database).resolve()}.recon-run.lock")


PSEUDO_FILESYSTEMS = (Path("/proc"), Path("/sys"), Path("/dev"))
# POSIX shared memory: a tmpfs whose files are ordinary files a user may keep an export in (Linux's shm_overview(7)).
SHARED_MEMORY = Path("/dev/shm")


def is_pseudo_file(path: Path) -> bool:
    """True for a file under /proc, /sys or /dev but not /dev/shm (after resolving links): the kernel reports such
    files as regular files of 0 bytes whose reads return live process or device state (the environment, with its
    keys). Any input file a user names (a KG export, a steward file) is refused there."""
    resolved = path.resolve()
    if resolved.is_relative_to(SHARED_MEMORY):
        return False
    return any(resolved.is_relative_to(root) for root in PSEUDO_FILESYSTEMS)
