"""Research-area partitions: the 21 applied research areas of the KG plus `unclassified`.

Every partitioned asset materializes a range of areas in one run (`dg.BackfillPolicy.single_run()`, docs/OPERATIONS.md "One
run for every research area"). Dagster 1.13 marks that decorator parameter beta and warned about it once per asset
on every command (`dagster dev`, `dagster definitions validate`, `recon run`), which no user can act on: exactly
that warning is filtered here, where the assets import their partitions.
"""

import warnings

import dagster as dg

from recon_assets.kg.research_areas import research_area_slugs

warnings.filterwarnings("ignore", message=r"Parameter `backfill_policy` .* is currently in beta", category=dg.BetaWarning)

# The run tags that make one run cover a range of asset partitions, as Dagster documents them for the launchpad's
# "Edit tags" (https://github.com/dagster-io/dagster/pull/10441); Dagster 1.13 exports no public name for them.
PARTITION_RANGE_START_TAG = "dagster/asset_partition_range_start"
PARTITION_RANGE_END_TAG = "dagster/asset_partition_range_end"

research_area_partitions = dg.StaticPartitionsDefinition(research_area_slugs())


def every_research_area_tags() -> dict[str, str]:
    """Run tags making one run of a partitioned job cover every research area: the partition-key range Dagster
    reads for a single-run backfill, from the first area to the last.

    Dagster 1.13 has no public API to launch a partition range in one run outside a backfill (its own `dagster
    asset materialize --partition-range` and `RunRequest.partition_key_range` go through these same tags).
    """
    keys = research_area_partitions.get_partition_keys()
    return research_area_range_tags(keys[0], keys[-1])


def research_area_range_tags(first: str, last: str) -> dict[str, str]:
    """Run tags making one run of a partitioned job cover the research areas from `first` to `last` (in the
    partitions' order), as `every_research_area_tags` does for all of them."""
    return {PARTITION_RANGE_START_TAG: first, PARTITION_RANGE_END_TAG: last}
