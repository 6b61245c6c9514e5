"""Materialization metadata for DuckDB tables: the database file, row count, column schema and lineage (also as a
markdown table), a markdown preview, and each research-area partition's own figures (first on its page, the run's
after them, none shown as the asset's); the data version of what an asset wrote (`written_version`); the asset check
result of a Great Expectations suite. The tables are read by the SQL files in shared/sql/ (the table's name bound, as
DuckDB's `query_table`), run on the connection given."""

from __future__ import annotations

import numbers
from collections.abc import Callable, Mapping, Sequence

import dagster as dg
import duckdb
import pandas as pd

from recon_assets.shared.data_versions import TABLE_DIGESTS, version_of, written_digests
from recon_assets.shared.display import markdown_table, markdown_text
from recon_assets.shared import table_docs  # its TABLE_DOCS is built on first use: read where used, not imported
from recon_assets.shared.sql_files import load_sql

PREVIEW_ROWS = 5
# The row count of a research-area partition's own rows. Not Dagster's `dagster/row_count`: the asset overview shows
# that entry of the latest materialization as the asset's "Row count", which for a partitioned asset is whichever
# partition was stored last (issue 23: "Row count 0" for a 164-row table).
PARTITION_ROW_COUNT = "research_area/row_count"


def table_metadata(
    con: duckdb.DuckDBPyConnection,
    table: str,
    *,
    match: Mapping[str, object] | None = None,
    lineage: Mapping[str, Sequence[tuple[str, str]]] | None = None,
    preview_columns: Sequence[str] | None = None,
) -> dict[str, object]:
    """Standard metadata of an unpartitioned `table` (restricted to the rows whose columns named in `match` hold its
    values, {column: value}, bound; None: every row): `table_description_metadata` plus dagster/row_count and a
    markdown preview (every text cell escaped by `display.markdown_text`)."""
    return {
        **table_description_metadata(con, table, lineage=lineage),
        **_rows_metadata(con, table, match, preview_columns, count_key="dagster/row_count"),
    }


def table_description_metadata(
    con: duckdb.DuckDBPyConnection, table: str, *, lineage: Mapping[str, Sequence[tuple[str, str]]] | None = None
) -> dict[str, object]:
    """What describes `table` whatever its rows: the DuckDB file written (`database`), dagster/column_schema
    (descriptions from `table_docs.TABLE_DOCS`, Markdown-escaped), and with `lineage` ({column: [(upstream asset key,
    upstream column), ...]}) dagster/column_lineage plus `column_lineage` as a markdown table (the open-source UI shows
    no viewer for dagster/column_lineage)."""
    metadata: dict[str, object] = {"database": database_file(con), "dagster/column_schema": column_schema(con, table)}
    if lineage:
        # a dependency listed twice (two inputs sharing an upstream column) is one dependency
        deps = {column: list(dict.fromkeys(inputs)) for column, inputs in lineage.items()}
        metadata["dagster/column_lineage"] = dg.TableColumnLineage(
            deps_by_column={
                column: [dg.TableColumnDep(asset_key=dg.AssetKey(asset), column_name=upstream) for asset, upstream in inputs]
                for column, inputs in deps.items()
            }
        )
        metadata["column_lineage"] = dg.MetadataValue.md(lineage_markdown(deps))
    return metadata


def lineage_markdown(lineage: Mapping[str, Sequence[tuple[str, str]]]) -> str:
    """A markdown table: one row per output column, its inputs as `asset.column`, comma-separated."""
    frame = pd.DataFrame(
        {"column": list(lineage), "inputs": [", ".join(f"{asset}.{column}" for asset, column in deps) for deps in lineage.values()]}
    )
    return markdown_table(frame)


def database_file(con: duckdb.DuckDBPyConnection) -> str:
    """The path of the DuckDB file `con` writes (':memory:' for an in-memory database)."""
    return con.execute(load_sql("database_file")).fetchone()[0] or ":memory:"


def _rows_metadata(
    con: duckdb.DuckDBPyConnection, table: str, match: Mapping[str, object] | None, preview_columns: Sequence[str] | None,
    *, count_key: str,
) -> dict[str, object]:
    """{count_key: the rows of `table` matching `match` (None: all), "preview": the first PREVIEW_ROWS of them as a
    markdown table of `preview_columns` (None: every column)}."""
    shown = list(preview_columns) if preview_columns else None
    if match:
        (rows,) = con.execute(load_sql("table_row_count_matching"), [table, dict(match)]).fetchone()
        preview = con.execute(load_sql("table_preview_matching"), [table, dict(match), shown, PREVIEW_ROWS]).df()
    else:
        (rows,) = con.execute(load_sql("table_row_count"), [table]).fetchone()
        preview = con.execute(load_sql("table_preview"), [table, shown, PREVIEW_ROWS]).df()
    if shown:
        preview = preview[shown]  # the file gives them in the table's order
    return {
        count_key: rows,
        # Titles, names and error texts come from the KG and OpenAlex: escaped, they show as typed and make no markup.
        "preview": dg.MetadataValue.md(markdown_table(preview) if len(preview) else "_no rows_"),
    }


def column_schema(con: duckdb.DuckDBPyConnection, table: str) -> dg.TableSchema:
    """The table's columns with their DuckDB types and the descriptions of TABLE_DOCS, Markdown-escaped
    (`display.markdown_text`): the UI renders descriptions as Markdown, which ate the formula's `*` and `<doi>`."""
    docs = table_docs.TABLE_DOCS.get(table, {})
    return dg.TableSchema(
        columns=[
            dg.TableColumn(name, str(column_type), description=markdown_text(docs[name]) if name in docs else None)
            for name, column_type in con.execute(load_sql("table_columns"), [table]).fetchall()
        ]
    )


