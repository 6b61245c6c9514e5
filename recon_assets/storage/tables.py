"""Table writes: whole tables are recreated from their DDL in `recon_assets/<domain>/sql/<table>.sql`; a partition's rows are
replaced, and keyed rows upserted, in one transaction, so a re-run never duplicates. `Tables` is one connection with
these operations and the named SQL files' reads and writes; no Dagster import (the reading commands start without it)."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext

import duckdb
import pandas as pd
import pyarrow as pa

from recon_assets.shared.sql_files import load_sql
from recon_assets.shared.table_docs import DECLARING_FILES, declared_column_docs
from recon_assets.storage.ownership import foreign_tables, foreign_tables_line, mark_owned
from recon_assets.storage.schema import declared_schema, not_null_columns, primary_key, stored_tables, unique_keys

_log = logging.getLogger(__name__)


class StaleSchemaError(RuntimeError):
    """A table that keeps rows across runs was written by another version of recon_assets and cannot be migrated
    (it holds a column this version does not know, or its DDL cannot be read alone)."""


class ForeignTablesError(StaleSchemaError):
    """The database holds tables named as recon_assets' output tables that recon_assets did not write
    (`ownership.foreign_tables`): they are left as they are, and nothing is written in their place."""


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


def table_exists(con: duckdb.DuckDBPyConnection, table: str) -> bool:
    """Whether the current schema holds table `table` (`schema.stored_tables`; read without creating it)."""
    return table in stored_tables(con)


def replace_partitions(
    con: duckdb.DuckDBPyConnection, table: str, rows: pd.DataFrame, research_areas: Sequence[str], column: str = "research_area"
) -> None:
    """Delete `table`'s rows of `research_areas` and insert `rows` (columns in the table's order), atomically, after
    migrating a table an older version wrote (`migrate`). `column` names the partition column (paper_key for the
    paper tables).

    Raises:
        StaleSchemaError: see `migrate`.
        duckdb.Error: the insert failed; the transaction is rolled back and the old rows stay.
    """
    with transaction(con):
        # Migrated before the delete: a primary key added after it would still index the deleted rows, and the insert
        # of the same keys would fail on them.
        migrate(con, table)
        delete_partitions(con, table, research_areas, column)
        _insert(con, table, rows)


def delete_partitions(con: duckdb.DuckDBPyConnection, table: str, keys: Sequence[object], column: str = "research_area") -> None:
    """Delete `table`'s rows whose partition column `column` holds one of `keys` (table and column are the code's
    names, never a user's: they are formatted into the statement, the keys bound)."""
    con.execute(f"DELETE FROM {table} WHERE list_contains(?, {column})", [list(keys)])


def most_frequent(con: duckdb.DuckDBPyConnection, table: str, column: str) -> object | None:
    """The most frequent value of `column` in `table` (e.g. settings stored on every row; the least by sort order among
    equally frequent ones), None when the table is empty."""
    found = con.execute(f"SELECT {column}, count(*) AS n FROM {table} GROUP BY 1 ORDER BY n DESC, 1 LIMIT 1").fetchone()
    return found[0] if found else None


def latest_row(con: duckdb.DuckDBPyConnection, table: str, order_by: str) -> dict[str, object] | None:
    """The row of `table` with the greatest `order_by` (the code's column, formatted in) as {column: Python value} in
    the table's column order; None when the table is empty."""
    cursor = con.execute(f"SELECT * FROM {table} ORDER BY {order_by} DESC LIMIT 1")
    row = cursor.fetchone()
    return None if row is None else dict(zip([column[0] for column in cursor.description], row))


def temp_table(con: duckdb.DuckDBPyConnection, name: str, rows: pd.DataFrame) -> None:
    """Copy `rows` into the temporary table `name` of this connection (replacing one of that name): the SQL run next
    joins it as a table (the name is the code's, formatted in; DuckDB reads the frame by its variable's name)."""
    con.execute(f"CREATE OR REPLACE TEMP TABLE {name} AS SELECT * FROM rows")


