"""Every run tag this project sets (`recon/...`), in one place. Set on every run, naming what it used: by `recon run`
when it launches, else by the resource itself when a step first uses it (a run from the UI or a schedule): the
DuckDB file (`DATABASE_TAG`), the KG export (`KG_SOURCE_TAG`) and the as_of date (`AS_OF_TAG`); set by whoever
requests the run: the KG source sensor (`KG_SOURCE_TAG`, `KG_SHA256_TAG`), `recon run` (`LAUNCH_TAG`, `HOST_TAG`),
the papers (`PAPER_SOURCE_TAG`) and `recon ask` (`QUESTION_TAG`, `QUESTION_DATASETS_TAG`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # no Dagster import at run time: the CLI reads these tags before it needs Dagster
    import dagster as dg

DATABASE_TAG = "recon/database"
KG_SOURCE_TAG = "recon/kg_source"
# The SHA-256 of the KG export the source sensor requested a refresh for.
KG_SHA256_TAG = "recon/kg_sha256"
# A run's as_of: `recon run` and the schedules set it, so that every asset of a run (and every run of one
# `recon run`) reads the same date (`as_of.AsOfDate`).
AS_OF_TAG = "recon/as_of"
# Set on each run `recon run` launches, so that it finds the run `dagster job launch` created.
LAUNCH_TAG = "recon/launch"
# The machine a run's worker ran on.
HOST_TAG = "recon/host"
# The file (or DOI) a paper's run was asked for.
PAPER_SOURCE_TAG = "recon/paper_source"
# The ad-hoc question of a run `recon ask` launched: its text and its scope's datasets (JSON list).
QUESTION_TAG = "recon/question"
QUESTION_DATASETS_TAG = "recon/question_datasets"


def tag_run(context: dg.InitResourceContext, tags: dict[str, str]) -> None:
    """Add `tags` the run does not carry yet (a tag set at launch is kept); nothing outside a run."""
    run = context.run
    if run is None or context.instance is None:
        return
    missing = {key: value for key, value in tags.items() if key not in run.tags}
    if missing:
        context.instance.add_run_tags(run.run_id, missing)
