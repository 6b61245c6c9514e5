"""Table writes: whole tables are recreated from their DDL in `recon_assets/sql/<table>.sql`; a partition's rows are
replaced, and keyed rows upserted, in one transaction, so a re-run never duplicates."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import duckdb
import pandas as pd

from recon_assets.shared.sql_files import load_sql
from recon_assets.table_docs import TABLE_DOCS


class StaleSchemaError(RuntimeError):
    """A table that keeps rows across runs was written by another version of recon_assets (its columns differ)."""


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
    """Recreate `table` from `recon_assets/sql/<table>.sql` and insert `rows` by column name, in one transaction.

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


def _insert(con: duckdb.DuckDBPyConnection, table: str, rows: pd.DataFrame, verb: str = "INSERT") -> None:
    """Insert the table's columns of `rows` (extra working columns of the frame are not stored).

    Raises:
        StaleSchemaError: the stored table's columns are not the documented ones (`CREATE TABLE IF NOT EXISTS`
            keeps an older table as it was), named with what differs.
    """
    columns = [name for name, *_ in con.execute(f"DESCRIBE {table}").fetchall()]
    expected = list(TABLE_DOCS[table])
    if columns != expected:
        missing, extra = sorted(set(expected) - set(columns)), sorted(set(columns) - set(expected))
        raise StaleSchemaError(
            f"table {table} was written by another version of recon_assets (missing columns {missing}, unknown {extra}): "
            f"use a new --db, or DROP TABLE {table} and run again"
        )
    frame = rows[columns]
    con.execute(f"{verb} INTO {table} SELECT * FROM frame")
