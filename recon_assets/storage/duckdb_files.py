"""What a DuckDB database file is, told from its first bytes, and the settings to open one given by a user: shared by
`recon run`'s pre-check and `recon explain`."""

from pathlib import Path

# A DuckDB database file opens with an 8-byte checksum and the magic bytes "DUCK" (DuckDB storage format, main header:
# https://duckdb.org/docs/stable/internals/storage). DuckDB itself opened a `.json` file as an empty database.
_DUCKDB_MAGIC = b"DUCK"
_DUCKDB_MAGIC_OFFSET = 8
# No extension is fetched or loaded when a file is opened: DuckDB would download one to open, say, a SQLite file.
NO_EXTENSIONS = {"autoinstall_known_extensions": False, "autoload_known_extensions": False}


def is_duckdb_file(path: Path) -> bool:
    """True when `path` is an empty file (DuckDB makes a database of it) or starts with DuckDB's file header.

    Raises:
        OSError: the file cannot be read.
    """
    with path.open("rb") as handle:
        head = handle.read(_DUCKDB_MAGIC_OFFSET + len(_DUCKDB_MAGIC))
    return not head or head[_DUCKDB_MAGIC_OFFSET:] == _DUCKDB_MAGIC