def drop_temp_table(con: duckdb.DuckDBPyConnection, name: str, missing_ok: bool = False) -> None:
    """Drop the temporary table `name` (`temp_table`, or one a SQL file made) once read, freeing its rows; one that was
    never made is no error when `missing_ok`."""
    con.execute(f"DROP TABLE {'IF EXISTS ' if missing_ok else ''}{name}")


def table_rows(con: duckdb.DuckDBPyConnection, table: str) -> pd.DataFrame:
    """Every row and column of `table` (the code's name, formatted in) as a DataFrame, as the table holds them."""
    return con.execute(f"SELECT * FROM {table}").df()


def partition_rows(
    con: duckdb.DuckDBPyConnection, table: str, key: object, column: str = "research_area", order_by: str | None = None
) -> pd.DataFrame:
    """Every column of `table`'s rows whose partition column `column` is `key`, ordered by `order_by` (the code's column
    list, e.g. "stage DESC"; None: as the table holds them), as a DataFrame."""
    order = f" ORDER BY {order_by}" if order_by else ""
    return con.execute(f"SELECT * FROM {table} WHERE {column} = ?{order}", [key]).df()


def replace_table(con: duckdb.DuckDBPyConnection, table: str, rows: pd.DataFrame) -> None:
    """Recreate `table` from `recon_assets/<domain>/sql/<table>.sql` and insert `rows` by column name, in one transaction.

    Raises:
        ForeignTablesError: a table of that name recon_assets did not write is there (`foreign_tables`); it is kept.
        duckdb.Error: a row breaks the table's types or keys; the transaction is rolled back.
    """
    with transaction(con):
        _run_ddl(con, table, [table])
        _insert(con, table, rows)


def upsert(con: duckdb.DuckDBPyConnection, table: str, rows: pd.DataFrame) -> None:
    """Insert `rows` into `table`, replacing the rows with the same primary key, in one transaction.

    Raises:
        duckdb.Error: a row breaks the table's types; the transaction is rolled back.
    """
    with transaction(con):
        _insert(con, table, rows, verb="INSERT OR REPLACE")


def create_tables(con: duckdb.DuckDBPyConnection, *sql_names: str) -> None:
    """Run each `recon_assets/<domain>/sql/<name>.sql` in turn (`_run_ddl`): the tables it declares are created when
    missing, their columns' meanings (`COMMENT ON COLUMN`) and recon_assets' mark set. A file that fails on a table an
    older version wrote (`CREATE TABLE IF NOT EXISTS` keeps it as it was, and the comment on a column it lacks fails)
    runs again once the tables it declares are migrated (`migrate`).

    Raises:
        StaleSchemaError: see `migrate` (ForeignTablesError too: a table the file declares is another program's).
        duckdb.Error: a file failed otherwise.
    """
    for name in sql_names:
        declared = list(declared_column_docs(name)) if name in DECLARING_FILES else []
        try:
            _run_ddl(con, name, declared)
        except duckdb.Error:
            stored = stored_tables(con)
            if not any([migrate(con, table) for table in declared if table in stored]):
                raise
            _run_ddl(con, name, declared)


