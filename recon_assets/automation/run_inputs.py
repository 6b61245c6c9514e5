"""The inputs of a run that are not assets, as observable source assets Dagster's staleness sees: the run's `as_of`, the
settings that change results and the KG export. Each has a data version (its value, or a digest of it); the assets
that read one name it in their declaration (`declarations.py`, `run_inputs=`), which makes it one of their `deps`, so
a new value makes exactly them stale in the UI and for `recon run` (`automation.staleness`).

`recon run` reports their current values before it launches anything (`report_run_inputs`: a runless
AssetObservation carrying the `dagster/data_version` tag, shown on each input's page in the UI, and only when the
value changed). In the UI, "Observe sources" on the run_inputs group does the same for a run launched there (its
values come from the code location's environment: RECON_AS_OF, else today).

Settings are those `recon run` runs with (each config class's defaults, as its run config sets none) and the
online/offline choice of each service. An online service answers differently from day to day (OpenAlex citations,
the Groq LLM judge's pairs not answered yet), so an online setting's value holds the day (UTC) too: the assets it
feeds are stale once a day at most, never on every run.
"""

from __future__ import annotations

import hashlib
import json
import os
import warnings
from collections.abc import Mapping
from datetime import date, datetime, timezone
from pathlib import Path

import dagster as dg

from recon_assets.automation.staleness import DATA_VERSION_TAG

GROUP = "run_inputs"
# Dagster 1.13 calls observable source assets beta (https://docs.dagster.io/guides/build/assets/asset-versioning-and-caching
# uses them for this); its warning, once per decorator, would open every `recon` command's output.
warnings.filterwarnings("ignore", category=dg.BetaWarning, message="Function `observable_source_asset`")


@dg.observable_source_asset(group_name=GROUP)
def as_of() -> dg.DataVersion:
    """The date a run measures every age, time window and year bound against (`recon run --as-of`, RECON_AS_OF, else
    today, UTC). Data version: the date, YYYY-MM-DD."""
    return dg.DataVersion(_versions()[AS_OF])


@dg.observable_source_asset(group_name=GROUP, required_resource_keys={"kg_export"})
def kg_export(context: dg.AssetExecutionContext) -> dg.DataVersion:
    """The KG export a run ingests (RECON_KG_PATH, or the Hugging Face file at RECON_HF_REVISION). Data version: the
    local file's SHA-256, or the Hugging Face file's address and revision."""
    return dg.DataVersion(kg_export_version(context.resources.kg_export.source()))


@dg.observable_source_asset(group_name=GROUP)
def enrichment_settings() -> dg.DataVersion:
    """OpenAlex and Crossref settings (OpenAlexConfig, CitingWorksConfig, each service online or offline). Data
    version: a digest of them, with the day (UTC) while a service is online."""
    return dg.DataVersion(_versions()[ENRICHMENT_SETTINGS])


@dg.observable_source_asset(group_name=GROUP)
def judge_settings() -> dg.DataVersion:
    """Coherence judge and steward settings (JudgeConfig, StewardConfig, the Groq LLM judge online or offline). Data
    version: a digest of them, with the day (UTC) while the LLM judge is online."""
    return dg.DataVersion(_versions()[JUDGE_SETTINGS])


@dg.observable_source_asset(group_name=GROUP)
def scoring_settings() -> dg.DataVersion:
    """Scoring and verdict settings (ScoringConfig, VerdictRules). Data version: a digest of them."""
    return dg.DataVersion(_versions()[SCORING_SETTINGS])


@dg.observable_source_asset(group_name=GROUP)
def paper_settings() -> dg.DataVersion:
    """The papers' own opt-in to send a paper's text online (RECON_PAPERS_ONLINE) and whether the Groq resource is
    online: a paper's claims and argumentation are the LLM's only with both (`papers.resources.PaperIntake`). Data
    version: a digest of them, with the day (UTC) while both are on."""
    return dg.DataVersion(_versions()[PAPER_SETTINGS])


RUN_INPUTS = [as_of, kg_export, enrichment_settings, judge_settings, scoring_settings, paper_settings]
AS_OF, KG_EXPORT, ENRICHMENT_SETTINGS, JUDGE_SETTINGS, SCORING_SETTINGS, PAPER_SETTINGS = (source.key for source in RUN_INPUTS)


