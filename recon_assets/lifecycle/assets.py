"""Assets of the `lifecycle` group: dataset versions and their successors."""

import dagster as dg
from dagster_duckdb import DuckDBResource

from recon_assets.kg.assets import OWNERS, datasets
from recon_assets.lifecycle.lineage import dataset_lineage as build_dataset_lineage
from recon_assets.lifecycle.versions import curated_successors
from recon_assets.metadata import table_metadata
from recon_assets.storage import replace_table


@dg.asset(deps=[datasets], group_name="lifecycle", kinds={"duckdb"}, owners=OWNERS, pool="duckdb")
def dataset_lineage(context: dg.AssetExecutionContext, duckdb: DuckDBResource) -> dg.MaterializeResult:
    """Every dataset's version family, parsed version (from short name, long name or DOI), successor and whether
    it is superseded, with the evidence: the next version of its family, or a curated cross-family successor
    (TRMM TMPA -> GPM IMERG, MERRA -> MERRA-2, TOMS -> OMI; recon_assets/reference/dataset_successors.csv)."""
    with duckdb.get_connection() as con:
        frame = build_dataset_lineage(
            con.execute("SELECT dataset_id, short_name, long_name, doi FROM datasets ORDER BY dataset_id").df(), curated_successors()
        )
        replace_table(con, "dataset_lineage", frame)
        metadata = table_metadata(
            con, "dataset_lineage", preview_columns=["family", "version_text", "successor_version", "superseded", "evidence"],
            lineage={
                column: [("datasets", "short_name"), ("datasets", "long_name"), ("datasets", "doi")]
                for column in ("family", "version_text", "version_sort", "status", "successor_dataset_id", "superseded")
            },
        )
    unparsed = int(frame["version_issue"].notna().sum())
    context.log.info(f"{len(frame):,} datasets: {int(frame['superseded'].sum()):,} superseded, {unparsed:,} without a parsable version")
    return dg.MaterializeResult(
        metadata={**metadata, "superseded": int(frame["superseded"].sum()), "without_parsed_version": unparsed}
    )
