"""Crossref, through httpx: the update notices that point at a DOI (`/works?filter=updates:{doi}`), and the
Crossref records of DOIs with their `relation` (`/works?filter=doi:{doi}`).

An update notice is a Crossref work whose `update-to` lists {"DOI": <the updated DOI>, "type": <update type>,
"updated": <date>} (Crossref REST API, "works" filters: `updates:{doi}` returns the works that update `doi`).
Every notice of the answer is kept with its type and year (`update_notices`): a retraction notice (type
retraction) is the retraction rule's; a correction, corrigendum, erratum or addendum is read as a correction by
`judgement.disputes` (one request serves both). OpenAlex misses some retractions that Crossref records this way,
so both are asked.

A notice is not itself a retracted finding. Publishers sometimes deposit the pairing in both directions
(the Lancet notice 10.1016/s0140-6736(20)31324-6 and the paper 10.1016/s0140-6736(20)31180-6 each say they
retract the other): `retraction_notices` reads such a pair in the direction of the work titled as a notice,
and a DOI that is the notice of another checked DOI gets no notices. The score also never counts a work
OpenAlex shows to be a notice as retracted (`reliability.scoring.retraction`).

A record (`CrossrefClient.records`) is the work's DOI, type, title, year and `relation` object (`select` of those
fields only), e.g. {"has-comment": [{"id-type": "doi", "id": "10.5194/cp-2020-95-AC1", "asserted-by": "subject"}]};
`crossref_relations` reads the relations that can record a dispute.

Several DOIs go in one request (`filter=updates:A,updates:B`, `filter=doi:A,doi:B`: Crossref ORs repeated
filters, REST API documentation "Filters"); a DOI with a ',' cannot be written in that syntax and gets an `error`
result saying so.

Only successful answers are kept (`cache_rows`: crossref_cache; `record_cache_rows`: crossref_record_cache): an
offline run or a Crossref error never replaces what an earlier check found (recon_assets/enrichment/sql/crossref_retraction_rows.sql).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import json

import httpx
import pandas as pd

from recon_assets.enrichment.openalex_records import is_retraction_notice
from recon_assets.enrichment.retries import RetryPolicy, transient_status
from recon_assets.kg.doi import canonical_doi
from recon_assets.shared.credentials import redact
from recon_assets.shared.deadlines import DeadlineExceeded, call_with_deadline

DEFAULT_BASE_URL = "https://api.crossref.org"
# Total seconds one request may take, body included: an answer for 50 DOIs is a few kB, so only a stalled or
# dripping server reaches it.
DEFAULT_DEADLINE_SECONDS = 120.0
CHECKED, ERROR = "checked", "error"
OFFLINE = "offline: Crossref not checked"
# DOIs per request, and notices per page: 50 DOIs have far fewer than 1,000 notices (Crossref's page limit).
DOIS_PER_REQUEST = 50
ROWS = 1_000
RETRACTION = "retraction"
FOUND, NOT_FOUND = "found", "not_found"
# Fields asked for (`select`; every one is in the REST API's list of selectable work fields): what the notice rules
# read, and what a record of a related work needs (its type, title, year and relations).
UPDATES_SELECT = "DOI,type,title,update-to,updated-by,published,issued"
RECORD_SELECT = "DOI,type,title,relation,published,issued"


@dataclass(frozen=True)
class UpdateNotice:
    """A Crossref work that updates a DOI: its DOI, the update type as Crossref spells it ('correction',
    'erratum', 'retraction', ...), its year (`notice_year`, None when Crossref gives no date) and title."""

    notice_doi: str
    update_type: str
    year: int | None
    title: str | None = None


@dataclass(frozen=True)
class RetractionCheck:
    """One DOI: status checked / error; `notice_dois` the retraction notices pointing at it (the retraction rule);
    `updates` every update notice pointing at it, retractions included (`update_notices`); `error` text."""

    doi: str
    status: str
    notice_dois: tuple[str, ...] = ()
    error: str | None = None
    updates: tuple[UpdateNotice, ...] = ()


@dataclass
class CheckReport:
    results: list[RetractionCheck] = field(default_factory=list)
    requests: int = 0


@dataclass(frozen=True)
class RecordCheck:
    """One DOI's Crossref record: status found (`record`: DOI, type, title, year, relation), not_found (Crossref
    answered without it) or error (`error` says why)."""

    doi: str
    status: str
    record: dict[str, Any] | None = None
    error: str | None = None


@dataclass
class RecordReport:
    results: list[RecordCheck] = field(default_factory=list)
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


def update_notices(items: Iterable[Mapping[str, Any]], dois: Iterable[str]) -> dict[str, tuple[UpdateNotice, ...]]:
    """For each DOI of `dois`, every `update-to` entry of the Crossref works in `items` that names it, whatever
    its type: one UpdateNotice per (notice, type), a record updated in place (its `update-to` names itself) included.

    Returns:
        {doi: notices sorted by (year, notice DOI, type)} for every DOI of `dois` (empty tuple when none).
    """
    found: dict[str, set[UpdateNotice]] = {doi: set() for doi in dois}
    for item in items:
        notice = canonical_doi(item.get("DOI"))
        if notice is None:
            continue
        title = _first(item.get("title"))
        for update in item.get("update-to") or []:
            target = canonical_doi(update.get("DOI"))
            if target in found and isinstance(update.get("type"), str):
                found[target].add(UpdateNotice(notice, update["type"], notice_year(item, update), title))
    return {
        doi: tuple(sorted(notices, key=lambda n: (n.year is None, n.year or 0, n.notice_doi, n.update_type)))
        for doi, notices in found.items()
    }


def notice_year(item: Mapping[str, Any], update: Mapping[str, Any]) -> int | None:
    """The year an update took effect: the later of the update's own date (`update-to[].updated`, "date on which
    the update was published", Crossref REST API format) and the notice's publication year (`work_year`), so that
    a past as_of never sees a notice early; a record corrected in place is dated by the update, not by its own
    publication. None when Crossref gives neither."""
    years = [year for year in (_date_year(update.get("updated")), work_year(item)) if year is not None]
    return max(years) if years else None


def work_year(item: Mapping[str, Any]) -> int | None:
    """A Crossref work's publication year: `published` (the earliest of print and online publication), else
    `issued`; None when neither holds a year (Crossref writes an unknown date as [[null]])."""
    for name in ("published", "issued"):
        year = _date_year(item.get(name))
        if year is not None:
            return year
    return None


def _date_year(date: object) -> int | None:
    """The year of a Crossref partial date {"date-parts": [[year, month, day]]}, or None."""
    parts = date.get("date-parts") if isinstance(date, Mapping) else None
    year = parts[0][0] if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0] else None
    return year if isinstance(year, int) and not isinstance(year, bool) else None


def _first(values: object) -> str | None:
    """The first string of a Crossref list field (`title`), or None."""
    return values[0] if isinstance(values, list) and values and isinstance(values[0], str) else None


def crossref_record(item: Mapping[str, Any]) -> dict[str, Any]:
    """The part of a Crossref work kept as its record: DOI (canonical), type, title (the first), year
    (`work_year`) and relation (the `relation` object as given, {} when absent)."""
    relation = item.get("relation")
    return {
        "DOI": canonical_doi(item.get("DOI")), "type": item.get("type"), "title": _first(item.get("title")),
        "year": work_year(item), "relation": relation if isinstance(relation, dict) else {},
    }


class CrossrefClient:
    """Ask Crossref which works update the given DOIs (`check`), and for the records of DOIs (`records`).

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
        """One RetractionCheck per DOI of `dois` (canonical; duplicates checked once), DOIS_PER_REQUEST a request."""
        report = CheckReport()
        writable, unwritable = _writable(dois)
        report.results += [RetractionCheck(doi, ERROR, error=UNWRITABLE) for doi in unwritable]
        for start in range(0, len(writable), DOIS_PER_REQUEST):
            batch = writable[start:start + DOIS_PER_REQUEST]
            try:
                items = self._retrying(lambda: self._works("updates", batch, UPDATES_SELECT, report))
            except (httpx.HTTPError, ValueError) as error:
                report.results += [RetractionCheck(doi, ERROR, error=_describe(error)) for doi in batch]
                continue
            notices, updates = retraction_notices(items, batch), update_notices(items, batch)
            report.results += [RetractionCheck(doi, CHECKED, notices[doi], updates=updates[doi]) for doi in batch]
        return report

    def records(self, dois: Iterable[str]) -> RecordReport:
        """One RecordCheck per DOI of `dois` (canonical; duplicates asked once), DOIS_PER_REQUEST a request
        (`/works?filter=doi:A,doi:B&select=RECORD_SELECT`); answers are joined back by canonical DOI."""
        report = RecordReport()
        writable, unwritable = _writable(dois)
        report.results += [RecordCheck(doi, ERROR, error=UNWRITABLE) for doi in unwritable]
        for start in range(0, len(writable), DOIS_PER_REQUEST):
            batch = writable[start:start + DOIS_PER_REQUEST]
            try:
                items = self._retrying(lambda: self._works("doi", batch, RECORD_SELECT, report))
            except (httpx.HTTPError, ValueError) as error:
                report.results += [RecordCheck(doi, ERROR, error=_describe(error)) for doi in batch]
                continue
            found = {record["DOI"]: record for record in map(crossref_record, items)}
            report.results += [
                RecordCheck(doi, FOUND, found[doi]) if doi in found else RecordCheck(doi, NOT_FOUND) for doi in batch
            ]
        return report

    def _works(self, name: str, batch: list[str], select: str, report: CheckReport | RecordReport) -> list[dict[str, Any]]:
        """The items of `/works?filter=<name>:A,<name>:B,...` for the DOIs of `batch`, one page."""
        report.requests += 1
        params = {"filter": ",".join(f"{name}:{doi}" for doi in batch), "select": select, "rows": ROWS}
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
            noun = "notices" if name == "updates" else "works"
            raise ValueError(f"more than {ROWS} {noun} for {len(batch)} DOIs: fewer DOIs per request needed")
        return message.get("items", [])


