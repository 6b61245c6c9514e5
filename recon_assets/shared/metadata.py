"""Materialization metadata for DuckDB tables: row count, column schema and lineage, a markdown preview,
and per-research-area figures; the asset check result of a Great Expectations suite."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import dagster as dg
import duckdb
import pandas as pd

from recon_assets.shared.display import markdown_table
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
        dagster/column_lineage (when given) and preview (markdown; every text cell escaped by `display.markdown_text`).
    """
    schema = column_schema(con, table)
    rows = con.execute(f"SELECT count(*) FROM {table} WHERE {where}", list(params)).fetchone()[0]
    shown = ", ".join(f'"{name}"' for name in (preview_columns or [column.name for column in schema.columns]))
    preview = con.execute(f"SELECT {shown} FROM {table} WHERE {where} LIMIT {PREVIEW_ROWS}", list(params)).df()
    metadata: dict[str, object] = {
        "dagster/row_count": rows,
        "dagster/column_schema": schema,
        # Titles, names and error texts come from the KG and OpenAlex: escaped, they show as typed and make no markup.
        "preview": dg.MetadataValue.md(markdown_table(preview) if len(preview) else "_no rows_"),
    }
    if lineage:
        metadata["dagster/column_lineage"] = dg.TableColumnLineage(
            deps_by_column={
                # a dependency listed twice (two inputs sharing an upstream column) is one dependency
                column: [dg.TableColumnDep(asset_key=dg.AssetKey(asset), column_name=upstream) for asset, upstream in dict.fromkeys(deps)]
                for column, deps in lineage.items()
            }
        )
    return metadata


def column_schema(con: duckdb.DuckDBPyConnection, table: str) -> dg.TableSchema:
    """The table's columns with their DuckDB types and the descriptions of TABLE_DOCS."""
    docs = TABLE_DOCS.get(table, {})
    return dg.TableSchema(
        columns=[
            dg.TableColumn(name, str(column_type), description=docs.get(name))
            for name, column_type, *_ in con.execute(f"DESCRIBE {table}").fetchall()
        ]
    )


def distribution(values: pd.Series, labels: Sequence[str]) -> dict[str, int]:
    """{label: how many of `values` are that label}, for every label in `labels` (0 included), in that order."""
    counts = values.value_counts()
    return {label: int(counts.get(label, 0)) for label in labels}


def per_partition_figures(
    context: dg.AssetExecutionContext,
    rows: pd.DataFrame,
    research_areas: Sequence[str],
    labels: Sequence[str] = (),
    column: str = "label",
) -> dict[str, dict[str, object]]:
    """Row count (and label counts) of each research area written by this run, each also logged as an
    AssetObservation of that partition: a single-run backfill attaches the run's one metadata to every
    partition it materializes (Dagster issue #18123), so per-partition figures travel this way.

    Args:
        rows: the rows written, with a research_area column (and `column` when `labels` is given).
        research_areas: the partitions of this run (an area without rows reports 0).
        labels: label strings to count per area, in this order.
        column: the column holding them (e.g. 'verdict').

    Returns:
        {area: {"rows": n, "label_distribution": {label: n}}} for the materialization metadata.
    """
    figures: dict[str, dict[str, object]] = {}
    for area in research_areas:
        area_rows = rows[rows["research_area"] == area]
        area_figures: dict[str, object] = {"rows": len(area_rows)}
        if labels:
            area_figures["label_distribution"] = distribution(area_rows[column], labels)
        figures[area] = area_figures
        context.log_event(
            dg.AssetObservation(
                asset_key=context.asset_key, partition=area, metadata={"dagster/row_count": len(area_rows), **area_figures}
            )
        )
    return figures


def suite_check_result(outcome, per_area: dict) -> dg.AssetCheckResult:
    """The asset check result of a Great Expectations suite (`quality.SuiteOutcome`): passed when the suite is, its
    description naming each unmet expectation and what was observed; metadata: the suite's outcome and `per_area`."""
    unmet = [
        f"{e['expectation']}({e['column'] or 'table'}): observed {_observed(e)}, required {e['mostly'] if e['mostly'] is not None else 'at least 1 row'}"
        for e in outcome.expectations
        if not e["success"]
    ]
    return dg.AssetCheckResult(
        passed=outcome.success,
        description="; ".join(unmet) or "every expectation met",
        metadata={"great_expectations": outcome.as_metadata(), "per_research_area": per_area},
    )


def _observed(expectation: dict) -> str:
    share = expectation["observed_share"]
    return f"share {share:.3f}" if share is not None else f"{expectation['observed_value']} rows"
