"""Assets of the `lifecycle` group: dataset versions and their successors."""

import dagster as dg
import pandas as pd

from recon_assets.declarations import ASSET_TABLES
from recon_assets.kg.assets import OWNERS
from recon_assets.lifecycle.cmr import shipped_collection_progress, shipped_collection_records
from recon_assets.lifecycle.lineage import CMR_COLLECTION_PROGRESS, CURATED, INFERRED, ON_RECORD_BY
from recon_assets.lifecycle.lineage import dataset_lineage as build_dataset_lineage
from recon_assets.lifecycle.versions import curated_lifecycle
from recon_assets.shared.metadata import table_metadata, written_version
from recon_assets.storage.duckdb_store import TableStore

_FROM_DATASETS = [("datasets", "short_name"), ("datasets", "long_name"), ("datasets", "doi"), ("datasets", "cmr_id")]
_PREVIEW = ["family", "version_text", "successor_version", "superseded", "superseded_since", "evidence"]

DATASET_LINEAGE = ASSET_TABLES["dataset_lineage"]


@dg.asset(**DATASET_LINEAGE.asset_arguments(), group_name="lifecycle", kinds={"duckdb"}, owners=OWNERS, pool="duckdb")
def dataset_lineage(context: dg.AssetExecutionContext, store: TableStore) -> dg.MaterializeResult:
    """Every dataset's version family, parsed version (from short name, long name or DOI), successor, whether
    it is superseded and since when, with the evidence and its authority (succession_basis): CMR UMM-C
    CollectionProgress SUPERSEDED / DEPRECATED, the curated lifecycle file (recon_assets/reference/
    dataset_successors.csv: cross-family successors and renamed lines, parallel streams that both stay current,
    each line with its source), or, inferred from version ordering alone, the next version of its family.
    Release dates and CollectionProgress come from the real CMR extracts in recon_assets/reference/cmr/."""
    with store.connect() as con:
        frame = build_dataset_lineage(
            con.query("dataset_lineage_datasets"),
            curated_lifecycle(), shipped_collection_records(), shipped_collection_progress(),
        )
        con.replace_table("dataset_lineage", frame)
        version = written_version(context, con, DATASET_LINEAGE.writes)
        metadata = table_metadata(
            con, "dataset_lineage",
            preview_columns=_PREVIEW,
            lineage=DATASET_LINEAGE.column_lineage({
                column: _FROM_DATASETS
                for column in (
                    "family", "version_text", "version_sort", "status", "successor_dataset_id", "current_version",
                    "superseded", "superseded_since", "collection_progress", "succession_basis",
                )
            }),
        )
    figures = lineage_figures(frame)
    context.log.info(f"{len(frame):,} datasets: {figures}")
    return dg.MaterializeResult(metadata={**metadata, **figures}, data_version=version)


def lineage_figures(frame: pd.DataFrame) -> dict[str, int]:
    """Counts over dataset_lineage rows (columns superseded, succession_basis, superseded_since, collection_progress,
    version_issue): superseded, superseded per basis, with a known date, with only the date of the first record of it
    ('by ...'), with nothing dating it (not counted at any as_of), with CMR CollectionProgress, without a parsed
    version."""
    dated = frame["superseded_since"].map(lambda since: "none" if not isinstance(since, str) else "by" if since.startswith(ON_RECORD_BY) else "known")
    superseded = frame["superseded"].astype(bool)
    return {
        "superseded": int(superseded.sum()),
        **{f"superseded_{basis}": int((frame["succession_basis"] == basis).sum()) for basis in (CMR_COLLECTION_PROGRESS, CURATED, INFERRED)},
        "superseded_since_known": int((superseded & (dated == "known")).sum()),
        "superseded_on_record_by": int((superseded & (dated == "by")).sum()),
        "superseded_undated": int((superseded & (dated == "none")).sum()),
        "with_cmr_collection_progress": int(frame["collection_progress"].notna().sum()),
        "without_parsed_version": int(frame["version_issue"].notna().sum()),
    }
