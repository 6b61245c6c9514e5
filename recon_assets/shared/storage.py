"""Table writes: whole tables are recreated from their DDL in `recon_assets/<domain>/sql/<table>.sql`; a partition's rows are
replaced, and keyed rows upserted, in one transaction, so a re-run never duplicates."""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import duckdb
import pandas as pd

from recon_assets.shared.sql_files import load_sql
from recon_assets.shared.table_docs import DECLARED_IN, DECLARING_FILES, TABLE_DOCS, declared_column_docs

_log = logging.getLogger(__name__)


class StaleSchemaError(RuntimeError):
    """A table that keeps rows across runs was written by another version of recon_assets and cannot be migrated
    (it holds a column this version does not know, or its DDL cannot be read alone)."""


@contextmanager
def transaction(con: duckdb.DuckDBPyConnection) -> Iterator[duckdb.DuckDBPyConnection]:
    """Run the block in one DuckDB transaction: committed when it ends, rolled back (and re-raised) on error."""
    con.begin()
    try:
        yield con
    except BaseException:
        con.rollback()
        raise
    con.commit()


def replace_partitions(con: duckdb.DuckDBPyConnection, table: str, rows: pd.DataFrame, research_areas: Sequence[str]) -> None:
    """Delete `table`'s rows of `research_areas` and insert `rows` (columns in the table's order), atomically.

    Raises:
        duckdb.Error: the insert failed; the transaction is rolled back and the old rows stay.
    """
    with transaction(con):
        con.execute(f"DELETE FROM {table} WHERE list_contains(?, research_area)", [list(research_areas)])
        _insert(con, table, rows)


def replace_table(con: duckdb.DuckDBPyConnection, table: str, rows: pd.DataFrame) -> None:
    """Recreate `table` from `recon_assets/<domain>/sql/<table>.sql` and insert `rows` by column name, in one transaction.

    Raises:
        duckdb.Error: a row breaks the table's types or keys; the transaction is rolled back.
    """
    with transaction(con):
        con.execute(load_sql(table))
        _insert(con, table, rows)


def upsert(con: duckdb.DuckDBPyConnection, table: str, rows: pd.DataFrame) -> None:
    """Insert `rows` into `table`, replacing the rows with the same primary key, in one transaction.

    Raises:
        duckdb.Error: a row breaks the table's types; the transaction is rolled back.
    """
    with transaction(con):
        _insert(con, table, rows, verb="INSERT OR REPLACE")


def create_tables(con: duckdb.DuckDBPyConnection, *sql_names: str) -> None:
    """Run each `recon_assets/<domain>/sql/<name>.sql` in turn: the tables it declares are created when missing and their
    columns' meanings (`COMMENT ON COLUMN`) set. A file that fails on a table an older version wrote (`CREATE TABLE IF
    NOT EXISTS` keeps it as it was, and the comment on a column it lacks fails) runs again once the tables it declares
    are migrated (`migrate`).

    Raises:
        StaleSchemaError: see `migrate`.
        duckdb.Error: a file failed otherwise.
    """
    for name in sql_names:
        try:
            con.execute(load_sql(name))
        except duckdb.Error:
            declared = declared_column_docs(name) if name in DECLARING_FILES else {}
            stored = {table for (table,) in con.execute("SELECT table_name FROM duckdb_tables() WHERE NOT internal").fetchall()}
            if not any([migrate(con, table) for table in declared if table in stored]):
                raise
            con.execute(load_sql(name))


def _insert(con: duckdb.DuckDBPyConnection, table: str, rows: pd.DataFrame, verb: str = "INSERT") -> None:
    """Insert the table's columns of `rows` (extra working columns of the frame are not stored), after adding the
    documented columns an older version's table lacks (`migrate`).

    Raises:
        StaleSchemaError: see `migrate`.
    """
    migrate(con, table)
    columns = [name for name, *_ in con.execute(f"DESCRIBE {table}").fetchall()]
    frame = rows[columns]
    con.execute(f"{verb} INTO {table} SELECT * FROM frame")


