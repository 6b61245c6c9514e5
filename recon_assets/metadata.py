"""Materialization metadata for DuckDB tables: row count, column schema and lineage, a markdown preview."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import dagster as dg
import duckdb

from recon_assets.table_docs import TABLE_DOCS

PREVIEW_ROWS = 5


def table_metadata(
    con: duckdb.DuckDBPyConnection,
    table: str,
    *,
    where: str = "TRUE",
    params: Sequence[object] = (),
    lineage: Mapping[str, Sequence[tuple[str, str]]] | None = None,
    preview_columns: Sequence[str] | None = None,
) -> dict[str, object]:
    """Standard metadata of `table` (restricted to rows matching `where` with bound `params`).

    Args:
        lineage: {column: [(upstream asset key, upstream column), ...]} for `dagster/column_lineage`.
        preview_columns: columns shown in the markdown preview (default: all).

    Returns:
        dict with dagster/row_count, dagster/column_schema (descriptions from TABLE_DOCS),
        dagster/column_lineage (when given) and preview (markdown).
    """
    docs = TABLE_DOCS.get(table, {})
    columns = con.execute(f"DESCRIBE {table}").fetchall()
    schema = dg.TableSchema(
        columns=[dg.TableColumn(name, str(column_type), description=docs.get(name)) for name, column_type, *_ in columns]
    )
    rows = con.execute(f"SELECT count(*) FROM {table} WHERE {where}", list(params)).fetchone()[0]
    shown = ", ".join(f'"{name}"' for name in (preview_columns or [name for name, *_ in columns]))
    preview = con.execute(f"SELECT {shown} FROM {table} WHERE {where} LIMIT {PREVIEW_ROWS}", list(params)).df()
    metadata: dict[str, object] = {
        "dagster/row_count": rows,
        "dagster/column_schema": schema,
        "preview": dg.MetadataValue.md(preview.to_markdown(index=False) if len(preview) else "_no rows_"),
    }
    if lineage:
        metadata["dagster/column_lineage"] = dg.TableColumnLineage(
            deps_by_column={
                column: [dg.TableColumnDep(asset_key=dg.AssetKey(asset), column_name=upstream) for asset, upstream in deps]
                for column, deps in lineage.items()
            }
        )
    return metadata
