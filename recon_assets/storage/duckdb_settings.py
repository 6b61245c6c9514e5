"""The settings of each connection to the DuckDB database every asset writes: its memory limit and where it spills
(`duckdb_store.TableStore` opens the connections), and MotherDuck's token. No Dagster import: `recon run`'s pre-check reads it."""

from __future__ import annotations

import os
import re
from pathlib import Path

import duckdb
from pydantic import ByteSize, TypeAdapter

from recon_assets.shared.credentials import shown_setting

# DuckDB's own default is 80% of RAM, which let a v1-size ingest take 6.7 GB. With a limit it spills to its temp
# directory instead: 3 GB leaves room for Python and DuckDB's unmanaged memory under issue 5's 4 GB target.
DEFAULT_DUCKDB_MEMORY_LIMIT = "3GB"
# The least memory_limit a run starts with. The shipped sample needs between 32MB (publication_citations fails out of
# memory) and 48MB (every run succeeds), measured with `recon run` at commit 131f833; 256MB leaves five times that for
# a larger KG, whose bigger joins spill to the temp directory. Below it (0GB, 1KB) the first step died in a 107-line
# OutOfMemoryException.
MIN_DUCKDB_MEMORY_LIMIT = "256MB"
MEMORY_LIMIT_VARIABLE = "RECON_DUCKDB_MEMORY_LIMIT"
# A decimal number and a unit (DuckDB's: KB, MiB, GB, ..., %). DuckDB also reads '1e3GB' (931.3 GiB), '.5GB' or
# '3.GB': a typo away from a size no one meant, so they are refused.
_PLAIN_SIZE = re.compile(r"\s*[0-9]+(?:\.[0-9]+)?\s*[A-Za-z%]+\s*")
# How long a step waits for another process writing the same DuckDB file (seconds): as long as `recon run` waits for
# the `duckdb` pool (cli.run.DEFAULT_POOL_WAIT_SECONDS).
DEFAULT_LOCK_WAIT_SECONDS = 3600.0
# DuckDB opens a MotherDuck database for a path with one of these prefixes
# (https://motherduck.com/docs/key-tasks/authenticating-and-connecting-to-motherduck/connecting-to-motherduck).
MOTHERDUCK_PREFIXES = ("md:", "motherduck:")
# Where the local files of a MotherDuck database (reports, exports) go: under data/, as for the default local file.
MOTHERDUCK_OUTPUT_FOLDER = Path("data")


def is_motherduck(database: str | Path) -> bool:
    """True when `database` names a MotherDuck database (`md:<name>`, `motherduck:<name>`), not a local file."""
    return str(database).startswith(MOTHERDUCK_PREFIXES)


def output_anchor(database: str | Path) -> Path:
    """The local path the reports and exports of `database` are named after (`storage.output_files.output_folder`): a
    local file itself, or `data/md_<name>` for a MotherDuck database (md:recon -> data/reports/md_recon/; `md:` alone,
    the default database, -> md_default)."""
    if not is_motherduck(database):
        return Path(database)
    name = str(database).split(":", 1)[1].split("?", 1)[0] or "default"
    return MOTHERDUCK_OUTPUT_FOLDER / f"md_{name}"


def duckdb_connection_config(database: str | Path) -> dict[str, str]:
    """DuckDB settings for every connection to `database`: `memory_limit` (RECON_DUCKDB_MEMORY_LIMIT, a DuckDB size
    such as '3GB'; default DEFAULT_DUCKDB_MEMORY_LIMIT) and, for a local file, `temp_directory` `<database>.tmp` beside
    it, where data beyond the limit spills (https://duckdb.org/docs/stable/configuration/overview); a MotherDuck
    database's client spills to DuckDB's default temp directory.

    Raises:
        ValueError: RECON_DUCKDB_MEMORY_LIMIT is unusable (`check_memory_limit`): `recon run`'s pre-check and the
            loading of the definitions (the UI's code location) stop with that one line.
    """
    memory_limit = os.environ.get(MEMORY_LIMIT_VARIABLE) or DEFAULT_DUCKDB_MEMORY_LIMIT
    check_memory_limit(memory_limit)
    if is_motherduck(database):
        return {"memory_limit": memory_limit}
    return {"memory_limit": memory_limit, "temp_directory": f"{database}.tmp"}


def check_memory_limit(value: str, source: str = MEMORY_LIMIT_VARIABLE) -> None:
    """Refuse a memory limit a run cannot work with, naming `source` (the variable or setting it came from): one DuckDB
    cannot read (without this, the first step ended in DuckDB's parser error), a negative one (DuckDB reads '-1GB' or
    '-1' as no limit, 80% of the RAM: the cap was gone without a word), one that is not a plain decimal number and a
    unit (`_PLAIN_SIZE`: DuckDB reads '1e3GB' as 931.3 GiB) and one below MIN_DUCKDB_MEMORY_LIMIT (the first step
    ended in a DuckDB OutOfMemoryException). DuckDB itself reads the size (an in-memory connection with it: '3GB',
    '2GiB', '50%'), and pydantic's ByteSize reads the size DuckDB then reports ('2.7 GiB'). A limit above the
    machine's memory is allowed (`memory_limit_warning` says so when a run starts).

    Raises:
        ValueError: one line; the value quoted through `credentials.shown_setting`.
    """
    shown = shown_setting(value)
    if value.strip().startswith("-"):
        raise ValueError(f"{source} must not be negative (DuckDB would read {shown} as no limit at all): give a size such as '3GB'")
    try:
        size = _duckdb_bytes(value)
    except duckdb.Error as error:
        raise ValueError(f"{source} must be a DuckDB memory size such as '3GB' or '2GiB', got {shown}") from None
    if not _PLAIN_SIZE.fullmatch(value):
        raise ValueError(f"{source} must be a plain decimal number and a unit, such as '3GB', '2GiB' or '1.5GB', got {shown}")
    if size < _duckdb_bytes(MIN_DUCKDB_MEMORY_LIMIT):
        raise ValueError(f"{source} must be at least {MIN_DUCKDB_MEMORY_LIMIT} (docs/CONFIGURATION.md), got {shown}")


