"""Research-area partitions: the 21 applied research areas of the KG plus `unclassified`.

Every partitioned asset materializes a range of areas in one run (`dg.BackfillPolicy.single_run()`, README "One
run for every research area"). Dagster 1.13 marks that decorator parameter beta and warned about it once per asset
on every command (`dagster dev`, `dagster definitions validate`, `recon run`), which no user can act on: exactly
that warning is filtered here, where the assets import their partitions.
"""

import warnings

import dagster as dg
from dagster._core.storage.tags import ASSET_PARTITION_RANGE_END_TAG, ASSET_PARTITION_RANGE_START_TAG

from recon_assets.kg.research_areas import research_area_slugs

warnings.filterwarnings("ignore", message=r"Parameter `backfill_policy` .* is currently in beta", category=dg.BetaWarning)

research_area_partitions = dg.StaticPartitionsDefinition(research_area_slugs())


def every_research_area_tags() -> dict[str, str]:
    """Run tags making one run of a partitioned job cover every research area: the partition-key range Dagster
    reads for a single-run backfill, from the first area to the last.

    Dagster 1.13 has no public API to launch a partition range in one run outside a backfill (its own `dagster
    asset materialize --partition-range` and `RunRequest.partition_key_range` go through these same tags), so
    Dagster's constants are imported here, in this one place, rather than spelled out.
    """
    keys = research_area_partitions.get_partition_keys()
    return {ASSET_PARTITION_RANGE_START_TAG: keys[0], ASSET_PARTITION_RANGE_END_TAG: keys[-1]}
