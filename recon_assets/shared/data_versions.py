"""The Dagster data version of what an asset wrote: a digest of its tables, so that a re-run writing the same rows
leaves everything downstream fresh (Dagster's staleness compares the data versions an asset read with its inputs'
current ones: https://docs.dagster.io/guides/build/assets/asset-versioning-and-caching).

A table digest is DuckDB's row count and the sum of its 64-bit row hashes (`hash(t)`, order-independent; a sum, not
an xor, so duplicated rows do not cancel out): one scan of the table. It detects a changed table, not an adversary's.
Dagster gives one data version per step output, shared by every partition a run writes (a single-run backfill), so a
partitioned asset's data version is the version of its whole tables as they stand after the write, every research
area's rows: a run of one area that rewrites the same rows gets the version of the all-area run before it, and one
that changes them a new one. Each materialization also records the digest of every table it wrote (per research area
for a partitioned asset) as its TABLE_DIGESTS metadata, so that `automation.staleness` can tell when the database
being run no longer holds what was recorded (another --db under the same DAGSTER_HOME, a table rewritten by hand).
`shared.metadata.written_version` does both for an asset that has just written its tables. No Dagster import: the
digests' SQL is shared/sql/table_column_names, table_digest and table_area_digests, run on the connection given (a
store's `Tables` or a plain DuckDB connection: `recon run` reads the database being run read-only).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence

import duckdb

from recon_assets.shared.sql_files import load_sql

# The metadata entry holding {table: digest} of what a materialization wrote (of its own research area's rows for a
# partition of a partitioned asset).
TABLE_DIGESTS = "table_digests"
# Columns that say when a row was written, not what it holds (no asset reads them): left out of a digest, so that a
# table rewritten with the same rows (recorded_disputes on every run, a scoring that was redone) counts as unchanged.
WRITE_TIME_COLUMNS = frozenset({"recorded_at", "judged_at", "scored_at", "evaluated_at"})
ABSENT = "absent"


def _columns(con: duckdb.DuckDBPyConnection, table: str) -> list[str]:
    """Every column name of `table` in order; [] when it does not exist."""
    return [name for (name,) in con.execute(load_sql("table_column_names"), [table]).fetchall()]


def _digest(rows: int, hashes: int, columns: Sequence[str]) -> str:
    # The column names count: a table written by another version (a column more or less) is never taken for the one recorded.
    return f"{rows}:{hashes}:{hashlib.md5(','.join(columns).encode()).hexdigest()[:8]}"


def table_digest(con: duckdb.DuckDBPyConnection, table: str, research_area: str | None = None) -> str:
    """'<rows>:<sum of row hashes>:<md5 of the column names, 8 hex digits>' of `table` (only the rows of
    `research_area` when given), every column but WRITE_TIME_COLUMNS hashed; 'absent' when the table does not exist."""
    if research_area is not None:
        return area_digests(con, table, [research_area])[research_area]
    columns = _columns(con, table)
    if not columns:
        return ABSENT
    rows, hashes = con.execute(load_sql("table_digest"), [table, sorted(WRITE_TIME_COLUMNS)]).fetchone()
    return _digest(rows, hashes, columns)


def area_digests(con: duckdb.DuckDBPyConnection, table: str, areas: Sequence[str]) -> dict[str, str]:
    """{research area: `table_digest(con, table, area)`} for each of `areas`, in one scan of `table` (an area without
    rows has the digest of zero rows; every area 'absent' when the table does not exist)."""
    columns = _columns(con, table)
    if not columns:
        return dict.fromkeys(areas, ABSENT)
    found = dict(
        (area, (rows, hashes))
        for area, rows, hashes in con.execute(load_sql("table_area_digests"), [table, sorted(WRITE_TIME_COLUMNS), list(areas)]).fetchall()
    )
    return {area: _digest(*found.get(area, (0, 0)), columns) for area in areas}


def written_digests(
    con: duckdb.DuckDBPyConnection, tables: Sequence[str], areas: Sequence[str] | None
) -> dict[str | None, dict[str, str]]:
    """{research area: {table: digest}} of `tables` for each of `areas`, or {None: {table: digest}} of the whole
    tables when `areas` is None (an unpartitioned asset)."""
    if areas is None:
        return {None: {table: table_digest(con, table) for table in tables}}
    per_table = {table: area_digests(con, table, areas) for table in tables}
    return {area: {table: per_table[table][area] for table in tables} for area in areas}


def version_of(digests: Mapping[str, str]) -> str:
    """The data version of one materialization's {table: digest}: the digest itself for one table, else the first 16
    hex digits of the SHA-256 of them as canonical JSON."""
    if len(digests) == 1:
        return next(iter(digests.values()))
    return hashlib.sha256(json.dumps(dict(digests), sort_keys=True).encode()).hexdigest()[:16]