def distribution(values: pd.Series, labels: Sequence[str]) -> dict[str, int]:
    """{label: how many of `values` are that label}, for every label in `labels` (0 included), in that order."""
    counts = values.value_counts()
    return {label: int(counts.get(label, 0)) for label in labels}


def add_partition_metadata(
    context: dg.AssetExecutionContext,
    con: duckdb.DuckDBPyConnection,
    table: str,
    rows: pd.DataFrame,
    figures: Callable[[pd.DataFrame], Mapping[str, object]] | None = None,
    *,
    preview_columns: Sequence[str] | None = None,
) -> None:
    """Give each research-area partition of this run its own materialization metadata
    (`context.add_asset_metadata(..., partition_key=area)`): PARTITION_ROW_COUNT and the preview of that area's
    rows in `table`, and `figures(rows of that area)`. One run covers every area (a single-run backfill): without
    this each partition would show the run's figures (Dagster issue #18123); an area without rows shows 0.

    Args:
        rows: the rows the figures are computed from, with a research_area column (e.g. the rows just written).
        figures: {name: number or {label: count}} of one area's rows (flattened by `plottable`).
    """
    for area in context.partition_keys:
        area_rows = rows[rows["research_area"] == area]
        context.add_asset_metadata(
            {
                **_rows_metadata(con, table, {"research_area": area}, preview_columns, count_key=PARTITION_ROW_COUNT),
                **plottable(figures(area_rows) if figures else {}),
            },
            partition_key=area,
        )


def partitioned_result(
    context: dg.AssetExecutionContext, metadata: Mapping[str, object], data_version: dg.DataVersion
) -> dg.MaterializeResult:
    """The result of a research-area partitioned asset: `metadata` (the run's: the table's description, `run/`
    figures) added to each partition of the run after what `add_partition_metadata` gave it, and nothing at the asset
    level. Dagster lists a partition's metadata as {**asset-level, **partition-level} (`execute_step`), so asset-level
    entries would open every partition's page; this way a partition page shows its own figures first."""
    for area in context.partition_keys:
        context.add_asset_metadata(dict(metadata), partition_key=area)
    return dg.MaterializeResult(data_version=data_version)


def written_version(context: dg.AssetExecutionContext, con: duckdb.DuckDBPyConnection, tables: Sequence[str]) -> dg.DataVersion:
    """The data version of what this materialization just wrote: `version_of` the digests of the whole `tables`
    (every research area's rows); each digest, per research area of the run for a partitioned asset, is added to the
    materialization's TABLE_DIGESTS metadata (what `automation.staleness` compares with the database being run)."""
    whole = written_digests(con, tables, None)[None]
    if context.assets_def.partitions_def is None:
        context.add_asset_metadata({TABLE_DIGESTS: whole})
    else:
        for area, digests in written_digests(con, tables, list(context.partition_keys)).items():
            context.add_asset_metadata({TABLE_DIGESTS: digests}, partition_key=area)
    return dg.DataVersion(version_of(whole))


def run_figures(figures: Mapping[str, object]) -> dict[str, object]:
    """`figures` of the whole run (every research area it covered) under `run/` names, so that no partition's
    page shows a run-wide figure as its own."""
    return {f"run/{name}": value for name, value in plottable(figures).items()}


def plottable(figures: Mapping[str, object]) -> dict[str, object]:
    """`figures` with every {key: number} mapping spread into one int/float entry per key, named `name/key`
    ({"label_distribution": {"CURRENT": 3}} -> {"label_distribution/CURRENT": 3}): the UI plots numeric entries
    across materializations, never a JSON one. Other values are kept as they are."""
    flat: dict[str, object] = {}
    for name, value in figures.items():
        if isinstance(value, Mapping) and value and all(_is_number(v) for v in value.values()):
            flat.update({f"{name}/{key}": int(v) if isinstance(v, numbers.Integral) else float(v) for key, v in value.items()})
        else:
            flat[name] = value
    return flat


def _is_number(value: object) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def suite_check_result(outcome, per_area: dict, database: str) -> dg.AssetCheckResult:
    """The asset check result of a Great Expectations suite (`quality.SuiteOutcome`) run on the DuckDB file
    `database`: passed when the suite is, its description naming each unmet expectation and what was observed;
    metadata: `database`, each expectation's observed share (or row count) as a number, the suite's outcome and
    `per_area`."""
    unmet = [
        f"{e['expectation']}({e['column'] or 'table'}): observed {_observed(e)}, required {e['mostly'] if e['mostly'] is not None else 'at least 1 row'}"
        for e in outcome.expectations
        if not e["success"]
    ]
    return dg.AssetCheckResult(
        passed=outcome.success,
        description="; ".join(unmet) or "every expectation met",
        metadata={
            "database": database,
            **{f"{e['expectation']}/{e['column'] or 'table'}": _observed_number(e) for e in outcome.expectations},
            "great_expectations": outcome.as_metadata(), "per_research_area": per_area,
        },
    )


def _observed_number(expectation: dict) -> float | int:
    share = expectation["observed_share"]
    return float(share) if share is not None else int(expectation["observed_value"] or 0)


def _observed(expectation: dict) -> str:
    share = expectation["observed_share"]
    return f"share {share:.3f}" if share is not None else f"{expectation['observed_value']} rows"
