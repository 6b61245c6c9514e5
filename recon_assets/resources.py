"""Resources: where the KG export comes from, the DuckDB file, the date scores are computed as of, and the
OpenAlex and Crossref clients.

Each is configured from the environment when `definitions.py` is loaded (an empty variable counts as unset):
RECON_KG_PATH (a local export; default the shipped sample), RECON_KG_SOURCE=huggingface with
RECON_HF_FILENAME / RECON_HF_REVISION (the real KG), RECON_DB_PATH (default data/recon.duckdb),
RECON_DUCKDB_MEMORY_LIMIT (DuckDB's memory_limit, default 3GB), RECON_AS_OF (YYYY-MM-DD; default the day a run was created), OpenAlex
online whenever OPENALEX_API_KEY is set (RECON_OPENALEX=offline opts out: the recorded OpenAlex cache, no request;
RECON_OPENALEX=online without a key warns and uses only the cache) with OPENALEX_MAILTO and OPENALEX_URL, and
RECON_CROSSREF=online (default offline) with CROSSREF_MAILTO and CROSSREF_URL, and the Groq LLM judge online whenever
GROQ_API_KEY is set (RECON_GROQ=offline opts out) with GROQ_BASE_URL.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timezone
from pathlib import Path

import dagster as dg
from dagster_duckdb import DuckDBResource
from pydantic import Field

from recon_assets.shared.credentials import usable_secrets
from recon_assets.enrichment import crossref, openalex_client
from recon_assets.enrichment.retries import RetryPolicy
from recon_assets.judgement import llm_cache
from recon_assets.judgement.groq_client import GroqJudgeClient, GroqJudgeSettings, RunBudget
from recon_assets.judgement.llm_judge import LlmJudgeReport, TriageRules, judge_candidates
from recon_assets.kg.hub_source import DEFAULT_DEADLINE_SECONDS as HUB_DEADLINE_SECONDS
from recon_assets.kg.hub_source import PINNED_REVISION, REPO_ID, download_kg_export
from recon_assets.shared.paths import REPO_ROOT, database_path

SAMPLE_KG_PATH = REPO_ROOT / "data" / "sample" / "graph.json"
SAMPLE_OPENALEX_RECORDING = REPO_ROOT / "data" / "sample" / "openalex_cache.json"
# DuckDB's own default is 80% of RAM, which let a v1-size ingest take 6.7 GB. With a limit it spills to its temp
# directory instead: 3 GB leaves room for Python and DuckDB's unmanaged memory under issue 5's 4 GB target.
DEFAULT_DUCKDB_MEMORY_LIMIT = "3GB"


def duckdb_connection_config(database: Path) -> dict[str, str]:
    """DuckDB settings for every connection to `database`: `memory_limit` (RECON_DUCKDB_MEMORY_LIMIT, a DuckDB size
    such as '3GB'; default DEFAULT_DUCKDB_MEMORY_LIMIT) and `temp_directory` `<database>.tmp` beside it, where data
    beyond the limit spills (https://duckdb.org/docs/stable/configuration/overview)."""
    return {
        "memory_limit": os.environ.get("RECON_DUCKDB_MEMORY_LIMIT") or DEFAULT_DUCKDB_MEMORY_LIMIT,
        "temp_directory": f"{database}.tmp",
    }


@dataclass(frozen=True)
class KgExportFile:
    """A KG export on local disk and a label saying where it came from (kept in kg_snapshots.source)."""

    path: Path
    source: str


class KgExportSource(dg.ConfigurableResource):
    """Where the KG export file comes from; `fetch` puts it on local disk."""

    def fetch(self, log) -> KgExportFile:
        raise NotImplementedError(f"{type(self).__name__} does not say where the KG export comes from")


class LocalKgExport(KgExportSource):
    """A KG export file on local disk (APOC JSON-lines, GraphML or Cypher)."""

    path: str

    def fetch(self, log) -> KgExportFile:
        path = Path(self.path).expanduser().resolve()
        log.info(f"KG export: local file {path}")
        return KgExportFile(path, str(path))


class HuggingFaceKgExport(KgExportSource):
    """The real KG export from Hugging Face (`nasa-gesdisc/nasa-eo-knowledge-graph`) at a pinned revision.

    The token, if any, is read by huggingface_hub itself from HF_TOKEN; it is never logged or stored.
    """

    filename: str = "graph.json"
    revision: str = PINNED_REVISION
    deadline_seconds: float = Field(
        default=HUB_DEADLINE_SECONDS, gt=0, description="Total seconds the download may take (the file is about 1.56 GB)."
    )

    def fetch(self, log) -> KgExportFile:
        log.info(f"KG export: downloading {REPO_ID}/{self.filename} at revision {self.revision} (cached after the first time)")
        download = download_kg_export(self.filename, revision=self.revision, deadline_seconds=self.deadline_seconds)
        log.info(f"KG export: {download.path} ({download.size_bytes:,} bytes, sha256 {download.sha256}, commit {download.commit_sha})")
        return KgExportFile(download.path, f"hf://{REPO_ID}@{download.commit_sha or self.revision}/{self.filename}")


# The run tag holding a run's as_of: `recon run` and the schedules set it, so that every asset of a run (and
# every run of one `recon run`) reads the same date.
AS_OF_TAG = "recon/as_of"


def parse_as_of(text: str, *, source: str) -> date:
    """A YYYY-MM-DD date.

    Raises:
        ValueError: naming `source` (where the text came from) when it is not an ISO date.
    """
    try:
        return date.fromisoformat(text)
    except (TypeError, ValueError) as error:
        raise ValueError(f"as_of must be a date YYYY-MM-DD, got {text!r} from {source}") from error


class AsOfDate(dg.ConfigurableResource):
    """The date every age, time window and year bound is measured against, resolved once per run (`for_run`).

    `as_of` (YYYY-MM-DD, RECON_AS_OF) is the default for runs that carry no `recon/as_of` tag; empty means the
    day (UTC) the run was created. No asset reads today's date for itself: one run never mixes two dates.
    """

    as_of: str = ""

    def for_run(self, context: dg.AssetExecutionContext) -> date:
        """The run's as_of: its `recon/as_of` tag, else this resource's `as_of`, else the run's creation day (UTC).

        Raises:
            ValueError: the tag or the configured value is not a YYYY-MM-DD date.
        """
        tag = context.run.tags.get(AS_OF_TAG)
        if tag:
            return parse_as_of(tag, source=f"run tag {AS_OF_TAG}")
        if self.as_of:
            return parse_as_of(self.as_of, source="RECON_AS_OF")
        created = context.instance.get_run_record_by_id(context.run_id).create_timestamp
        return created.astimezone(timezone.utc).date()


class OpenAlexResource(dg.ConfigurableResource):
    """OpenAlex works by DOI through pyalex (`recon_assets.enrichment.openalex_client`), or offline from a recording.

    Offline (`offline=True`) no request is made: works come from the recording at `recording_path` (the
    shipped sample's 44 real works) and any other DOI gets an `error` result. Online without an API key
    (required by OpenAlex since 2026-02-13) nothing is requested either: one loud warning says so, and the
    recording and what the asset's cache already holds are used. The key is never logged nor written anywhere.
    """

    offline: bool = Field(default=False, description="Use the recording instead of the API.")
    api_key: str | None = Field(default=None, description="OpenAlex API key (OPENALEX_API_KEY).")
    mailto: str | None = Field(default=None, description="Contact e-mail sent with each request.")
    base_url: str = Field(default=openalex_client.DEFAULT_BASE_URL, description="API root (OPENALEX_URL).")
    timeout_seconds: float = Field(default=30.0, gt=0, description="Seconds to wait for each read of a response.")
    deadline_seconds: float = Field(
        default=openalex_client.DEFAULT_DEADLINE_SECONDS, gt=0, description="Total seconds one request may take, body included."
    )
    retries: int = Field(default=3, ge=0, description="Further attempts after a 5xx, a timeout or a short 429.")
    backoff_seconds: float = Field(default=1.0, ge=0, description="First retry wait, doubled each retry.")
    max_retry_after_seconds: float = Field(
        default=60.0, ge=0, description="Longest Retry-After worth waiting for; longer means the daily budget is spent."
    )
    recording_path: str = Field(default=str(SAMPLE_OPENALEX_RECORDING), description="Recorded works used offline.")
    daily_list_calls: int = Field(
        default=10_000, ge=0,
        description="OpenAlex list calls all assets may spend per UTC day together (a free key's $1: 10,000; a search page counts 10).",
    )

    def fetch(self, dois: Iterable[str], log, budget: openalex_client.ListCallBudget | None = None) -> openalex_client.FetchReport:
        """The works of `dois` (see `OpenAlexClient.fetch`); offline or without a key, no request is made."""
        dois = list(dois)
        if self.offline:
            # Without a key OpenAlex serves nothing (required since 2026-02-13): say so loudly, once per run.
            say = log.info if self.api_key else log.warning
            say(f"OpenAlex offline: {len(dois):,} DOIs looked up in the recording {self.recording_path} and the cache "
                f"({'RECON_OPENALEX=offline' if self.api_key else 'OPENALEX_API_KEY is not set: set it to fetch'})")
            return self._recorded(dois, openalex_client.OFFLINE_MISSING)
        if not self.api_key:
            log.warning(
                f"OPENALEX_API_KEY is not set: OpenAlex requires an API key since 2026-02-13, so the {len(dois):,} DOIs "
                "due for a refresh are NOT fetched and only cached and recorded works are used. Get a free key at "
                "https://openalex.org/settings/api and set OPENALEX_API_KEY."
            )
            return self._recorded(dois, "not fetched: OPENALEX_API_KEY is not set")
        if not dois:
            return openalex_client.FetchReport()
        log.info(f"OpenAlex: fetching {len(dois):,} DOIs from {self.base_url}")
        return self.client(budget).fetch(dois)

    def client(self, budget: openalex_client.ListCallBudget | None = None) -> openalex_client.OpenAlexClient | None:
        """A client of the API as configured, spending at most `budget`, or None offline or without an API key
        (nothing may be requested)."""
        if self.offline or not self.api_key:
            return None
        return openalex_client.OpenAlexClient(
            # Stripped: a key pasted with its line end must not make the HTTP library refuse the header.
            api_key=self.api_key.strip(), mailto=self.mailto, base_url=self.base_url, timeout=self.timeout_seconds,
            deadline=self.deadline_seconds,
            retry=RetryPolicy(retries=self.retries, backoff=self.backoff_seconds, max_retry_after=self.max_retry_after_seconds),
            budget=budget,
        )

    def _recorded(self, dois: list[str], missing: str) -> openalex_client.FetchReport:
        recording = json.loads(Path(self.recording_path).read_text())
        return openalex_client.recorded_report(
            dois, recording["works"], recorded_at=datetime.fromisoformat(recording["recorded_at"]), missing=missing
        )


class CrossrefResource(dg.ConfigurableResource):
    """Crossref update notices (`check`) and records with their relations (`records`) by DOI
    (`recon_assets.enrichment.crossref`, httpx), or offline: no request, every DOI an `error` result saying it
    was not checked (no Crossref responses are recorded for the sample)."""

    offline: bool = Field(default=False, description="Make no request.")
    mailto: str | None = Field(default=None, description="Contact e-mail (Crossref's polite pool).")
    base_url: str = Field(default=crossref.DEFAULT_BASE_URL, description="API root (CROSSREF_URL).")
    timeout_seconds: float = Field(default=30.0, gt=0, description="Seconds to wait for each read of a response.")
    deadline_seconds: float = Field(
        default=crossref.DEFAULT_DEADLINE_SECONDS, gt=0, description="Total seconds one request may take, body included."
    )
    retries: int = Field(default=3, ge=0)
    backoff_seconds: float = Field(default=1.0, ge=0)

    def check(self, dois: Iterable[str], log) -> crossref.CheckReport:
        """One RetractionCheck per DOI of `dois`."""
        dois = list(dict.fromkeys(dois))
        if self.offline:
            log.info(f"Crossref offline: {len(dois):,} DOIs not checked (RECON_CROSSREF=online to check)")
            return crossref.CheckReport([crossref.RetractionCheck(doi, crossref.ERROR, error=crossref.OFFLINE) for doi in dois])
        if not dois:
            return crossref.CheckReport()
        log.info(f"Crossref: checking {len(dois):,} DOIs for update notices (retractions, corrections) at {self.base_url}")
        with self._client() as client:
            return client.check(dois)

    def records(self, dois: Iterable[str], log) -> crossref.RecordReport:
        """One RecordCheck per DOI of `dois`: its Crossref record (type, title, year, relation)."""
        dois = list(dict.fromkeys(dois))
        if self.offline:
            log.info(f"Crossref offline: {len(dois):,} records not asked for (RECON_CROSSREF=online to ask)")
            return crossref.RecordReport([crossref.RecordCheck(doi, crossref.ERROR, error=crossref.OFFLINE) for doi in dois])
        if not dois:
            return crossref.RecordReport()
        log.info(f"Crossref: asking for the records (relations) of {len(dois):,} DOIs at {self.base_url}")
        with self._client() as client:
            return client.records(dois)

    def _client(self) -> crossref.CrossrefClient:
        return crossref.CrossrefClient(
            mailto=self.mailto, base_url=self.base_url, timeout=self.timeout_seconds, deadline=self.deadline_seconds,
            retry=RetryPolicy(retries=self.retries, backoff=self.backoff_seconds),
        )


class GroqJudgeResource(dg.ConfigurableResource):
    """The Groq LLM coherence judge (`recon_assets.judgement.groq_client` over the official `groq` SDK), with
    its answers cached in the `llm_judgements` table.

    Offline, nothing is sent and every candidate comes back `not_sent` with the reason: when `api_key` is not
    set (GROQ_API_KEY), or `offline` is true (RECON_GROQ=offline). `base_url` (GROQ_BASE_URL) points the SDK at
    a compatible server or a fake; None means the SDK's own default (https://api.groq.com). The key is never
    logged nor written anywhere.
    """

    offline: bool = Field(default=False, description="Send nothing even with a key (RECON_GROQ=offline).")
    api_key: str | None = Field(default=None, description="Groq API key (GROQ_API_KEY).")
    base_url: str | None = Field(default=None, description="API root (GROQ_BASE_URL); None: the SDK's default.")
    settings: GroqJudgeSettings = Field(default_factory=GroqJudgeSettings, description="Model, batching, retries, pacing and budgets.")

    def offline_reason(self) -> str | None:
        """Why nothing will be sent, or None when the judge is online."""
        if self.offline:
            return "Groq LLM judge offline (RECON_GROQ=offline): only the offline judge's verdicts are used"
        if not self.api_key:
            return "GROQ_API_KEY is not set: the LLM judge is off and only the offline judge's verdicts are used"
        return None

    def models(self) -> list[str]:
        """The models whose stored answers count: the configured one first, then the fallback."""
        return list(dict.fromkeys(m for m in (self.settings.model, self.settings.fallback_model) if m))

    def client(self, *, budget: RunBudget | None = None, log=None, **options) -> GroqJudgeClient | None:
        """A `GroqJudgeClient` as configured, or None offline. `options` go to the client (http_client, clock, sleep)."""
        if self.offline_reason():
            return None
        # Stripped as the OpenAlex key is: a key pasted with its line end must not break the Authorization header.
        return GroqJudgeClient(self.settings, api_key=self.api_key.strip(), base_url=self.base_url, budget=budget, log=log, **options)

    def judge(
        self, con, candidates, *, log, rules: TriageRules = TriageRules(), now=None, **client_options
    ) -> LlmJudgeReport:
        """Judge `candidates` (llm_judge.CANDIDATE_COLUMNS and TRIAGE_COLUMNS) on the DuckDB connection `con`:
        stored answers reused, triaged pairs asked within the run's and the day's budgets, new answers stored.

        Args:
            con: a DuckDB connection (llm_judgements is created when missing).
            log: a logger (its info/warning methods are used); `now`: a callable giving the UTC time (default now).

        Returns:
            `LlmJudgeReport`; its `totals` also hold http_requests, prompt_tokens, completion_tokens, retries,
            json_validate_failed, salvaged_generations, temperature_zero_retries, latency_ms_mean, wait_seconds,
            daily_budget_left, stored and notes.
        """
        now = now or (lambda: datetime.now(timezone.utc))
        llm_cache.ensure_table(con)
        cached = llm_cache.cached_judgements(con, candidates, self.models())
        reason = self.offline_reason()
        client, daily_left = None, None
        if reason is None:
            spent_requests, spent_tokens = llm_cache.usage_on_day(con, self.settings.model, now().date())
            daily_left = (self.settings.daily_requests - spent_requests, self.settings.daily_tokens - spent_tokens)
            if min(daily_left) <= 0:
                reason = (
                    f"daily LLM budget spent: {spent_requests} of {self.settings.daily_requests} requests and "
                    f"{spent_tokens:,} of {self.settings.daily_tokens:,} tokens used today (UTC); LLM judging stops for this run"
                )
            else:
                budget = RunBudget(
                    min(self.settings.max_requests_per_run, daily_left[0]), min(self.settings.max_tokens_per_run, daily_left[1])
                )
                client = self.client(budget=budget, log=log.warning, **client_options)
        if reason:
            log.warning(reason)
        try:
            report = judge_candidates(
                candidates, client, cached=cached, models=self.models(), pairs_per_request=self.settings.pairs_per_request,
                rules=rules, offline_reason=reason, now=now,
            )
        finally:
            if client is not None:
                client.close()
        stored = llm_cache.store_judgements(con, report.new_rows)
        totals = client.totals if client is not None else None
        report.totals.update({
            "http_requests": totals.http_requests if totals else 0,
            "prompt_tokens": totals.prompt_tokens if totals else 0,
            "completion_tokens": totals.completion_tokens if totals else 0,
            "retries": totals.retries if totals else 0,
            "json_validate_failed": totals.json_validate_failed if totals else 0,
            "salvaged_generations": totals.salvaged_generations if totals else 0,
            "temperature_zero_retries": totals.temperature_zero_retries if totals else 0,
            "latency_ms_mean": round(totals.latency_ms / totals.answered_requests, 1) if totals and totals.answered_requests else None,
            "wait_seconds": round(client.pacer.waited_seconds, 1) if client is not None else 0.0,
            "daily_budget_left": {"requests": daily_left[0], "tokens": daily_left[1]} if daily_left else None,
            "stored": stored,
            "notes": list(totals.notes) if totals else ([reason] if reason else []),
        })
        log.info(
            f"LLM judge {report.totals['judge']}: {report.totals['candidates']} candidate pairs, {report.totals['cached']} cached, "
            f"{report.totals['triaged_out']} left out by triage, {report.totals['judged']} judged, {report.totals['failed']} failed, "
            f"{report.totals['not_sent']} not sent; {report.totals['http_requests']} requests, "
            f"{report.totals['prompt_tokens'] + report.totals['completion_tokens']:,} tokens"
        )
        return report


def groq_offline(setting: str) -> bool:
    """Whether RECON_GROQ `setting` ('offline', 'online' or '') turns the LLM judge off.

    Raises:
        ValueError: another setting.
    """
    if setting not in ("", "online", "offline"):
        raise ValueError(f"RECON_GROQ must be 'online', 'offline' or unset, got {setting!r}")
    return setting == "offline"


def openalex_offline(setting: str, *, has_key: bool) -> bool:
    """Whether OpenAlex is read from the recording: RECON_OPENALEX `setting` 'offline' (opt out), 'online', or
    '' (online exactly when OPENALEX_API_KEY is set). Online without a key the resource warns and fetches nothing.

    Raises:
        ValueError: another setting.
    """
    if setting not in ("", "online", "offline"):
        raise ValueError(f"RECON_OPENALEX must be 'online', 'offline' or unset, got {setting!r}")
    return setting == "offline" or (setting == "" and not has_key)


def resources_from_environment() -> dict[str, dg.ConfigurableResource]:
    """The resources, configured from RECON_* environment variables (see module docstring).

    Raises:
        credentials.UnusableSecretError: OPENALEX_API_KEY, GROQ_API_KEY or HF_TOKEN holds a space or a control
            character inside it (the code location does not load, with that one message).
    """
    usable_secrets()
    if (os.environ.get("RECON_KG_SOURCE") or "local") == "huggingface":
        kg_export = HuggingFaceKgExport(
            filename=os.environ.get("RECON_HF_FILENAME") or "graph.json",
            revision=os.environ.get("RECON_HF_REVISION") or PINNED_REVISION,
        )
    else:
        kg_export = LocalKgExport(path=os.environ.get("RECON_KG_PATH") or str(SAMPLE_KG_PATH))
    database = database_path()
    database.parent.mkdir(parents=True, exist_ok=True)
    return {
        "kg_export": kg_export,
        "duckdb": DuckDBResource(database=str(database), connection_config=duckdb_connection_config(database)),
        "as_of": AsOfDate(as_of=os.environ.get("RECON_AS_OF") or ""),
        "openalex": OpenAlexResource(
            offline=openalex_offline(os.environ.get("RECON_OPENALEX") or "", has_key=bool(os.environ.get("OPENALEX_API_KEY"))),
            # An EnvVar keeps the key's value out of the Dagster UI and the run config.
            api_key=dg.EnvVar("OPENALEX_API_KEY") if os.environ.get("OPENALEX_API_KEY") else None,
            mailto=os.environ.get("OPENALEX_MAILTO") or None,
            base_url=os.environ.get("OPENALEX_URL") or openalex_client.DEFAULT_BASE_URL,
        ),
        "crossref": CrossrefResource(
            offline=os.environ.get("RECON_CROSSREF") != "online",
            mailto=os.environ.get("CROSSREF_MAILTO") or os.environ.get("OPENALEX_MAILTO") or None,
            base_url=os.environ.get("CROSSREF_URL") or crossref.DEFAULT_BASE_URL,
        ),
        "groq_judge": GroqJudgeResource(
            offline=groq_offline(os.environ.get("RECON_GROQ") or ""),
            api_key=dg.EnvVar("GROQ_API_KEY") if os.environ.get("GROQ_API_KEY") else None,
            base_url=os.environ.get("GROQ_BASE_URL") or None,
        ),
    }