UNWRITABLE = "a DOI with ',' cannot be written in a Crossref filter"


def _writable(dois: Iterable[str]) -> tuple[list[str], list[str]]:
    """(DOIs that can be written in a filter, DOIs holding ','), each once, in order."""
    unique = list(dict.fromkeys(dois))
    return [doi for doi in unique if "," not in doi], [doi for doi in unique if "," in doi]


def cache_rows(results: Iterable[RetractionCheck], *, checked_at: datetime) -> pd.DataFrame:
    """crossref_cache rows (doi, notice_dois, checked_at, updates) of the `checked` results; errors are not
    cached. `updates` is JSON: [{notice_doi, update_type, year, title}, ...] (`update_notices`)."""
    rows = [
        (check.doi, list(check.notice_dois), checked_at, json.dumps([vars(notice) for notice in check.updates]))
        for check in results if check.status == CHECKED
    ]
    return pd.DataFrame(rows, columns=["doi", "notice_dois", "checked_at", "updates"])


def record_cache_rows(results: Iterable[RecordCheck], *, checked_at: datetime) -> pd.DataFrame:
    """crossref_record_cache rows (doi, status, record as JSON, checked_at) of the found and not_found results;
    errors are not cached, so an offline run or a failure never replaces an earlier answer."""
    rows = [
        (check.doi, check.status, json.dumps(check.record) if check.record is not None else None, checked_at)
        for check in results if check.status != ERROR
    ]
    return pd.DataFrame(rows, columns=["doi", "status", "record", "checked_at"])


def _is_transient(error: BaseException) -> bool:
    if isinstance(error, httpx.TransportError):
        return True
    return isinstance(error, httpx.HTTPStatusError) and transient_status(error.response.status_code)


def _describe(error: BaseException) -> str:
    """The error text of an `error` row, with any credential removed (`credentials.redact`)."""
    if isinstance(error, httpx.HTTPStatusError):
        return f"HTTP {error.response.status_code} {error.response.reason_phrase} from Crossref /works"
    return redact(f"{type(error).__name__}: {error}")