def migrate(con: duckdb.DuckDBPyConnection, table: str) -> list[str]:
    """Bring a `table` written by an older version to the documented columns and key (`CREATE TABLE IF NOT EXISTS`
    keeps an older table as it was): each missing column is added with the type its declaring DDL gives, NULL in the
    rows already there, which are kept, and the declared primary key when the table has none (rows are upserted by
    it). Returns the columns added ([] when none was missing).

    Raises:
        StaleSchemaError: the table holds a column this version does not document, a column of another type than
            its DDL declares, another primary key, or rows that repeat the primary key it lacks; the message names
            what differs and what to do.
    """
    stored = {name: column_type for name, column_type, *_ in con.execute(f"DESCRIBE {table}").fetchall()}
    declared = declared_schema(table)
    missing = [c for c in declared.types if c not in stored]
    extra = [c for c in stored if c not in declared.types]
    differences = [
        *([f"missing columns {missing}, unknown {extra}"] if extra else []),
        *[f"column types differ: {c} {stored[c]} (this version: {declared.types[c]})" for c in declared.types if c in stored and stored[c] != declared.types[c]],
        *([f"primary key {list(key)} (this version: {list(declared.primary_key)})"] if (key := primary_key(con, table)) and key != declared.primary_key else []),
    ]
    if differences:
        raise _refused(table, "; ".join(differences))
    for column in missing:
        con.execute(f'ALTER TABLE {table} ADD COLUMN "{column}" {declared.types[column]}')
    if missing:
        _log.warning(f"table {table} migrated: added columns {missing} (NULL in the rows kept from before)")
    if declared.primary_key and not key:
        try:
            con.execute(f"ALTER TABLE {table} ADD PRIMARY KEY ({', '.join(declared.primary_key)})")
        except duckdb.ConstraintException as error:
            raise _refused(table, f"no primary key, and rows repeat this version's {list(declared.primary_key)}") from error
        _log.warning(f"table {table} migrated: primary key {list(declared.primary_key)} added")
    return missing


def _refused(table: str, differences: str) -> StaleSchemaError:
    return StaleSchemaError(
        f"table {table} in this database was written by another version of recon_assets ({differences}): it cannot be "
        f"migrated; use a new --db, or DROP TABLE {table} and run again"
    )


@dataclass(frozen=True)
class DeclaredSchema:
    """A table as this version declares it: {column: DuckDB type} in order, and its primary key's columns (() for none)."""

    types: dict[str, str]
    primary_key: tuple[str, ...]


@functools.lru_cache(maxsize=None)
def declared_schema(table: str) -> DeclaredSchema:
    """`table` as the SQL file declaring it (`table_docs.DECLARED_IN`, package data) creates it, read from an in-memory
    database (cached: the DDL does not change while the process runs).

    Raises:
        KeyError: `table` is not an output table.
    """
    with duckdb.connect() as probe:
        probe.execute(load_sql(DECLARED_IN[table]))
        types = {name: column_type for name, column_type, *_ in probe.execute(f"DESCRIBE {table}").fetchall()}
        return DeclaredSchema(types, primary_key(probe, table))


def primary_key(con: duckdb.DuckDBPyConnection, table: str) -> tuple[str, ...]:
    """The columns of `table`'s primary key in `con`'s catalog, () when it has none."""
    row = con.execute(
        "SELECT constraint_column_names FROM duckdb_constraints() WHERE table_name = ? AND constraint_type = 'PRIMARY KEY'", [table]
    ).fetchone()
    return tuple(row[0]) if row else ()


def replace_table_from_query(con: duckdb.DuckDBPyConnection, table: str, query: str, params: Sequence[object] = ()) -> None:
    """Recreate `table` from `recon_assets/<domain>/sql/<table>.sql` and fill it with the rows of the SELECT in
    `recon_assets/<domain>/sql/<query>.sql` (bound `params`), matched by column name, in one transaction: rows shaped by joins
    and groupings stay in DuckDB.

    Raises:
        duckdb.Error: the query failed or a row breaks the table's types or keys; the transaction is rolled back.
    """
    with transaction(con):
        con.execute(load_sql(table))
        con.execute(f"INSERT INTO {table} BY NAME {load_sql(query)}", list(params))
