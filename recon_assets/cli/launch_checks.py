"""Settings checked before a run starts, not when a step runs (issue 11).

Dagster checks a run's config against each op's config schema at launch: types and required fields. The rules of
our pydantic settings models (ranges, weights summing to 1: `reliability.settings`,
`verdicts.critic.VerdictRules`, ...) and of the resources (the Groq judge's batching and budgets, OpenAlex timeouts, an
`as_of` that must be a date) run where Dagster runs them: when a step builds its config and when a run starts its
resources. `settings_problems` runs them all on a run's config, its `recon/as_of` tag and the resources' settings read
from the environment up front: `recon run` refuses to launch a run whose settings break one (exit 2), naming each
broken rule, instead of failing minutes into the run.
"""

from __future__ import annotations

import os
import typing
from collections.abc import Mapping
from datetime import date, datetime, timezone
from functools import cache
from typing import Any

import dagster as dg
from pydantic import BaseModel, ValidationError

from recon_assets.shared.as_of import parse_as_of
from recon_assets.shared.credentials import redact
from recon_assets.shared.run_tags import AS_OF_TAG


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


def settings_problems(run_config: Mapping[str, Any] | None, tags: Mapping[str, str] | None = None) -> list[str]:
    """Every broken rule of a run's settings ('edge_reliability: weights: the weights must sum to 1 ...'), [] when they
    all hold: the op settings and the resource settings in `run_config`, the resources' settings read from the
    environment (`resource_problems`) and the run's `recon/as_of` tag in `tags`. A setting given as Dagster's
    `{"env": NAME}` is judged on NAME's value in this process's environment (`_env_resolved`); every message passes
    through `credentials.redact` (a value echoed by a rule, e.g. a key pasted into as_of, is never shown)."""
    problems = []
    for op, section in ((run_config or {}).get("ops") or {}).items():
        model = settings_models().get(op)
        if model is None or not isinstance(section, Mapping) or "config" not in section:
            continue
        try:
            model.model_validate(_env_resolved(section["config"]) or {})
        except ValidationError as error:
            problems += _named(op, error)
    if (tags or {}).get(AS_OF_TAG):
        try:
            parse_as_of(tags[AS_OF_TAG], source=f"the run tag {AS_OF_TAG}")
        except ValueError as error:
            problems.append(f"as_of: {error}")
    return [redact(problem) for problem in problems + resource_problems(run_config)]


def as_of_not_after_today(day: date, *, source: str) -> date:
    """`day`, the as_of a `recon` command was given (`--as-of`, RECON_AS_OF), when it is not after today: a reliability
    as of a day to come has no evidence yet (no citation, no new version, no steward judgement of that day exists), and
    its ages and time windows would be measured from a date nothing has reached. Today is the later of this machine's
    local date (a command's default as_of) and the UTC date (a run's default, its creation day in UTC:
    `shared.as_of.AsOfDate`), so neither clock refuses the other's today.

    Raises:
        ValueError: one line naming `source` and today's date.
    """
    today = max(date.today(), datetime.now(timezone.utc).date())
    if day > today:
        raise ValueError(
            f"as_of {day.isoformat()} from {source} is after today ({today.isoformat()}): a reliability as of a day to come "
            "has no evidence yet; give today or an earlier date"
        )
    return day


def _env_resolved(value: Any) -> Any:
    """`value` (a run config section) with each `{"env": NAME}` in it replaced by NAME's value in this process's
    environment ('' when unset): Dagster's StringSource, IntSource and BoolSource, the config types of every str,
    int and bool setting, read a setting from the environment in that form when the run starts."""
    if isinstance(value, Mapping):
        if set(value) == {"env"} and isinstance(value["env"], str):
            return os.environ.get(value["env"], "")
        return {key: _env_resolved(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_env_resolved(item) for item in value]
    return value


# The resources' secret settings and the variable each is read from (shared.credentials.SECRET_VARIABLES).
SECRET_SETTINGS = {"api_key": "OPENALEX_API_KEY or GROQ_API_KEY", "motherduck_token": "MOTHERDUCK_TOKEN"}


def resource_problems(run_config: Mapping[str, Any] | None) -> list[str]:
    """Every broken rule of the resources' settings this run would start with: each resource of
    `definitions.resources_from_environment()`, its `dg.EnvVar` settings read from this process's environment, and the
    settings the run config's `resources` section gives it. Only those settings are judged (a setting the definitions
    fill in at run time is not), and a secret's value is never part of a message. A resource that sends a key also
    refuses a plain-http base URL to another machine, in the line it fails a run with when it starts
    (`check_key_transport`, `shared.key_transport`)."""
    from recon_assets.definitions import resources_from_environment  # imports the Definitions: when first needed

    try:
        resources = resources_from_environment()
    except ValueError as error:  # credentials.UnusableSecretError included: its message names no value
        return [f"environment: {error}"]
    sections = (run_config or {}).get("resources") or {}
    problems = []
    for key, resource in resources.items():
        from_environment = {name: getattr(resource, name) for name in resource.model_fields_set if isinstance(getattr(resource, name), dg.EnvVar)}
        section = sections.get(key)
        typed = dict(section.get("config") or {}) if isinstance(section, Mapping) and isinstance(section.get("config"), Mapping) else {}
        problems += [
            f"resource {key}: {name}: a secret is read from the environment only ({SECRET_SETTINGS[name]}, or {{env: NAME}}), "
            "never typed into the run config, which Dagster stores with the run"
            for name, value in typed.items() if name in SECRET_SETTINGS and value is not None and not isinstance(value, Mapping)
        ]
        given = _env_resolved(typed)
        judged = {name: os.environ.get(variable, "") for name, variable in from_environment.items()} | given
        if not judged:
            continue
        try:
            started = type(resource)(**{name: getattr(resource, name) for name in resource.model_fields_set} | judged)
        except ValidationError as error:
            problems += _named(f"resource {key}", error, only=set(judged))
            continue
        if hasattr(started, "check_key_transport"):  # a resource that sends a key
            try:
                started.check_key_transport()
            except ValueError as error:  # key_transport.PlainHttpRefused, or a RECON_ALLOW_PLAIN_HTTP that is not a switch word
                problems.append(f"resource {key}: {error}")
    return problems


def _named(owner: str, error: ValidationError, only: set[str] | None = None) -> list[str]:
    """'owner: field.sub: message' for each error of `error` (those on a field of `only`, when given), without the
    value that broke the rule."""
    return [
        f"{owner}: {'.'.join(map(str, e['loc'])) or 'config'}: {e['msg']}"
        for e in error.errors(include_url=False, include_input=False)
        if only is None or (e["loc"] and e["loc"][0] in only)
    ]
