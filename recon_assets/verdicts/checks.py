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
        per_area = con.execute(
            """
            WITH edges AS (SELECT DISTINCT research_area, dataset_id FROM edge_reliability
                           WHERE research_area IN (SELECT research_area FROM dataset_verdicts)),
                 verdicts AS (SELECT research_area, dataset_id, count(*) AS n,
                                     count(*) FILTER (NOT list_contains(?, verdict)) AS invalid
                              FROM dataset_verdicts GROUP BY ALL)
            SELECT research_area,
                   count(e.dataset_id) AS datasets,
                   coalesce(sum(v.n), 0) AS verdicts,
                   count(*) FILTER (v.n IS NULL) AS missing,
                   count(*) FILTER (v.n > 1) AS duplicated,
                   coalesce(sum(v.invalid), 0) AS invalid,
                   list(coalesce(e.dataset_id, v.dataset_id) ORDER BY coalesce(e.dataset_id, v.dataset_id))
                       FILTER (v.n IS NULL OR v.n > 1 OR v.invalid > 0) AS failing
            FROM edges AS e FULL JOIN verdicts AS v USING (research_area, dataset_id)
            GROUP BY research_area ORDER BY research_area
            """,
            [list(VERDICTS)],
        ).fetchall()
        unjudged = [area for (area,) in con.execute(
            "SELECT DISTINCT research_area FROM edge_reliability "
            "WHERE research_area NOT IN (SELECT research_area FROM dataset_verdicts) ORDER BY 1"
        ).fetchall()]
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
