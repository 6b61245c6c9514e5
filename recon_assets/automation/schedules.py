"""The schedules: the daily re-scoring and the weekly OpenAlex refresh, each one run over every research area
(`jobs` says why one run), tagged with the tick's day as the run's as_of. Stopped by default; they fire only while
the daemon runs (`dagster dev`, or `dagster-daemon run` beside `dagster-webserver`). The weekly research briefs
refresh is one run per question: each question is its own dynamic partition.
"""

import dagster as dg

from recon_assets.automation.jobs import daily_rescoring_job, question_briefs_job, weekly_refresh_job
from recon_assets.briefs.partitions import QUESTIONS_PARTITIONS
from recon_assets.kg.partitions import every_research_area_tags
from recon_assets.shared.run_tags import AS_OF_TAG


@dg.schedule(job=daily_rescoring_job, cron_schedule="0 6 * * *", default_status=dg.DefaultScheduleStatus.STOPPED)
def edge_reliability_daily_schedule(context: dg.ScheduleEvaluationContext):
    """Re-judge and re-score every research area each morning as of the tick's day (the run's recon/as_of tag):
    recency and the evidence window move with as_of although no upstream asset changed, which is why this is a
    schedule (an AutomationCondition.on_cron would wait for an upstream update). One run over all areas, ending with
    the evaluation and the snapshot diff, so nothing is left stale behind it.
    Stopped by default; start it in the UI or with `dagster schedule start edge_reliability_daily_schedule`."""
    day = context.scheduled_execution_time.date().isoformat()
    return dg.RunRequest(run_key=day, tags={**every_research_area_tags(), AS_OF_TAG: day})


@dg.schedule(job=weekly_refresh_job, cron_schedule="0 4 * * 1", default_status=dg.DefaultScheduleStatus.STOPPED)
def openalex_weekly_schedule(context: dg.ScheduleEvaluationContext):
    """Every Monday 04:00, over every research area: request the OpenAlex works older than the TTL (30 days by
    default; most weeks only a quarter of them), check Crossref, re-judge, re-score, evaluate and diff.
    Stopped by default; start it in the UI or with `dagster schedule start openalex_weekly_schedule`."""
    day = context.scheduled_execution_time.date().isoformat()
    return dg.RunRequest(run_key=f"openalex/{day}", tags={**every_research_area_tags(), AS_OF_TAG: day})


@dg.schedule(job=question_briefs_job, cron_schedule="0 7 * * 1", default_status=dg.DefaultScheduleStatus.STOPPED)
def research_briefs_weekly_schedule(context: dg.ScheduleEvaluationContext):
    """Every Monday 07:00 (after the weekly OpenAlex refresh at 04:00 has re-scored the edges), refresh every
    question's brief as of the tick's day: one run per question partition (the file's and the ad-hoc ones), each
    adding a question_verdict_history row whose check warns when its verdict or a cited paper's label changed.
    Stopped by default; start it in the UI or with `dagster schedule start research_briefs_weekly_schedule`."""
    day = context.scheduled_execution_time.date().isoformat()
    keys = context.instance.get_dynamic_partitions(QUESTIONS_PARTITIONS)
    if not keys:
        return dg.SkipReason("no question partition yet: start question_file_sensor, or ask one with `recon ask`")
    return [dg.RunRequest(run_key=f"briefs/{day}/{key}", partition_key=key, tags={AS_OF_TAG: day}) for key in keys]
