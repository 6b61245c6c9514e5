"""Jobs and schedules.

`kg_tables_job` ingests the snapshot and builds every unpartitioned table; `openalex_refresh_job` refreshes
the OpenAlex and Crossref records of research areas, then judges, scores and gives dataset verdicts;
`edge_reliability_job` judges, scores and gives verdicts with the records already stored;
`reliability_evaluation_job` measures the method on the labelled cases over whatever is scored and writes the
reliability report and the exports (GNN edge weights, the Neo4j write-back). Partitioned jobs run a partition per
run, or all of them in one run via a single-run backfill.
"""

import dagster as dg

from recon_assets.kg.partitions import research_area_partitions
from recon_assets.shared.as_of import AS_OF_TAG

UNPARTITIONED = dg.AssetSelection.groups("kg", "lifecycle", "centrality", "stewardship")
PARTITIONED = dg.AssetSelection.groups("judgement", "reliability", "verdicts")
ENRICHED = dg.AssetSelection.groups("enrichment") | PARTITIONED

kg_tables_job = dg.define_asset_job(
    "kg_tables_job", selection=UNPARTITIONED,
    description="Ingest the KG snapshot and build the typed tables, dataset lineage, centrality and the steward judgements.",
)
edge_reliability_job = dg.define_asset_job(
    "edge_reliability_job", selection=PARTITIONED,
    description="Judge coherence, score edge reliability and give dataset verdicts for research areas.",
)
reliability_evaluation_job = dg.define_asset_job(
    "reliability_evaluation_job", selection=dg.AssetSelection.groups("evaluation", "reporting", "exports"),
    description=(
        "Measure the method on the labelled cases (with the weight and decay ablation) and on the labelled dispute pairs; "
        "write the reliability report (HTML and PDF), the GNN edge weights and the Neo4j write-back files."
    ),
)
openalex_refresh_job = dg.define_asset_job(
    "openalex_refresh_job",
    selection=ENRICHED,
    description=(
        "Refresh the OpenAlex works (DOIs older than the TTL) and the Crossref update notices and relations of research "
        "areas, then judge, score and give dataset verdicts."
    ),
)


@dg.schedule(job=edge_reliability_job, cron_schedule="0 6 * * *", default_status=dg.DefaultScheduleStatus.STOPPED)
def edge_reliability_daily_schedule(context: dg.ScheduleEvaluationContext):
    """Re-judge and re-score every research area each morning as of the tick's day (the runs' recon/as_of tag):
    recency and the evidence window move with as_of.
    Stopped by default; start it in the UI or with `dagster schedule start edge_reliability_daily_schedule`."""
    day = context.scheduled_execution_time.date().isoformat()
    for area in research_area_partitions.get_partition_keys():
        yield dg.RunRequest(run_key=f"{day}/{area}", partition_key=area, tags={AS_OF_TAG: day})


@dg.schedule(job=openalex_refresh_job, cron_schedule="0 4 * * 1", default_status=dg.DefaultScheduleStatus.STOPPED)
def openalex_weekly_schedule(context: dg.ScheduleEvaluationContext):
    """Every Monday 04:00, per research area: request the OpenAlex works older than the TTL (30 days by
    default; most weeks only a quarter of them), check Crossref, then re-judge and re-score.
    Stopped by default; start it in the UI or with `dagster schedule start openalex_weekly_schedule`."""
    day = context.scheduled_execution_time.date().isoformat()
    for area in research_area_partitions.get_partition_keys():
        yield dg.RunRequest(run_key=f"openalex/{day}/{area}", partition_key=area, tags={AS_OF_TAG: day})
