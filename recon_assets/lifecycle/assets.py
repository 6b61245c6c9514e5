"""Assets of the `lifecycle` group: dataset versions and their successors."""

import dagster as dg
from dagster_duckdb import DuckDBResource

from recon_assets.kg.assets import OWNERS, datasets
from recon_assets.lifecycle.cmr import shipped_collection_progress, shipped_collection_records
from recon_assets.lifecycle.lineage import CMR_COLLECTION_PROGRESS, CURATED, INFERRED
from recon_assets.lifecycle.lineage import dataset_lineage as build_dataset_lineage
from recon_assets.lifecycle.versions import curated_lifecycle
from recon_assets.shared.metadata import table_metadata
from recon_assets.shared.storage import replace_table

_FROM_DATASETS = [("datasets", "short_name"), ("datasets", "long_name"), ("datasets", "doi"), ("datasets", "cmr_id")]


@dg.asset(deps=[datasets], group_name="lifecycle", kinds={"duckdb"}, owners=OWNERS, pool="duckdb")
def dataset_lineage(context: dg.AssetExecutionContext, duckdb: DuckDBResource) -> dg.MaterializeResult:
    """Every dataset's version family, parsed version (from short name, long name or DOI), successor, whether
    it is superseded and since when, with the evidence and its authority (succession_basis): CMR UMM-C
    CollectionProgress SUPERSEDED / DEPRECATED, the curated lifecycle file (recon_assets/reference/
    dataset_successors.csv: cross-family successors and renamed lines, parallel streams that both stay current,
    each line with its source), or, inferred from version ordering alone, the next version of its family.
    Release dates and CollectionProgress come from the real CMR extracts in recon_assets/reference/cmr/."""
    with duckdb.get_connection() as con:
        frame = build_dataset_lineage(
            con.execute("SELECT dataset_id, short_name, long_name, doi, cmr_id FROM datasets ORDER BY dataset_id").df(),
            curated_lifecycle(), shipped_collection_records(), shipped_collection_progress(),
        )
        replace_table(con, "dataset_lineage", frame)
        metadata = table_metadata(
            con, "dataset_lineage",
            preview_columns=["family", "version_text", "successor_version", "superseded", "superseded_since", "evidence"],
            lineage={
                column: _FROM_DATASETS
                for column in (
                    "family", "version_text", "version_sort", "status", "successor_dataset_id", "superseded",
                    "superseded_since", "collection_progress", "succession_basis",
                )
            },
        )
    superseded = int(frame["superseded"].sum())
    figures = {
        "superseded": superseded,
        **{f"superseded_{basis}": int((frame["succession_basis"] == basis).sum()) for basis in (CMR_COLLECTION_PROGRESS, CURATED, INFERRED)},
        "superseded_since_known": int(frame["superseded_since"].notna().sum()),
        "with_cmr_collection_progress": int(frame["collection_progress"].notna().sum()),
        "without_parsed_version": int(frame["version_issue"].notna().sum()),
    }
    context.log.info(f"{len(frame):,} datasets: {figures}")
    return dg.MaterializeResult(metadata={**metadata, **figures})
