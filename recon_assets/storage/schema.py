"""A table as this version of recon_assets declares it (its DDL run on an in-memory database) and as a database holds
it (DuckDB's catalog): columns and types, primary key, UNIQUE and NOT NULL constraints. Read by `tables.migrate` and
`ownership`; no Dagster import."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import duckdb

from recon_assets.shared.sql_files import load_sql
from recon_assets.shared.table_docs import declaring_file


@dataclass(frozen=True)
class DeclaredSchema:
    """A table as this version declares it: {column: DuckDB type} in order, its primary key's columns (() for none),
    the columns of each UNIQUE constraint and the columns declared NOT NULL (the key's included)."""

    types: dict[str, str]
    primary_key: tuple[str, ...]
    unique_keys: tuple[tuple[str, ...], ...]
    not_null: frozenset[str]


@functools.lru_cache(maxsize=None)
def declared_schema(table: str) -> DeclaredSchema:
    """`table` as the SQL file declaring it (`table_docs.declaring_file`, package data) creates it, read from an in-memory
    database (cached: the DDL does not change while the process runs).

    Raises:
        KeyError: `table` is not an output table.
    """
    with duckdb.connect() as probe:
        probe.execute(load_sql(declaring_file(table)))
        types = {name: column_type for name, column_type, *_ in probe.execute(f"DESCRIBE {table}").fetchall()}
        return DeclaredSchema(types, primary_key(probe, table), unique_keys(probe, table), not_null_columns(probe, table))


def primary_key(con: duckdb.DuckDBPyConnection, table: str) -> tuple[str, ...]:
    """The columns of `table`'s primary key in `con`'s catalog (the table of that name in the current schema, as an
    unqualified name reads it), () when it has none."""
    keys = _constraints(con, table, "PRIMARY KEY")
    return keys[0] if keys else ()


def unique_keys(con: duckdb.DuckDBPyConnection, table: str) -> tuple[tuple[str, ...], ...]:
    """The columns of each UNIQUE constraint of `table` (current schema), sorted."""
    return _constraints(con, table, "UNIQUE")


def not_null_columns(con: duckdb.DuckDBPyConnection, table: str) -> frozenset[str]:
    """The columns of `table` (current schema) that may not hold NULL: declared NOT NULL, or in its primary key."""
    return frozenset(column for columns in _constraints(con, table, "NOT NULL") for column in columns)


def _constraints(con: duckdb.DuckDBPyConnection, table: str, kind: str) -> tuple[tuple[str, ...], ...]:
    rows = con.execute(
        "SELECT constraint_column_names FROM duckdb_constraints() WHERE database_name = current_database() AND schema_name = current_schema() "
        "AND table_name = ? AND constraint_type = ?", [table, kind],
    ).fetchall()
    return tuple(sorted(tuple(columns) for (columns,) in rows))


def stored_tables(con: duckdb.DuckDBPyConnection) -> set[str]:
    """The names of the tables of `con`'s current database and schema: those an unqualified name reads (a user's
    table of that name in another schema is not one of them: hostile pass 29)."""
    rows = con.execute(
        "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = current_schema() "
        "AND NOT internal"
    ).fetchall()
    return {name for (name,) in rows}