def _versions() -> dict[dg.AssetKey, str]:
    """`settings_versions` with as_of from RECON_AS_OF, else today (UTC): what a run launched from the UI reads."""
    from recon_assets.shared.as_of import parse_as_of

    setting = os.environ.get("RECON_AS_OF")
    day = parse_as_of(setting, source="RECON_AS_OF") if setting else datetime.now(timezone.utc).date()
    return {AS_OF: day.isoformat(), **settings_versions()}


def settings_digest(settings: object, *, online_day: date | None = None) -> str:
    """16 hex digits of the SHA-256 of `settings` (JSON-able) as canonical JSON, and '@<day>' after it when a service
    is online (`online_day`)."""
    digest = hashlib.sha256(json.dumps(settings, sort_keys=True, default=str).encode()).hexdigest()[:16]
    return f"{digest}@{online_day.isoformat()}" if online_day is not None else digest


def kg_export_version(source: str) -> str:
    """The data version of the KG export `source` (`KgExportSource.source()`): 'sha256:<hex>' of a local file, the
    Hugging Face address (with its revision) as it is.

    Raises:
        OSError: the local file cannot be read.
    """
    from recon_assets.kg.checksum import file_sha256

    return source if source.startswith("hf://") else f"sha256:{file_sha256(Path(source))}"


def settings_versions() -> dict[dg.AssetKey, str]:
    """{settings input: its data version} with the settings of this process's environment and each config class's
    defaults (the run config `recon run` gives sets none).

    Raises:
        ValueError: RECON_OPENALEX, RECON_CROSSREF, RECON_GROQ or RECON_PAPERS_ONLINE is not 'online', 'offline' or unset.
    """
    from recon_assets.enrichment.assets import CitingWorksConfig, OpenAlexConfig
    from recon_assets.enrichment.resources import crossref_offline, openalex_offline_from_env
    from recon_assets.judgement.assets import JudgeConfig, StewardConfig
    from recon_assets.judgement.resources import groq_offline
    from recon_assets.papers.resources import papers_online
    from recon_assets.reliability.run_config import ScoringConfig
    from recon_assets.shared.credentials import secret_is_set
    from recon_assets.verdicts.critic import VerdictRules

    today = datetime.now(timezone.utc).date()
    openalex_online = not openalex_offline_from_env()
    crossref_online = not crossref_offline(os.environ.get("RECON_CROSSREF") or "")
    groq_online = not groq_offline(os.environ.get("RECON_GROQ") or "") and secret_is_set("GROQ_API_KEY")
    enrichment = {
        "openalex": OpenAlexConfig().model_dump(), "citing_works": CitingWorksConfig().model_dump(),
        "openalex_online": openalex_online, "crossref_online": crossref_online,
    }
    judge = {"judge": JudgeConfig().model_dump(), "steward": StewardConfig().model_dump(), "llm_online": groq_online}
    scoring = {"scoring": ScoringConfig().model_dump(), "verdicts": VerdictRules().model_dump()}
    papers = {"papers_online": papers_online(os.environ.get("RECON_PAPERS_ONLINE") or ""), "llm_online": groq_online}
    return {
        ENRICHMENT_SETTINGS: settings_digest(enrichment, online_day=today if openalex_online or crossref_online else None),
        JUDGE_SETTINGS: settings_digest(judge, online_day=today if groq_online else None),
        SCORING_SETTINGS: settings_digest(scoring),
        PAPER_SETTINGS: settings_digest(papers, online_day=today if all(papers.values()) else None),
    }


def reported_versions(instance: dg.DagsterInstance) -> dict[dg.AssetKey, str | None]:
    """{input: the data version last reported for it, or None when never}."""
    versions: dict[dg.AssetKey, str | None] = {}
    for key in (source.key for source in RUN_INPUTS):
        records = instance.fetch_observations(key, limit=1).records
        observation = records[0].event_log_entry.asset_observation if records else None
        versions[key] = observation.tags.get(DATA_VERSION_TAG) if observation is not None else None
    return versions


def report_run_inputs(instance: dg.DagsterInstance, versions: Mapping[dg.AssetKey, str]) -> list[str]:
    """Report each input whose data version differs from the one last reported, as a runless AssetObservation with
    the `dagster/data_version` tag (https://docs.dagster.io/guides/build/assets/external-assets); the names of those
    reported ('as_of 2026-11-29 -> 2026-12-01')."""
    reported = reported_versions(instance)
    changed = []
    for key, version in versions.items():
        if reported.get(key) == version:
            continue
        instance.report_runless_asset_event(dg.AssetObservation(key, tags={DATA_VERSION_TAG: version}))
        changed.append(f"{key.to_user_string()} {reported.get(key) or '(none)'} -> {version}")
    return changed