def memory_limit_warning(value: str, source: str = MEMORY_LIMIT_VARIABLE) -> str | None:
    """One line when DuckDB reads the usable memory limit `value` (`check_memory_limit`) as more than the machine's
    memory (`physical_memory_bytes`): DuckDB would not spill to its temp directory before the machine runs out of
    memory. None when it does not, or when the machine's memory is not known."""
    physical = physical_memory_bytes()
    size = _duckdb_bytes(value)
    if physical is None or size <= physical:
        return None
    return (
        f"{source} {shown_setting(value)} is {ByteSize(size).human_readable()}, more than this machine's memory "
        f"({ByteSize(physical).human_readable()}): DuckDB may use more memory than there is before it spills to disk; "
        f"give less (default {DEFAULT_DUCKDB_MEMORY_LIMIT})"
    )


def physical_memory_bytes() -> int | None:
    """The machine's memory in bytes (POSIX sysconf: SC_PHYS_PAGES x SC_PAGE_SIZE), or None where sysconf does not
    give it."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None


def _duckdb_bytes(memory_limit: str) -> int:
    """The bytes DuckDB reads `memory_limit` as (0 when it is too small for DuckDB to open a database at all), to
    DuckDB's reporting precision ('244.1 MiB').

    Raises:
        duckdb.Error: DuckDB cannot read it.
    """
    try:
        with duckdb.connect(":memory:", config={"memory_limit": memory_limit}) as con:
            return int(TypeAdapter(ByteSize).validate_python(con.execute("SELECT current_setting('memory_limit')").fetchone()[0]))
    except duckdb.OutOfMemoryException:
        return 0


# Where MotherDuck's token is read from (the environment only), and the DuckDB setting the motherduck extension reads
# it from (the page above: config={"motherduck_token": ...}).
MOTHERDUCK_TOKEN_VARIABLE = "MOTHERDUCK_TOKEN"
MOTHERDUCK_TOKEN_SETTING = "motherduck_token"


class MissingTokenError(ValueError):
    """A MotherDuck database is set but MOTHERDUCK_TOKEN is not (or a token was written into the database setting)."""


def refuse_written_token(database: str) -> None:
    """Refuse a MotherDuck database setting that carries a token (`md:x?motherduck_token=...`): it would be shown in
    the UI, on every run's tags and on the command lines `ps` lists. The message never repeats the setting.

    Raises:
        MissingTokenError: a `token=` parameter in `database`, in one line saying to use MOTHERDUCK_TOKEN.
    """
    if "token=" in database.lower():
        raise MissingTokenError(
            f"the database setting holds a MotherDuck token: give the database as md:<name> and the token in "
            f"{MOTHERDUCK_TOKEN_VARIABLE}, which is read from the environment and never shown"
        )


def usable_token(database: str, token: str | None) -> str:
    """The token of the MotherDuck database `database` (the value of MOTHERDUCK_TOKEN, `token`), stripped; it goes
    into the connection's settings only, never into a log, a tag or a message.

    Raises:
        MissingTokenError: a token written into `database` (`refuse_written_token`), or `token` None or blank, in one line.
    """
    refuse_written_token(database)
    if not (token or "").strip():
        raise MissingTokenError(
            f"{database} is a MotherDuck database but {MOTHERDUCK_TOKEN_VARIABLE} is not set: create a token in "
            f"MotherDuck's settings (Access Tokens) and export {MOTHERDUCK_TOKEN_VARIABLE}=<token>, or set RECON_DB_PATH "
            f"to a local file"
        )
    return token.strip()


class MotherDuckUnreachable(duckdb.IOException):
    """DuckDB could not download or load its `motherduck` extension (no network, a proxy in the way): the message
    says so in one line and what to do, in place of DuckDB's message with the extension's download URL."""


def connect_motherduck(database: str, token: str, *, read_only: bool = False, config: dict | None = None) -> duckdb.DuckDBPyConnection:
    """A connection to the MotherDuck database `database` (md:<name>) with `token` (`usable_token`) and the DuckDB
    settings `config`. DuckDB downloads its motherduck extension on first use
    (https://duckdb.org/docs/current/extensions/overview#autoloading-extensions).

    Raises:
        MotherDuckUnreachable: the extension could not be downloaded or loaded (hostile pass, 2026-12-04: offline,
            DuckDB's three-line 'Failed to download extension' with its URL was the whole message).
        duckdb.Error: MotherDuck refused the connection (a bad token, an unknown database).
    """
    try:
        return duckdb.connect(database, read_only=read_only, config={**(config or {}), MOTHERDUCK_TOKEN_SETTING: token})
    except duckdb.IOException as error:
        if 'extension "motherduck"' not in str(error):
            raise
        cause = re.search(r"\(ERROR ([^)]*)\)", str(error))
        raise MotherDuckUnreachable(
            f"{database} is a MotherDuck database, reached through DuckDB's motherduck extension, which could not be "
            f"downloaded or loaded ({cause.group(1) if cause else 'no network?'}): connect this machine to the internet "
            f"(the extension is downloaded once), or set RECON_DB_PATH to a local file"
        ) from error

