"""Settings checked when a run is launched, not when a step runs (issue 11).

Dagster checks a run's config against each op's config schema at launch: types and required fields. The rules of
our pydantic settings models (ranges, weights summing to 1: `reliability.settings`,
`verdicts.critic.VerdictRules`, ...) only run when a step builds its config, minutes into a run. `settings_problems`
runs them on a run's config up front, and `ValidatingRunCoordinator` (the instance's run coordinator in this repo's
dagster.yaml) refuses a run from the UI, the CLI or a schedule whose settings break one: the run ends FAILURE before
any step starts, its failure message naming each broken rule.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from functools import cache
from typing import Any

import dagster as dg
from dagster._core.run_coordinator import QueuedRunCoordinator, SubmitRunContext
from dagster._core.storage.dagster_run import DagsterRun
from pydantic import BaseModel, ValidationError


@cache
def settings_models() -> dict[str, type[BaseModel]]:
    """{op name: its pydantic config class} for every asset of the Definitions that takes a `config`."""
    from recon_assets.definitions import ASSETS  # the Definitions import this module's users: imported when first needed

    models: dict[str, type[BaseModel]] = {}
    for asset in ASSETS:
        model = typing.get_type_hints(asset.op.compute_fn.decorated_fn).get("config")
        if isinstance(model, type) and issubclass(model, dg.Config):
            models[asset.op.name] = model
    return models


def settings_problems(run_config: Mapping[str, Any] | None) -> list[str]:
    """Every broken rule of the op settings in `run_config` ('edge_reliability: weights: the weights must sum to 1 ...'),
    [] when they all hold or the run sets none."""
    problems = []
    for op, section in ((run_config or {}).get("ops") or {}).items():
        model = settings_models().get(op)
        if model is None or not isinstance(section, Mapping) or "config" not in section:
            continue
        try:
            model.model_validate(section["config"] or {})
        except ValidationError as error:
            problems += [f"{op}: {'.'.join(map(str, e['loc'])) or 'config'}: {e['msg']}" for e in error.errors(include_url=False)]
    return problems


class ValidatingRunCoordinator(QueuedRunCoordinator):
    """Dagster's queued run coordinator, refusing a run whose settings break a rule (`settings_problems`): the run is
    reported failed at once with the broken rules, and never queued."""

    def submit_run(self, context: SubmitRunContext) -> DagsterRun:
        run = context.dagster_run
        problems = settings_problems(run.run_config)
        if not problems:
            return super().submit_run(context)
        self._instance.report_run_failed(run, message="refused at launch, the settings break these rules: " + "; ".join(problems))
        return self._instance.get_run_by_id(run.run_id)
