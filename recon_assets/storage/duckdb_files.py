"""What a DuckDB database file is, told from its first bytes, the settings to open one given by a user, and why one
cannot be read: shared by `recon run`'s pre-check and the reading commands (`recon explain`, `recon ask`, `recon paper`).
No Dagster import: `recon explain` starts without it."""

from __future__ import annotations

import os
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb

from recon_assets.shared.display import first_line
from recon_assets.storage.ownership import foreign_tables, foreign_tables_line
from recon_assets.storage.schema import stored_tables
from recon_assets.storage.duckdb_settings import MOTHERDUCK_TOKEN_VARIABLE, connect_motherduck, is_motherduck, usable_token

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


def read_only(database: str) -> duckdb.DuckDBPyConnection:
    """A read-only connection to `database` outside a run (the reading commands, `recon run`'s summary): a local
    DuckDB file, loading no extension (NO_EXTENSIONS) and without its lock (a reader does not wait for writers), or a
    MotherDuck database (`md:<name>`) with the token of MOTHERDUCK_TOKEN.

    Raises:
        MissingTokenError: a MotherDuck database without MOTHERDUCK_TOKEN.
        MotherDuckUnreachable: DuckDB's motherduck extension could not be downloaded (`connect_motherduck`).
        duckdb.Error: the database cannot be opened (e.g. another process holds a local file's write lock).
    """
    if not is_motherduck(database):
        return duckdb.connect(database, read_only=True, config=NO_EXTENSIONS)
    return connect_motherduck(database, usable_token(database, os.environ.get(MOTHERDUCK_TOKEN_VARIABLE)), read_only=True)


class UnreadableDatabase(Exception):
    """The database a reading command was given cannot be read for what it needs; the message is the one line
    `database_problem` says."""


def database_problem(
    database: Path,
    tables: Collection[str] = (),
    holds: str = "the tables it needs",
) -> str | None:
    """Why the database a user gave a reading command (`recon explain`, `recon ask`, `recon paper`) cannot be read for
    `tables`, in one line; None when it can. Nothing is written: a file is opened read-only, and only when its header is
    DuckDB's.

    In order: no regular file at a local path; a file that cannot be read or does not start with DuckDB's header (an
    empty file too: it holds nothing a reader needs); a database `read_only` cannot open (another process writing it, a
    MotherDuck database without its token); one holding a table of recon_assets' names that recon_assets did not write
    (`ownership.foreign_tables`: another program's file; hostile pass 28: `recon ask` checked only the tables it
    read, and its run failed midway on another it writes); one without every table of `tables` ("holds no `holds`
    yet", naming the missing tables). A MotherDuck database (`md:`) skips the file checks. A command that goes on to
    read the database opens it once with `readable` instead.
    """
    try:
        with readable(database, tables, holds):
            return None
    except UnreadableDatabase as problem:
        return str(problem)


@contextmanager
def readable(
    database: Path,
    tables: Collection[str] = (),
    holds: str = "the tables it needs",
) -> Iterator[duckdb.DuckDBPyConnection]:
    """The read-only connection (`read_only`) a reading command reads `database` through, opened once, after the
    checks `database_problem` lists; closed when the block ends.

    Raises:
        UnreadableDatabase: the database cannot be read for `tables` (the message is `database_problem`'s line).
    """
    if not is_motherduck(database):
        try:  # is_file raises for a name too long or a folder that cannot be searched
            present_file = database.is_file()
            foreign = present_file and (database.stat().st_size == 0 or not is_duckdb_file(database))
        except OSError as error:
            raise UnreadableDatabase(f"cannot read {database}: {error.strerror or error}") from error
        if not present_file:
            raise UnreadableDatabase(
                f"no database file at {database.absolute()} (--db, else RECON_DB_PATH, else data/recon.duckdb under the "
                "current folder): run `recon run` first, or give --db"
            )
        if foreign:
            raise UnreadableDatabase(f"{database} is not a DuckDB database file (no DuckDB header): give the --db of a `recon run`")
    try:
        con = read_only(str(database))
    except (duckdb.Error, ValueError) as error:  # ValueError: MotherDuck's token missing (MissingTokenError)
        raise UnreadableDatabase(_cannot_read(database, error)) from error
    with con:
        try:
            present = stored_tables(con)
        except duckdb.Error as error:
            raise UnreadableDatabase(_cannot_read(database, error)) from error
        if foreign := foreign_tables(con):  # the whole file: the command's run writes more tables than it reads
            raise UnreadableDatabase(foreign_tables_line(str(database), foreign))
        if missing := [table for table in tables if table not in present]:
            raise UnreadableDatabase(
                f"{database} holds no {holds} yet (no {', '.join(missing)} table): run `recon run --db {database}` first"
            )
        yield con


def _cannot_read(database: Path, error: Exception) -> str:
    return f"cannot read {database}: {type(error).__name__}: {first_line(str(error))}"
