"""The OpenAlex client (`openalex_client`, through pyalex) and the Crossref client (`crossref`, httpx) as Dagster
resources, each with its offline mode."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path

import dagster as dg
from pydantic import Field

from recon_assets.enrichment import crossref, openalex_client
from recon_assets.enrichment.retries import RetryPolicy
from recon_assets.shared.credentials import redact, secret_is_set
from recon_assets.shared.key_transport import check_key_transport
from recon_assets.shared.paths import SAMPLE_DIR
from recon_assets.shared.switches import OFFLINE, ONLINE, checked_switch

SAMPLE_OPENALEX_RECORDING = SAMPLE_DIR / "openalex_cache.json"


class OpenAlexResource(dg.ConfigurableResource):
    """OpenAlex works by DOI through pyalex (`recon_assets.enrichment.openalex_client`), or offline from a recording.

    Offline (`offline=True`) no request is made: works come from the recording at `recording_path` (the
    shipped sample's 44 real works) and any other DOI gets an `error` result. Online without an API key
    (required by OpenAlex since 2026-02-13) nothing is requested either: one loud warning says so, and the
    recording and what the asset's cache already holds are used. The key is never logged nor written anywhere, nor
    sent over plain HTTP to another machine (`check_key_transport`, when it starts).
    """

    offline: bool = Field(default=False, description="Use the recording instead of the API.")
    api_key: str | None = Field(default=None, description="OpenAlex API key (OPENALEX_API_KEY).")
    mailto: str | None = Field(default=None, description="Contact e-mail sent with each request.")
    base_url: str = Field(default=openalex_client.DEFAULT_BASE_URL, description="API root (OPENALEX_URL).")
    timeout_seconds: float = Field(allow_inf_nan=False, default=30.0, gt=0, description="Seconds to wait for each read of a response.")
    deadline_seconds: float = Field(
        allow_inf_nan=False, default=openalex_client.DEFAULT_DEADLINE_SECONDS, gt=0, description="Total seconds one request may take, body included."
    )
    retries: int = Field(default=3, ge=0, description="Further attempts after a 5xx, a timeout or a short 429.")
    backoff_seconds: float = Field(allow_inf_nan=False, default=1.0, ge=0, description="First retry wait, doubled each retry.")
    max_retry_after_seconds: float = Field(
        allow_inf_nan=False, default=60.0, ge=0, description="Longest Retry-After worth waiting for; longer means the daily budget is spent."
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
        # redacted: a password in OPENALEX_URL (user:password@host) was stored in clear in the event log
        log.info(f"OpenAlex: fetching {len(dois):,} DOIs from {redact(self.base_url)}")
        return self.client(budget).fetch(dois)

    @property
    def may_request(self) -> bool:
        """Whether requests may be sent: online with an API key."""
        return not self.offline and bool(self.api_key)

    def check_key_transport(self) -> None:
        """Refuse to start when the key would go over plain HTTP to another machine (`shared.key_transport`).

        Raises:
            key_transport.PlainHttpRefused: requests may be sent and OPENALEX_URL is `http://` to a non-loopback host.
        """
        if self.may_request:
            check_key_transport("OPENALEX_URL", self.base_url, "OPENALEX_API_KEY")

    def setup_for_execution(self, context: dg.InitResourceContext) -> None:
        self.check_key_transport()

    def client(self, budget: openalex_client.ListCallBudget | None = None) -> openalex_client.OpenAlexClient | None:
        """A client of the API as configured, spending at most `budget`, or None offline or without an API key
        (nothing may be requested)."""
        if not self.may_request:
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
    timeout_seconds: float = Field(allow_inf_nan=False, default=30.0, gt=0, description="Seconds to wait for each read of a response.")
    deadline_seconds: float = Field(
        allow_inf_nan=False, default=crossref.DEFAULT_DEADLINE_SECONDS, gt=0, description="Total seconds one request may take, body included."
    )
    retries: int = Field(default=3, ge=0)
    backoff_seconds: float = Field(allow_inf_nan=False, default=1.0, ge=0)

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


def openalex_offline(setting: str, *, has_key: bool) -> bool:
    """Whether OpenAlex is read from the recording: RECON_OPENALEX `setting` 'offline' (opt out), 'online', or
    '' (online exactly when OPENALEX_API_KEY is set). Online without a key the resource warns and fetches nothing.

    Raises:
        ValueError: another setting.
    """
    setting = checked_switch("RECON_OPENALEX", setting)
    return setting == OFFLINE or (setting == "" and not has_key)


def openalex_offline_from_env() -> bool:
    """`openalex_offline` for this process's environment: RECON_OPENALEX, and OPENALEX_API_KEY set to more than
    whitespace (`credentials.secret_is_set`: a blank key is no key).

    Raises:
        ValueError: RECON_OPENALEX is another setting.
    """
    return openalex_offline(os.environ.get("RECON_OPENALEX") or "", has_key=secret_is_set("OPENALEX_API_KEY"))


def crossref_offline(setting: str) -> bool:
    """Whether Crossref is left unasked: RECON_CROSSREF `setting` 'online' asks it, 'offline' or '' (the default)
    does not.

    Raises:
        ValueError: another setting.
    """
    return checked_switch("RECON_CROSSREF", setting) != ONLINE
