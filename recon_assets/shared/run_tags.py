"""Run tags naming what a run used, set on every run: by `recon run` when it launches, else by the resource itself
when a step first uses it (a run from the UI or a schedule): the DuckDB file (`DATABASE_TAG`), the KG export
(`KG_SOURCE_TAG`) and the as_of date (`as_of.AS_OF_TAG`)."""

from __future__ import annotations

import dagster as dg

DATABASE_TAG = "recon/database"
KG_SOURCE_TAG = "recon/kg_source"


def tag_run(context: dg.InitResourceContext, tags: dict[str, str]) -> None:
    """Add `tags` the run does not carry yet (a tag set at launch is kept); nothing outside a run."""
    run = context.run
    if run is None or context.instance is None:
        return
    missing = {key: value for key, value in tags.items() if key not in run.tags}
    if missing:
        context.instance.add_run_tags(run.run_id, missing)
