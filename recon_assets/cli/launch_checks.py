"""Settings checked before a run starts, not when a step runs (issue 11).

Dagster checks a run's config against each op's config schema at launch: types and required fields. The rules of
our pydantic settings models (ranges, weights summing to 1: `reliability.settings`,
`verdicts.critic.VerdictRules`, ...) and of the resources (the Groq judge's batching and budgets, OpenAlex timeouts, an
`as_of` that must be a date) run where Dagster runs them: when a step builds its config and when a run starts its
resources. `settings_problems` runs them all on a run's config, its `recon/as_of` tag and the resources' settings read
from the environment up front: `recon run` refuses to launch a run whose settings break one (exit 2), naming each
broken rule, instead of failing minutes into the run. `check_launch` adds the environment's own checks
(`check_environment`) and is what every command that launches a run (`recon run`, `recon paper`, `recon ask`) calls
before it launches one: a setting the code location or a run's resources would fail on is one line and exit 2.
"""

from __future__ import annotations

import os
import typing
from collections.abc import Mapping
from datetime import date, datetime, timezone
from functools import cache
from typing import Any

from pathlib import Path

import dagster as dg
from pydantic import BaseModel, ValidationError

from recon_assets.cli.launched_runs import RUN_CONFIG
from recon_assets.enrichment.resources import crossref_offline, openalex_offline_from_env
from recon_assets.judgement.resources import groq_offline
from recon_assets.shared.as_of import parse_as_of
from recon_assets.shared.credentials import redact, usable_secrets
from recon_assets.shared.key_transport import ALLOW_PLAIN_HTTP, plain_http_allowed
from recon_assets.shared.paths import resolved
from recon_assets.shared.run_tags import AS_OF_TAG
from recon_assets.shared.validation import problem_line
from recon_assets.storage.duckdb_settings import duckdb_connection_config, is_motherduck
from recon_assets.storage.duckdb_settings import MOTHERDUCK_TOKEN_VARIABLE, usable_token
from recon_assets.storage.output_files import earlier_runs_kept


class PreflightError(RuntimeError):
    """An input of a `recon` command is unusable; raised before any run is launched and before anything is written."""


def check_launch(database: Path, tags: Mapping[str, str]) -> None:
    """Refuse, before a run is launched, what its code location or its resources would fail on: the environment
    (`check_environment`) and the rules of the settings it would run with (`settings_problems` on `RUN_CONFIG` and
    `tags`, the run's tags).

    Raises:
        PreflightError: one line, without any secret's value.
    """
    check_environment(database)
    if problems := settings_problems(RUN_CONFIG, tags):
        raise PreflightError("the settings break these rules: " + "; ".join(problems))


def check_environment(database: Path) -> None:
    """Fail fast on a bad RECON_OPENALEX, RECON_CROSSREF, RECON_GROQ, RECON_ALLOW_PLAIN_HTTP, RECON_DUCKDB_MEMORY_LIMIT
    or RECON_KEEP_OUTPUTS, an unusable secret (OPENALEX_API_KEY, GROQ_API_KEY, HF_TOKEN, MOTHERDUCK_TOKEN: stripped of
    surrounding whitespace here, for every run this process launches), a key that would go over plain HTTP to another
    machine (`check_key_transports`), a MotherDuck database `database` (md:<name>) without MOTHERDUCK_TOKEN, or a
    local `database` path that is a symbolic-link loop.

    Raises:
        PreflightError: one line naming the variable or path (a secret's value is never part of it).
    """
    try:
        # Stripped once here so every client of this process sends the key as issued (a trailing '\n' made the HTTP
        # library refuse the header, and its error text held the key).
        os.environ.update(usable_secrets())
        openalex_offline_from_env()
        crossref_offline(os.environ.get("RECON_CROSSREF") or "")
        groq_offline(os.environ.get("RECON_GROQ") or "")
        plain_http_allowed(os.environ.get(ALLOW_PLAIN_HTTP) or "")
        check_key_transports()
        duckdb_connection_config(database)  # refuses an unusable RECON_DUCKDB_MEMORY_LIMIT
        earlier_runs_kept()  # refuses an unusable RECON_KEEP_OUTPUTS
        if is_motherduck(database):
            usable_token(str(database), os.environ.get(MOTHERDUCK_TOKEN_VARIABLE))  # MissingTokenError, a ValueError
        else:
            resolved(database, "--db / RECON_DB_PATH")  # a symbolic-link loop
    except ValueError as error:  # UnusableSecretError and PlainHttpRefused are ValueErrors too
        raise PreflightError(str(error)) from error


def check_key_transports() -> None:
    """The resources that send a key (the KG source, OpenAlex, the Groq judge), their settings read from the
    environment as a run's resources read them, each refuse a key that would go over plain HTTP to another machine
    (their `check_key_transport`, which also runs when a run's resources start).

    Raises:
        key_transport.PlainHttpRefused: one line naming the setting (a ValueError).
    """
    from recon_assets.definitions import resources_from_environment  # the Definitions: imported when first needed

    for resource in resources_from_environment().values():
        if hasattr(resource, "check_key_transport"):
            settings = {name: getattr(resource, name) for name in resource.model_fields_set}
            given = {name: value.get_value() if isinstance(value, dg.EnvVar) else value for name, value in settings.items()}
            type(resource)(**given).check_key_transport()


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
        f"{owner}: {problem_line(e, 'config')}"
        for e in error.errors(include_url=False, include_input=False)
        if only is None or (e["loc"] and e["loc"][0] in only)
    ]
