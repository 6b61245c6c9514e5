"""Crossref retraction notices that point at a DOI: `/works?filter=updates:{doi}` (httpx).

A retraction notice is a Crossref work whose `update-to` lists {"DOI": <the retracted DOI>, "type":
"retraction"} (Crossref REST API, "works" filters: `updates:{doi}` returns the works that update `doi`).
OpenAlex misses some retractions that Crossref records this way, so both are asked.

A notice is not itself a retracted finding. Publishers sometimes deposit the pairing in both directions
(the Lancet notice 10.1016/s0140-6736(20)31324-6 and the paper 10.1016/s0140-6736(20)31180-6 each say they
retract the other): `retraction_notices` reads such a pair in the direction of the work titled as a notice,
and a DOI that is the notice of another checked DOI gets no notices. The score also never counts a work
OpenAlex shows to be a notice as retracted (`reliability.scoring.retraction`).

Several DOIs go in one request (`filter=updates:A,updates:B`: Crossref ORs repeated filters); a DOI with a
',' cannot be written in that syntax and gets an `error` result saying so.

Only successful checks are kept (`cache_rows`, the crossref_cache table): an offline run or a Crossref error
never replaces what an earlier check found (`retraction_rows`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import httpx
import pandas as pd

from recon_assets.credentials import redact
from recon_assets.deadlines import DeadlineExceeded, call_with_deadline
from recon_assets.enrichment.openalex_records import is_retraction_notice
from recon_assets.enrichment.retries import RetryPolicy
from recon_assets.kg.doi import canonical_doi

DEFAULT_BASE_URL = "https://api.crossref.org"
# Total seconds one request may take, body included: an answer for 50 DOIs is a few kB, so only a stalled or
# dripping server reaches it.
DEFAULT_DEADLINE_SECONDS = 120.0
CHECKED, ERROR = "checked", "error"
OFFLINE = "offline: Crossref not checked"
# Columns of the crossref_retractions table, in order (sql/crossref_retractions.sql).
RETRACTION_COLUMNS = ("research_area", "doi", "status", "notice_dois", "error", "checked_at")
# DOIs per request, and notices per page: 50 DOIs have far fewer than 1,000 notices (Crossref's page limit).
DOIS_PER_REQUEST = 50
ROWS = 1_000
RETRACTION = "retraction"


@dataclass(frozen=True)
class RetractionCheck:
    """One DOI: status checked / error; `notice_dois` the retraction notices pointing at it; `error` text."""

    doi: str
    status: str
    notice_dois: tuple[str, ...] = ()
    error: str | None = None


@dataclass
class CheckReport:
    results: list[RetractionCheck] = field(default_factory=list)
    requests: int = 0


def retraction_notices(items: Iterable[Mapping[str, Any]], dois: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """For each DOI of `dois`, the DOIs of the Crossref works in `items` that retract it.

    A pairing contested by the deposits (I's `update-to` says I retracts X, while I's `updated-by`, or X's
    own record, says X retracts I) counts only when I reads as a notice (`openalex_records.is_retraction_notice`
    on its Crossref type and title). A record retracted in place (its `update-to` names itself) lists itself.
    A DOI that is the notice of another DOI of `dois` is a notice, not a retracted finding: it gets none.

    Returns:
        {doi: notice DOIs (sorted)} for every DOI of `dois` (empty tuple when none).
    """
    wanted = set(dois)
    claims: list[tuple[str, str, bool]] = []  # (notice, target, contested by the notice's own updated-by)
    reads_as_notice: dict[str, bool] = {}
    for item in items:
        notice = canonical_doi(item.get("DOI"))
        if notice is None:
            continue
        reads_as_notice[notice] = is_retraction_notice({"type": item.get("type"), "title": (item.get("title") or [None])[0]})
        retracted_by = _retraction_dois(item.get("updated-by"))
        claims += [(notice, target, target in retracted_by) for target in _retraction_dois(item.get("update-to")) & wanted]
    pairs = {(notice, target) for notice, target, _ in claims}
    kept = {
        (notice, target) for notice, target, contested in claims
        if notice == target or not (contested or (target, notice) in pairs) or reads_as_notice[notice]
    }
    notices_of_others = {notice for notice, target in kept if notice != target}
    return {
        doi: () if doi in notices_of_others else tuple(sorted(notice for notice, target in kept if target == doi))
        for doi in wanted
    }


def _retraction_dois(updates: Iterable[Mapping[str, Any]] | None) -> set[str]:
    """Canonical DOIs of the `update-to` / `updated-by` entries of type retraction."""
    return {canonical_doi(update.get("DOI")) for update in updates or [] if update.get("type") == RETRACTION} - {None}


class CrossrefClient:
    """Ask Crossref which works retract the given DOIs.

    Args:
        mailto: contact e-mail (Crossref's "polite pool": `mailto` query parameter).
        base_url: API root; a compatible server or a fake can stand in.
        timeout: seconds per read of a response.
        deadline: total seconds one request may take, body included (`deadlines.call_with_deadline`); a slower
            answer is a timeout, retried like one.
        retry: how transient failures are retried (`retries.RetryPolicy`).
        transport: an httpx transport (tests pass respx's or a MockTransport).

    Use it as a context manager (or call `close`) so its connection pool is released.
    """

    def __init__(
        self,
        *,
        mailto: str | None = None,
        base_url: str = DEFAULT_BASE_URL,
        timeout: float = 30.0,
        deadline: float = DEFAULT_DEADLINE_SECONDS,
        retry: RetryPolicy = RetryPolicy(),
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.client = httpx.Client(base_url=base_url, timeout=timeout, transport=transport)
        self.deadline = deadline
        self.mailto = mailto
        self._retrying = retry.retrying(_is_transient)

    def __enter__(self) -> CrossrefClient:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def close(self) -> None:
        """Release the HTTP connections."""
        self.client.close()

    def check(self, dois: Iterable[str]) -> CheckReport:
        """One RetractionCheck per DOI of `dois` (canonical; duplicates checked once)."""
        report = CheckReport()
        unique = list(dict.fromkeys(dois))
        writable = [doi for doi in unique if "," not in doi]
        report.results += [
            RetractionCheck(doi, ERROR, error="a DOI with ',' cannot be written in a Crossref filter") for doi in unique if "," in doi
        ]
        for start in range(0, len(writable), DOIS_PER_REQUEST):
            batch = writable[start:start + DOIS_PER_REQUEST]
            try:
                items = self._retrying(lambda: self._notices(batch, report))
            except (httpx.HTTPError, ValueError) as error:
                report.results += [RetractionCheck(doi, ERROR, error=_describe(error)) for doi in batch]
                continue
            report.results += [RetractionCheck(doi, CHECKED, notices) for doi, notices in retraction_notices(items, batch).items()]
        return report

    def _notices(self, batch: list[str], report: CheckReport) -> list[dict[str, Any]]:
        report.requests += 1
        params = {"filter": ",".join(f"updates:{doi}" for doi in batch), "rows": ROWS}
        if self.mailto:
            params["mailto"] = self.mailto
        try:
            response = call_with_deadline(lambda: self.client.get("/works", params=params), seconds=self.deadline, what="GET Crossref /works")
        except DeadlineExceeded as error:
            raise httpx.ReadTimeout(str(error)) from None
        response.raise_for_status()
        body = response.json()
        message = body.get("message") if isinstance(body, dict) else None
        if not isinstance(message, dict):
            raise ValueError("Crossref answered without a 'message' object")
        if message.get("total-results", 0) > len(message.get("items", [])):
            raise ValueError(f"more than {ROWS} notices for {len(batch)} DOIs: fewer DOIs per request needed")
        return message.get("items", [])


def cache_rows(results: Iterable[RetractionCheck], *, checked_at: datetime) -> pd.DataFrame:
    """crossref_cache rows (doi, notice_dois, checked_at) of the `checked` results; errors are not cached."""
    rows = [(check.doi, list(check.notice_dois), checked_at) for check in results if check.status == CHECKED]
    return pd.DataFrame(rows, columns=["doi", "notice_dois", "checked_at"])


def retraction_rows(requested: pd.DataFrame, cache: pd.DataFrame, errors: Mapping[str, str]) -> pd.DataFrame:
    """One crossref_retractions row per requested (research_area, doi): `checked` with the notices and
    checked_at of its last successful check when the cache holds the DOI, else `error` with this run's
    error text (no notices, checked_at NULL): never checked is not "not retracted".

    Args:
        requested: columns research_area, doi (canonical).
        cache: crossref_cache rows (doi, notice_dois, checked_at).
        errors: {doi: error text} of this run, for DOIs the cache does not hold.

    Returns:
        DataFrame with the columns of `RETRACTION_COLUMNS`, in `requested` order.
    """
    by_doi = {row.doi: row for row in cache.itertuples(index=False)}
    rows = []
    for area, doi in zip(requested["research_area"], requested["doi"]):
        cached = by_doi.get(doi)
        if cached is None:
            rows.append((area, doi, ERROR, [], errors.get(doi, "not checked"), None))
        else:
            rows.append((area, doi, CHECKED, list(cached.notice_dois), None, cached.checked_at))
    frame = pd.DataFrame(rows, columns=list(RETRACTION_COLUMNS))
    return frame.assign(checked_at=pd.to_datetime(frame["checked_at"], utc=True))


def _is_transient(error: BaseException) -> bool:
    if isinstance(error, httpx.TransportError):
        return True
    return isinstance(error, httpx.HTTPStatusError) and (error.response.status_code == 429 or error.response.status_code >= 500)


def _describe(error: BaseException) -> str:
    """The error text of an `error` row, with any credential removed (`credentials.redact`)."""
    if isinstance(error, httpx.HTTPStatusError):
        return f"HTTP {error.response.status_code} {error.response.reason_phrase} from Crossref /works"
    return redact(f"{type(error).__name__}: {error}")
