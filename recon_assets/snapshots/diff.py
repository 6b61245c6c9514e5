"""The `history` group: what changed between the previous KG snapshot (with its last scoring) and the current one.

The diff itself is SQL (recon_assets/snapshots/sql/kg_snapshot_history_record.sql keeps the keys and compared values of both snapshots,
recon_assets/snapshots/sql/kg_snapshot_diff_rows.sql compares them); this asset only records and writes.
"""

import dagster as dg
import duckdb

from recon_assets.declarations import ASSET_TABLES
from recon_assets.kg.assets import OWNERS
from recon_assets.kg.ingest import current_snapshot_id
from recon_assets.shared.metadata import table_metadata
from recon_assets.storage.duckdb_store import TableStore
from recon_assets.storage.tables import Tables, session_variable, transaction


def record_and_diff(con: duckdb.DuckDBPyConnection | Tables) -> tuple[str | None, str]:
    """Record the snapshot in kg_nodes and its scoring in the history tables, then rewrite kg_snapshot_diff against
    the previous snapshot's record, in one transaction.

    Returns:
        (previous snapshot id, current snapshot id); the previous one is None on the first snapshot recorded, and
        kg_snapshot_diff is then empty.
    Raises:
        ValueError: no KG snapshot has been ingested.
    """
    con = Tables.of(con)
    snapshot_id = current_snapshot_id(con)
    if snapshot_id is None:
        raise ValueError("no KG snapshot has been ingested: materialize kg_snapshot first")
    con.create("kg_snapshot_history")  # the history an older version kept gains the columns it lacks
    with transaction(con):
        with session_variable(con, "history_snapshot_id", snapshot_id):
            con.run_sql("kg_snapshot_history_record")
        previous = con.query_row("kg_snapshot_history_previous")
        if previous is None:  # nothing to compare with: the table is made empty
            con.create("kg_snapshot_diff")
        else:
            con.replace_table_from_query("kg_snapshot_diff", "kg_snapshot_diff_rows", atomic=False)
    return (previous[0] if previous else None), snapshot_id


@dg.asset(**ASSET_TABLES["kg_snapshot_diff"].asset_arguments(), group_name="history", kinds={"duckdb"}, owners=OWNERS, pool="duckdb")
def kg_snapshot_diff(context: dg.AssetExecutionContext, store: TableStore) -> dg.MaterializeResult:
    """What changed from the previous KG snapshot (as last scored) to the current one (as scored now): nodes and
    relationships added and removed per label and type (named by DOI or globalId, the first 10), publications whose DOI or year changed, and scored edges
    whose label changed, each with its causes (graph, enrichment, settings, as_of, judgement) and a reason.
    Keeps the keys and compared values of both snapshots in kg_snapshot_history*; the first snapshot recorded has
    nothing to be compared with and writes no row."""
    with store.connect() as con:
        previous, current = record_and_diff(con)
        changes = dict(con.query_rows("kg_snapshot_diff_changes"))
        named = con.query_rows("kg_snapshot_diff_named")
        causes = dict(con.query_rows("kg_snapshot_diff_causes"))
        kept = dict(zip(("kg_snapshot_history_elements", "kg_snapshot_history_edges"), con.query_row("kg_snapshot_history_sizes")))
        metadata = table_metadata(
            con, "kg_snapshot_diff", preview_columns=["change", "element_type", "elements", "names", "element_key", "before", "after", "causes", "reason"],
        )
    if previous is None:
        context.log.info(f"snapshot {current} is the first recorded: no previous snapshot to compare with, kg_snapshot_diff is empty")
    else:
        context.log.info(f"snapshot {previous} -> {current}: {changes}; edge label changes by cause: {causes}")
        for change, element_type, reason in named:  # which ones, by DOI or globalId (the first 10, and how many more)
            context.log.info(f"{change} ({element_type}): {reason}")
    return dg.MaterializeResult(
        metadata={
            **metadata,
            "previous_snapshot_id": previous or "",
            "current_snapshot_id": current,
            "compared": (
                f"snapshot {previous} (its last scoring) with snapshot {current} (as scored now)" if previous
                else f"nothing: snapshot {current} is the first one recorded, so no row is written; the next snapshot is compared with it"
            ),
            **{f"changes/{change}": int(count) for change, count in changes.items()},
            **{f"edge_label_changes_by_cause/{cause}": int(count) for cause, count in causes.items()},
            **{f"history_rows/{table}": rows for table, rows in kept.items()},
        }
    )
