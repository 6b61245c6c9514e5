"""Jobs and schedules.

`kg_tables_job` ingests the snapshot and builds every unpartitioned table; `edge_reliability_job` judges and
scores research areas (a partition per run, or all of them in one run via a single-run backfill).
"""

import dagster as dg

from recon_assets.partitions import research_area_partitions

UNPARTITIONED = dg.AssetSelection.groups("kg", "centrality")
PARTITIONED = dg.AssetSelection.groups("judgement", "reliability")

kg_tables_job = dg.define_asset_job(
    "kg_tables_job", selection=UNPARTITIONED, description="Ingest the KG snapshot and build the typed tables and centrality."
)
edge_reliability_job = dg.define_asset_job(
    "edge_reliability_job", selection=PARTITIONED, description="Judge coherence and score edge reliability for research areas."
)


@dg.schedule(job=edge_reliability_job, cron_schedule="0 6 * * *", default_status=dg.DefaultScheduleStatus.STOPPED)
def edge_reliability_daily_schedule(context: dg.ScheduleEvaluationContext):
    """Re-judge and re-score every research area each morning: recency and the evidence window move with as_of.
    Stopped by default; start it in the UI or with `dagster schedule start edge_reliability_daily_schedule`."""
    day = context.scheduled_execution_time.date().isoformat()
    for area in research_area_partitions.get_partition_keys():
        yield dg.RunRequest(run_key=f"{day}/{area}", partition_key=area)