def _run_ddl(con: duckdb.DuckDBPyConnection, sql_name: str, tables: Sequence[str]) -> None:
    """Run `<sql_name>.sql`, the DDL of `tables`, once none of them is a table or view recon_assets did not write
    (`CREATE TABLE IF NOT EXISTS` would pass over it, `CREATE OR REPLACE` replace it), and mark them recon_assets'
    (`ownership.mark_owned`: a CREATE OR REPLACE leaves a table without its comment).

    Raises:
        ForeignTablesError: see `_refuse_unowned`; nothing is run.
    """
    for table in tables:
        _refuse_unowned(con, table)
    con.execute(load_sql(sql_name))
    mark_owned(con, tables)


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
    rows already there, which are kept; a NOT NULL this version does not declare is dropped (this version may write
    NULL there); and the declared primary key is added when the table has none (rows are upserted by it). Returns
    the columns added ([] when none was missing).

    Raises:
        StaleSchemaError: the table holds a column this version does not document, a column of
            another type than its DDL declares, another primary key, a UNIQUE constraint its DDL does not declare,
            rows that repeat (or leave NULL) the primary key it lacks, or an index that keeps it from being altered;
            the message names what differs and what to do.
        ForeignTablesError: a table or view of that name recon_assets did not write (`_refuse_unowned`); it is left as it is.
    """
    _refuse_unowned(con, table)
    stored = {name: column_type for name, column_type, *_ in con.execute(f"DESCRIBE {table}").fetchall()}
    declared = declared_schema(table)
    missing = [c for c in declared.types if c not in stored]
    extra = [c for c in stored if c not in declared.types]
    key, unique = primary_key(con, table), unique_keys(con, table)
    differences = [
        *([f"missing columns {missing}, unknown {extra}"] if extra else []),
        *[f"column types differ: {c} {stored[c]} (this version: {declared.types[c]})" for c in declared.types if c in stored and stored[c] != declared.types[c]],
        *([f"primary key {list(key)} (this version: {list(declared.primary_key)})"] if key and key != declared.primary_key else []),
        *([f"UNIQUE on {[list(k) for k in unique]} (this version: {[list(k) for k in declared.unique_keys]})"] if unique != declared.unique_keys else []),
    ]
    if differences:
        raise _refused(table, "; ".join(differences))
    for column in sorted(not_null_columns(con, table) - declared.not_null):
        _alter(con, table, f'ALTER COLUMN "{column}" DROP NOT NULL')
        _log.warning(f"table {table} migrated: column {column} may now be NULL, as this version declares it")
    for column in missing:
        _alter(con, table, f'ADD COLUMN "{column}" {declared.types[column]}')
    if missing:
        _log.warning(f"table {table} migrated: added columns {missing} (NULL in the rows kept from before)")
    if declared.primary_key and not key:
        quoted = [f'"{c}"' for c in declared.primary_key]
        has_null = " OR ".join(f"{c} IS NULL" for c in quoted)
        nulls, repeats = con.execute(
            f"SELECT count(*) FILTER ({has_null}), count(*) FILTER (NOT ({has_null})) - count(DISTINCT ({', '.join(quoted)})) FILTER (NOT ({has_null})) FROM {table}"
        ).fetchone()
        if nulls or repeats:
            broken = [f"{n} rows {what}" for n, what in ((nulls, "leave a column of it NULL"), (repeats, "repeat a key")) if n]
            raise _refused(table, f"no primary key, and the rows do not allow this version's {list(declared.primary_key)}: {', '.join(broken)}")
        _alter(con, table, f"ADD PRIMARY KEY ({', '.join(quoted)})")
        _log.warning(f"table {table} migrated: primary key {list(declared.primary_key)} added")
    return missing


def _refuse_unowned(con: duckdb.DuckDBPyConnection, table: str) -> None:
    """Raise ForeignTablesError when the current schema holds a table or view named `table` that recon_assets did
    not write (`ownership.foreign_tables`: a view, or another program's table); it is left as it is."""
    if foreign := foreign_tables(con, [table]):
        raise ForeignTablesError(foreign_tables_line("this database", foreign))


def _alter(con: duckdb.DuckDBPyConnection, table: str, change: str) -> None:
    """ALTER TABLE `table` `change`; refused (StaleSchemaError naming the indexes) when an index on the table keeps
    DuckDB from it."""
    indexes = [name for (name,) in con.execute(  # read first: a failed ALTER aborts the transaction it runs in
        "SELECT index_name FROM duckdb_indexes() WHERE database_name = current_database() AND schema_name = current_schema() "
        "AND table_name = ? ORDER BY 1", [table],
    ).fetchall()]
    try:
        con.execute(f"ALTER TABLE {table} {change}")
    except duckdb.DependencyException:
        # From None: `recon run` prints a failure's innermost cause, which would be DuckDB's 'Cannot alter entry'.
        raise _refused(table, f"{change} is refused by DuckDB while indexes {indexes} depend on the table",
                       drop="; ".join(f"DROP INDEX {index}" for index in indexes) + " (the rows are kept)") from None


def _refused(table: str, differences: str, drop: str | None = None) -> StaleSchemaError:
    """The error naming `differences` and the way out: a new --db, or `drop` (default DROP TABLE `table`) and run again."""
    return StaleSchemaError(
        f"table {table} in this database was written by another version of recon_assets ({differences}): it cannot be "
        f"migrated; use a new --db, or {drop or f'DROP TABLE {table}'} and run again"
    )


def replace_table_from_query(
    con: duckdb.DuckDBPyConnection, table: str, query: str, params: Sequence[object] = (), *, atomic: bool = True
) -> None:
    """Recreate `table` from `recon_assets/<domain>/sql/<table>.sql` and fill it with the rows of the SELECT in
    `recon_assets/<domain>/sql/<query>.sql` (bound `params`), matched by column name, in one transaction: rows shaped by joins
    and groupings stay in DuckDB. `atomic=False` runs both in the caller's transaction (DuckDB nests none).

    Raises:
        ForeignTablesError: a table of that name recon_assets did not write is there (`foreign_tables`); it is kept.
        duckdb.Error: the query failed or a row breaks the table's types or keys; the transaction is rolled back.
    """
    with transaction(con) if atomic else nullcontext():
        _run_ddl(con, table, [table])
        con.execute(f"INSERT INTO {table} BY NAME {load_sql(query)}", list(params))


@contextmanager
def session_variable(con: duckdb.DuckDBPyConnection, name: str, value: object) -> Iterator[None]:
    """Set DuckDB's variable `name` (read by a SQL file as `getvariable('name')`) to `value`, bound, for the block, and
    reset it after. DuckDB's own statement (SET VARIABLE): a port to another engine binds the value in the file instead.
    `name` is the code's, formatted in."""
    con.execute(f"SET VARIABLE {name} = ?", [value])
    try:
        yield
    finally:
        con.execute(f"RESET VARIABLE {name}")


@contextmanager
def zstd_compression(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """Store what the block writes compressed with ZSTD alone, then let DuckDB choose again. DuckDB tries every string
    compression on every segment; on long texts (a KG's node properties: abstracts) ZSTD alone is both faster to
    write and smaller than what that analysis picks. A DuckDB setting: a port to another engine makes it a no-op."""
    con.execute("SET force_compression = 'zstd'")
    try:
        yield
    finally:
        con.execute("RESET force_compression")


class Tables:
    """One connection to the store: its operations on tables, and the engine connection's own methods (`execute`,
    `begin`, `register`, ...) passed through for the modules that speak SQL themselves (`shared.metadata`,
    `shared.data_versions`). A table's DDL is `recon_assets/<domain>/sql/<table>.sql`, a query's SQL
    `recon_assets/<domain>/sql/<query>.sql` (`sql_files.load_sql`); parameters are bound, never formatted in."""

    def __init__(self, connection: duckdb.DuckDBPyConnection) -> None:
        self.connection = connection

    @classmethod
    def of(cls, connection: duckdb.DuckDBPyConnection | Tables) -> Tables:
        """`connection` with the store's operations: itself when it is a `Tables` already (a store's connection), else
        wrapped (a plain DuckDB connection: a test's, a benchmark's, a reading command's from `duckdb_files.read_only`)."""
        return connection if isinstance(connection, Tables) else cls(connection)

    def __getattr__(self, name: str):
        return getattr(self.connection, name)

    def query(self, sql_name: str, params: Sequence[object] = ()) -> pd.DataFrame:
        """The rows of the SELECT in `<sql_name>.sql` with `params` bound, as a DataFrame (DuckDB's types mapped by
        DuckDB's pandas conversion)."""
        return self.connection.execute(load_sql(sql_name), list(params)).df()

    def query_rows(self, sql_name: str, params: Sequence[object] = ()) -> list[tuple]:
        """The rows of the SELECT in `<sql_name>.sql` with `params` bound, as tuples of Python values."""
        return self.connection.execute(load_sql(sql_name), list(params)).fetchall()

    def query_row(self, sql_name: str, params: Sequence[object] = ()) -> tuple | None:
        """The first row of the SELECT in `<sql_name>.sql` with `params` bound, as a tuple; None when there is none.
        Every row is fetched: a result left unfinished keeps the connection from a relation's work (`sql`, `table`)."""
        rows = self.connection.execute(load_sql(sql_name), list(params)).fetchall()
        return rows[0] if rows else None

    def run_sql(self, sql_name: str, params: Sequence[object] = ()) -> None:
        """Run the statement in `<sql_name>.sql` (a DELETE, an UPDATE) with `params` bound."""
        self.connection.execute(load_sql(sql_name), list(params))

    def arrow(self, sql_name: str, params: Sequence[object] = ()) -> pa.Table:
        """The rows of the SELECT in `<sql_name>.sql` with `params` bound, as an Arrow table (through a relation: a
        DB-API result's Arrow output copies the rows once more)."""
        return self.connection.sql(load_sql(sql_name), params=list(params)).to_arrow_table()

    def create(self, *sql_names: str) -> None:
        """Create the tables the files declare when missing, migrating older ones (`create_tables`)."""
        create_tables(self.connection, *sql_names)

    def replace_partitions(self, table: str, rows: pd.DataFrame, research_areas: Sequence[str], column: str = "research_area") -> None:
        """Replace `table`'s rows of `research_areas` (the partition keys in `column`) by `rows`, atomically
        (`replace_partitions`)."""
        replace_partitions(self.connection, table, rows, research_areas, column)

    def replace_table(self, table: str, rows: pd.DataFrame) -> None:
        """Recreate `table` from its DDL holding `rows` (`replace_table`)."""
        replace_table(self.connection, table, rows)

    def replace_table_from_query(self, table: str, query: str, params: Sequence[object] = (), *, atomic: bool = True) -> None:
        """Recreate `table` from its DDL holding the rows of the SELECT in `<query>.sql`
        (`replace_table_from_query`; `atomic=False` inside the caller's transaction)."""
        replace_table_from_query(self.connection, table, query, params, atomic=atomic)

    def table_rows(self, table: str) -> pd.DataFrame:
        """Every row and column of `table` (`table_rows`)."""
        return table_rows(self.connection, table)

    def partition_rows(self, table: str, key: object, column: str = "research_area", order_by: str | None = None) -> pd.DataFrame:
        """Every column of `table`'s rows of partition `key` (in `column`), ordered by the columns `order_by`
        (`partition_rows`)."""
        return partition_rows(self.connection, table, key, column, order_by)

    def most_frequent(self, table: str, column: str) -> object | None:
        """The most frequent value of `column` in `table` (`most_frequent`)."""
        return most_frequent(self.connection, table, column)

    def delete_partitions(self, table: str, keys: Sequence[object], column: str = "research_area") -> None:
        """Delete `table`'s rows of the partitions `keys` (in `column`; `delete_partitions`)."""
        delete_partitions(self.connection, table, keys, column)

    def latest_row(self, table: str, order_by: str) -> dict[str, object] | None:
        """The row of `table` with the greatest `order_by`, as {column: value} (`latest_row`)."""
        return latest_row(self.connection, table, order_by)

    def temp_table(self, name: str, rows: pd.DataFrame) -> None:
        """Hold `rows` as the temporary table `name` of this connection (replacing one of that name), for the SQL files
        run next to read (`temp_table`)."""
        temp_table(self.connection, name, rows)

    def drop_temp_table(self, name: str, missing_ok: bool = False) -> None:
        """Drop the temporary table `name` (`drop_temp_table`)."""
        drop_temp_table(self.connection, name, missing_ok)

    def upsert(self, table: str, rows: pd.DataFrame) -> None:
        """Insert `rows`, replacing those with the same primary key (`upsert`)."""
        upsert(self.connection, table, rows)

    def transaction(self):
        """A block run in one transaction (`transaction`)."""
        return transaction(self.connection)
