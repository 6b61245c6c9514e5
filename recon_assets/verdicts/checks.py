"""Asset check of dataset_verdicts: one valid verdict for every dataset with scored edges."""

import dagster as dg

from recon_assets.shared.metadata import database_file
from recon_assets.storage.duckdb_store import TableStore
from recon_assets.verdicts.assets import dataset_verdicts
from recon_assets.verdicts.critic import VERDICTS

EXAMPLES = 10


@dg.asset_check(asset=dataset_verdicts, blocking=False)
def dataset_verdicts_one_valid_per_dataset(store: TableStore) -> dg.AssetCheckResult:
    """Every (research_area, dataset_id) with edges in edge_reliability has exactly one verdict, and every
    verdict is one of PASS, STALE, CONTRADICTED, INSUFFICIENT, FORCED_PASS (exact case). Per research area:
    datasets with edges, verdicts, missing, duplicated and invalid.

    Only research areas with verdicts are compared: a run of one partition must not fail for the areas it
    did not judge (the areas with edges but no verdict at all are listed in `unjudged_research_areas`)."""
    with store.connect() as con:
        per_area = con.query_rows("dataset_verdicts_per_area", [list(VERDICTS)])
        unjudged = [area for (area,) in con.query_rows("dataset_verdicts_unjudged_areas")]
        database = database_file(con)
    counts = ("datasets", "verdicts", "missing", "duplicated", "invalid")
    totals = {name: sum(int(row[index + 1]) for row in per_area) for index, name in enumerate(counts)}
    failing = [dataset for *_, datasets in per_area for dataset in datasets or ()]
    return dg.AssetCheckResult(
        passed=not failing,
        description=", ".join(f"{name} {value:,}" for name, value in totals.items()),
        metadata={
            "database": database, **totals, "failing_examples": failing[:EXAMPLES], "unjudged_research_areas": unjudged,
            "per_research_area": {area: dict(zip(counts, map(int, values))) for area, *values, _ in per_area},
        },
    )
