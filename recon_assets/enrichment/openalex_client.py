"""Fetch OpenAlex works for canonical DOIs with pyalex: batched, retried, resumable, and honest about failures.

Every requested DOI ends as exactly one `WorkResult`: `found` (with the work), `not_found` (the batch did
not return it and its single lookup `/works/doi:<doi>` answered 404), `mismatch` (the single lookup answered with a
work carrying another DOI, or none: the error text names it) or `error` (with the error text; a returned record that
fails its schema, `openalex_records.invalid_reason`, is one), except DOIs left unfetched when the daily budget is
spent (`FetchReport.unfetched`). Only found and not_found results are cached (`cache_rows`).

- Batches and singles come from `openalex_batches.plan_requests`. OpenAlex matches DOIs in lower case;
  results are joined back to the request by canonical DOI.
- 429 with a short `Retry-After` (at most `max_retry_after` seconds): wait that long and retry. Any other
  429 means the daily budget is spent (`budget_spent`): stop at once and report it with the time to the
  reset, `X-RateLimit-Reset` seconds (midnight UTC) or else `Retry-After` (OpenAlex API reference,
  "Authentication & Pricing" and "Error Handling": 429 = daily limit exceeded, rate-limit headers on every
  response).
- 5xx, timeouts and connection errors: `retries` more attempts with exponential backoff
  (`backoff` * 2^n seconds, or a `Retry-After` cut to `max_retry_after`; `retries.RetryPolicy`), then an
  `error` result.
- Every list or filter request is charged to the client's `ListCallBudget` when it has one (a single lookup is
  free; `citing_plan` gives the prices): running out stops the fetch as a spent daily budget does.
- `citing_works` fetches the works one `citing_plan.CitingQuery` selects (the works citing a group of works).
- `stale_dois` is the cache rule: only DOIs never fetched or fetched longer than the TTL ago are requested.

pyalex 0.21 builds every URL with the host `api.openalex.org` whatever `pyalex.config.openalex_url` says, and
sends it through a new session without a timeout. `Works` below is pyalex's own `Works` routed through an
`OpenAlexSession`, which moves each URL onto the configured base URL and applies the timeout; everything
else (query building, value encoding, auth headers, response parsing) stays pyalex's.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pandas as pd
import pyalex
import requests

from recon_assets.enrichment.citing_plan import LIST_CALL, SEARCH_CALLS, CitingQuery
from recon_assets.enrichment.openalex_batches import MAX_FILTER_VALUES, plan_requests
from recon_assets.enrichment.openalex_records import CITING_FIELDS, SELECT_FIELDS, cached_fields, composed_seen_at, invalid_reason
from recon_assets.enrichment.retries import RetryPolicy, header_number, header_seconds, transient_status
from recon_assets.kg.doi import canonical_doi
from recon_assets.shared.credentials import redact, redacted_causes, remember_secret
from recon_assets.shared.deadlines import DeadlineExceeded, call_with_deadline

DEFAULT_BASE_URL = "https://api.openalex.org"
# Total seconds one request may take, body included (the per-read timeout is 30 s): a batch answer of 100 works with
# the `select`ed fields is about 0.3 MB, read in under a second on a working connection, so 120 s is only ever
# reached by a stalled or dripping server.
DEFAULT_DEADLINE_SECONDS = 120.0
FOUND, NOT_FOUND, MISMATCH, ERROR = "found", "not_found", "mismatch", "error"
STATUSES = (FOUND, NOT_FOUND, MISMATCH, ERROR)
# The error text of a DOI an offline run cannot know about: absent from the recording is not "not found".
OFFLINE_MISSING = "offline: not in the recorded cache"


@dataclass(frozen=True)
class WorkResult:
    """One requested DOI: status found / not_found / mismatch / error, the work (found) or the error text (mismatch,
    error), and when the work was seen when that is not the report's `fetched_at` (a record composed from a public
    page: the day its count was seen, `openalex_records.composed_seen_at`)."""

    doi: str
    status: str
    work: dict[str, Any] | None = None
    error: str | None = None
    fetched_at: datetime | None = None


@dataclass
class FetchReport:
    """What a fetch did: one result per attempted DOI, HTTP requests sent, why it stopped early if it did,
    and when the records were fetched (None: now; a recording says when it was made)."""

    results: list[WorkResult] = field(default_factory=list)
    requests: int = 0
    budget_spent: str | None = None
    unfetched: list[str] = field(default_factory=list)
    fetched_at: datetime | None = None
    reset_seconds: float | None = None


class BudgetSpent(Exception):
    """OpenAlex answered 429 because the daily budget is spent; retrying before the reset is pointless.
    `reset_seconds`: seconds until the budget resets, None when OpenAlex did not say."""

    def __init__(self, message: str, reset_seconds: float | None) -> None:
        super().__init__(message)
        self.reset_seconds = reset_seconds


# Pages one citing-works query may take: the plan expects one (a group's counts fit a page); ten hold 2,000 works.
MAX_PAGES_PER_QUERY = 10


class PagingRunaway(Exception):
    """A cursor-paged query did not end: a cursor came back twice, or it ran past MAX_PAGES_PER_QUERY pages."""


class ListCallBudget:
    """The OpenAlex list calls a run may spend (`citing_plan` says what a call costs): `allowed` calls, and `why`
    that many (which limit set it), said when the budget runs out.

    Raises:
        ValueError: `allowed` < 0.
    """

    def __init__(self, allowed: int, why: str) -> None:
        if allowed < 0:
            raise ValueError(f"allowed must be >= 0, got {allowed}")
        self.allowed, self.why, self.spent = allowed, why, 0

    def charge(self, list_calls: int) -> None:
        """Count `list_calls` as spent.

        Raises:
            BudgetSpent: they would take the spending past `allowed` (nothing is charged then).
        """
        if self.spent + list_calls > self.allowed:
            raise BudgetSpent(f"OpenAlex allowance spent: {self.spent:,} of {self.allowed:,} list calls used ({self.why})", None)
        self.spent += list_calls


class RequestDeadlineExceeded(requests.Timeout):
    """A request did not finish within its total deadline (`deadlines.call_with_deadline`); retried like a timeout."""


class OpenAlexSession(requests.Session):
    """A requests session for pyalex that sends every request to `base_url` with a per-read `timeout` and a total
    `deadline` (seconds), both bounding the request: a server dripping bytes never trips the first."""

    def __init__(self, base_url: str, timeout: float, deadline: float = DEFAULT_DEADLINE_SECONDS) -> None:
        super().__init__()
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.deadline = deadline

    def rebase(self, url: str) -> str:
        """`url` with its scheme and host (and any path prefix) taken from `base_url`; path and query kept as encoded."""
        base, parts = urlsplit(self.base_url), urlsplit(url)
        return urlunsplit((base.scheme, base.netloc, base.path + parts.path, parts.query, parts.fragment))

    def request(self, method: str, url: str, *args, **kwargs) -> requests.Response:
        """The request, body read, within `deadline` seconds.

        Raises:
            RequestDeadlineExceeded: it took longer (a `requests.Timeout`, so it is retried like one).
        """
        kwargs.setdefault("timeout", self.timeout)
        target = self.rebase(url)
        try:
            return call_with_deadline(
                lambda: super(OpenAlexSession, self).request(method, target, *args, **kwargs),
                seconds=self.deadline, what=f"{method} {urlsplit(target).path}",
            )
        except DeadlineExceeded as error:
            raise RequestDeadlineExceeded(str(error)) from None


class Works(pyalex.Works):
    """pyalex's `Works`, sending its requests through `session`. The class keeps pyalex's name because pyalex
    builds the API path from it (`/works`)."""

    def __init__(self, session: OpenAlexSession) -> None:
        super().__init__()
        self.session = session

    def _get_from_url(self, url, session=None):
        # pyalex's single entry point for every request (get, [id], paginate); the one place to pass our session.
        return super()._get_from_url(url, self.session)


class OpenAlexClient:
    """Fetch OpenAlex works by DOI (see module docstring).

    Args:
        api_key: OpenAlex API key, sent by pyalex as a bearer token (never in a URL, never logged here).
        mailto: contact e-mail, sent in the From header.
        base_url: API root; a compatible server or a local fake can stand in.
        timeout: seconds to wait for each read of a response.
        deadline: total seconds one request may take, body included (`OpenAlexSession`).
        retry: further attempts after a 5xx, timeout, connection error or short 429 (`retries.RetryPolicy`); a
            `Retry-After` longer than its `max_retry_after` means the daily budget is spent.
        budget: the list calls this client may spend (None: no limit of its own); every attempt is charged.
    """

    def __init__(
        self,
        *,
        api_key: str | None,
        mailto: str | None = None,
        base_url: str = DEFAULT_BASE_URL,
        timeout: float = 30.0,
        deadline: float = DEFAULT_DEADLINE_SECONDS,
        retry: RetryPolicy = RetryPolicy(),
        budget: ListCallBudget | None = None,
    ) -> None:
        # pyalex reads identification from its module config (OpenAlexAuth). Its retry settings (max_retries, ...)
        # only shape the sessions it builds itself, and every request goes through our session instead.
        pyalex.config.api_key = api_key
        remember_secret(api_key)  # redacted from every error text, whichever variable it came from
        pyalex.config.email = mailto
        self.session = OpenAlexSession(base_url, timeout, deadline)
        self.max_retry_after = retry.max_retry_after
        self._retrying = retry.retrying(_is_transient)
        self._requests = 0
        self.requests_sent = 0  # every HTTP attempt of the client's life (fetch's report counts its own)
        self.works_beyond_page = 0
        self.budget = budget

    def fetch(self, dois: Iterable[str]) -> FetchReport:
        """One result per DOI of `dois` (canonical, deduplicated), or a report of where the budget ran out."""
        plan = plan_requests(dois, fixed_url_chars=self._fixed_url_chars())
        report = FetchReport()
        self._requests = 0
        batches, singles = list(plan.batches), list(plan.singles)
        try:
            while batches:
                batch = batches[0]
                try:
                    found = self._batch(batch)
                except BudgetSpent:
                    raise
                except Exception as error:  # the batch's DOIs each get the error; the run goes on
                    report.results += [WorkResult(doi, ERROR, error=describe(error)) for doi in batch]
                else:
                    report.results += [checked_result(doi, found[doi]) for doi in batch if doi in found]
                    singles += [doi for doi in batch if doi not in found]
                batches.pop(0)
            while singles:
                report.results.append(self._single(singles[0]))
                singles.pop(0)
        except BudgetSpent as spent:
            report.budget_spent, report.reset_seconds = str(spent), spent.reset_seconds
            report.unfetched = [doi for batch in batches for doi in batch] + singles
        report.requests = self._requests
        return report

    def citing_works(self, query: CitingQuery) -> list[dict[str, Any]]:
        """The works one `CitingQuery` selects (filter `cites:W1|W2`, "Filter works"; `title.search` when it has one),
        its `sort`, `CITING_FIELDS` only: the first page, or every page by cursor paging ("Paging": `cursor=*`, then
        `meta.next_cursor` until it is null or a page is empty).

        Raises:
            BudgetSpent: OpenAlex's daily budget, or this client's `ListCallBudget`, is spent (the pages fetched
                before are lost to the caller: a query is kept whole or not at all).
            PagingRunaway: the paging did not end (a repeated cursor, or MAX_PAGES_PER_QUERY pages).
            requests.RequestException: a request failed after the retries.
        """
        built = Works(self.session).filter_or(cites=list(query.cited_ids))
        if query.title_search:
            built = built.filter(title={"search": query.title_search})
        built = built.select(list(CITING_FIELDS)).sort(**{query.sort[0]: query.sort[1]})
        works: list[dict[str, Any]] = []
        cursor: str | None = "*"
        seen: set[str] = set()
        while cursor:
            if cursor in seen or len(seen) >= MAX_PAGES_PER_QUERY:
                why = "a cursor came back twice" if cursor in seen else f"more than {MAX_PAGES_PER_QUERY} pages"
                raise PagingRunaway(f"OpenAlex's paging did not end ({why}) after {len(works):,} works")
            seen.add(cursor)
            page = self._call(
                lambda: built.get(per_page=query.per_page, cursor=cursor if query.all_pages else None),
                list_calls=query.list_calls_per_page,
            )
            # a page holding more than was asked is cut to its size (a faulty server must not flood the cache)
            self.works_beyond_page += max(0, len(page) - query.per_page)
            works += [dict(work) for work in list(page)[: query.per_page]]
            cursor = page.meta.get("next_cursor") if query.all_pages and len(page) else None
        return works

    def search_works(self, text: str, fields: Sequence[str], per_page: int) -> tuple[list[dict[str, Any]], int | None]:
        """One page of at most `per_page` works matching `text` by OpenAlex's full-text search (`Works().search`,
        `fields` selected), and OpenAlex's count of every match (`meta.count`; None when the answer has none); charged
        `citing_plan.SEARCH_CALLS` list calls per attempt, retried as every request of this client.

        Raises:
            BudgetSpent: the run's or the day's budget is spent, or OpenAlex says so.
            requests.RequestException: the request still fails after the retries.
        """
        page = self._call(
            lambda: Works(self.session).search(text).select(list(fields)).get(per_page=per_page), list_calls=SEARCH_CALLS
        )
        meta = getattr(page, "meta", None)
        count = meta.get("count") if isinstance(meta, dict) else None
        return [dict(work) for work in list(page)[:per_page]], count if isinstance(count, int) else None

    def works_by_ids(self, ids: Sequence[str], fields: Sequence[str]) -> list[dict[str, Any]]:
        """The works of OpenAlex ids `ids` (W..., at most `MAX_FILTER_VALUES`) with `fields`, in one OR-filter request
        charged one list call per attempt.

        Raises:
            ValueError: more than MAX_FILTER_VALUES ids.
            BudgetSpent: the run's or the day's budget is spent, or OpenAlex says so.
            requests.RequestException: the request still fails after the retries.
        """
        if len(ids) > MAX_FILTER_VALUES:
            raise ValueError(f"at most {MAX_FILTER_VALUES} OpenAlex ids a request, got {len(ids)}")
        query = Works(self.session).filter_or(openalex=list(ids)).select(list(fields))
        return [dict(work) for work in self._call(lambda: query.get(per_page=MAX_FILTER_VALUES), list_calls=LIST_CALL)]

    def _batch(self, dois: list[str]) -> dict[str, dict[str, Any]]:
        """Works of one OR-filter request, by canonical DOI (the first one when OpenAlex has two with a DOI)."""
        query = Works(self.session).filter_or(doi=dois).select(list(SELECT_FIELDS))
        wanted = set(dois)
        found: dict[str, dict[str, Any]] = {}
        for work in self._call(lambda: query.get(per_page=MAX_FILTER_VALUES), list_calls=LIST_CALL):
            key = canonical_doi(work.get("doi"))
            if key in wanted and key not in found:
                found[key] = dict(work)
        return found

    def _single(self, doi: str) -> WorkResult:
        try:
            work = self._call(lambda: Works(self.session)[f"doi:{doi}"])
        except BudgetSpent:
            raise
        except requests.HTTPError as error:
            if error.response is not None and error.response.status_code == 404:
                return WorkResult(doi, NOT_FOUND)
            return WorkResult(doi, ERROR, error=describe(error))
        except Exception as error:
            return WorkResult(doi, ERROR, error=describe(error))
        return checked_result(doi, work)

    @redacted_causes()
    def _call(self, request: Callable[[], Any], *, list_calls: int = 0) -> Any:
        """`request()` with retries, each attempt charged `list_calls` to the budget (a single work is free); a 429
        for a spent budget becomes BudgetSpent and stops retrying, its cause a redacted copy of requests' error, whose
        text quotes the URL and the server's reason phrase: a server may echo the key into either
        (`credentials.redacted_causes`)."""

        def attempt():
            if self.budget is not None:
                self.budget.charge(list_calls)
            self._requests += 1
            self.requests_sent += 1
            try:
                return request()
            except requests.HTTPError as error:
                if budget_spent(error.response, self.max_retry_after):
                    raise BudgetSpent(_budget_message(error.response), reset_seconds(error.response)) from error
                raise

        return self._retrying(attempt)

    def _fixed_url_chars(self) -> int:
        """Length of a batch URL without its DOI values (built by pyalex, as `_batch` sends it)."""
        probe = Works(self.session).filter_or(doi=["x"]).select(list(SELECT_FIELDS))
        return len(self.session.rebase(probe.url)) - len("x") + len(f"&per-page={MAX_FILTER_VALUES}")


def checked_result(doi: str, work: object) -> WorkResult:
    """The result of an OpenAlex answer `work` to the canonical DOI `doi`: `found` only when the work carries that DOI
    (in any spelling `kg.doi.canonical_doi` reads: case, resolver prefix, percent-encoding) and meets its schema
    (`openalex_records.OpenAlexWork`); `mismatch` when its DOI is another, or missing, naming what came back; else
    `error` with the schema's reason."""
    returned = canonical_doi(work.get("doi")) if isinstance(work, Mapping) else None
    if returned is not None and returned != doi:
        return WorkResult(doi, MISMATCH, error=_mismatch(doi, work, returned))
    problem = invalid_reason(work)
    if problem:
        return WorkResult(doi, ERROR, error=problem)
    if returned is None:
        return WorkResult(doi, MISMATCH, error=_mismatch(doi, work, None))
    return WorkResult(doi, FOUND, work=dict(work))


def _mismatch(doi: str, work: Mapping[str, Any], returned: str | None) -> str:
    work_id = work.get("id")
    named = short_work_id(work_id)[:40] if isinstance(work_id, str) else "a work without an id"
    return f"OpenAlex answered doi:{doi} with {named}, whose DOI is {returned or 'missing'}"


def short_work_id(work_id: str) -> str:
    """'W123' of an OpenAlex work id, 'https://openalex.org/W123' or already 'W123'."""
    return work_id.rsplit("/", 1)[-1]


def stale_dois(requested: Iterable[str], fetched_at: Mapping[str, datetime], *, now: datetime, ttl: timedelta) -> list[str]:
    """The DOIs of `requested` never fetched, or fetched more than `ttl` before `now` (first-seen order, no repeats)."""
    return [doi for doi in dict.fromkeys(requested) if doi not in fetched_at or now - fetched_at[doi] > ttl]


def budget_spent(response: requests.Response | None, max_retry_after: float) -> bool:
    """True when `response` is a 429 for a spent daily budget rather than a short rate limit: fewer credits
    remaining than the request needs (`X-RateLimit-Remaining` below `X-RateLimit-Credits-Required`, or 0 or less), or
    no `Retry-After`, or one beyond `max_retry_after` seconds (the reset is hours away)."""
    if response is None or response.status_code != 429:
        return False
    remaining = header_number(response, "X-RateLimit-Remaining")
    required = header_number(response, "X-RateLimit-Credits-Required")
    retry_after = header_number(response, "Retry-After")
    return (
        (remaining is not None and remaining <= 0)
        or (remaining is not None and required is not None and remaining < required)
        or retry_after is None
        or retry_after > max_retry_after
    )


def reset_seconds(response: requests.Response) -> float | None:
    """Seconds until the daily budget resets: `X-RateLimit-Reset` (OpenAlex sends the seconds to midnight
    UTC), else `Retry-After`; None when neither is a number of seconds (>= 0)."""
    reset = header_seconds(response, "X-RateLimit-Reset")
    return reset if reset is not None else header_seconds(response, "Retry-After")


def _budget_message(response: requests.Response) -> str:
    seconds = reset_seconds(response)
    reset = f"resets in about {seconds / 3600:.1f} h" if seconds is not None else "reset time not given"
    remaining = response.headers.get("X-RateLimit-Remaining", "?")
    required = response.headers.get("X-RateLimit-Credits-Required")
    credits = f"X-RateLimit-Remaining {remaining}" + (f", {required} required per request" if required else "")
    return f"OpenAlex daily budget spent (HTTP 429, {credits}; {reset})"


def _is_transient(error: BaseException) -> bool:
    """Worth retrying: timeouts, connection errors, 5xx and rate-limit 429s (a spent budget is BudgetSpent)."""
    if isinstance(error, (requests.Timeout, requests.ConnectionError)):
        return True
    if isinstance(error, requests.HTTPError) and error.response is not None:
        return transient_status(error.response.status_code)
    return False


def describe(error: BaseException) -> str:
    """Error text for an `error` row or a note: the HTTP status (with its reason and the URL's path), the host
    that did not answer, or the exception's type and text (for pyalex's QueryError, OpenAlex's own message,
    e.g. an API key refused); never a header, a query string or a credential (`credentials.redact`, whatever
    the library put in its text: requests quotes a refused header value, `Bearer <key>` included)."""
    if isinstance(error, requests.HTTPError) and error.response is not None:
        text = f"HTTP {error.response.status_code} {error.response.reason or ''}".strip() + f" from {urlsplit(error.response.url).path}"
    elif isinstance(error, requests.ConnectionError) and error.request is not None:
        # requests' own text repeats the whole request URL (every DOI of the batch): the host says enough.
        text = f"{type(error).__name__}: no answer from {urlsplit(error.request.url).netloc}"
    else:
        text = f"{type(error).__name__}: {error}"
    return redact(text)


def recorded_report(
    dois: Iterable[str], works: Iterable[Mapping[str, Any]], *, recorded_at: datetime, missing: str = OFFLINE_MISSING
) -> FetchReport:
    """What an offline fetch knows: the recorded works of `dois` (found, once checked like an answer: `checked_result`)
    and an `error` result for every DOI the recording lacks (it is not known to be absent from OpenAlex). No request
    is made.

    Args:
        works: recorded OpenAlex works (each with its `doi`), and records composed from public pages
            (`openalex_records.ComposedWork`), each seen on its own day (`composed_seen_at`, the result's fetched_at).
        recorded_at: when the recording was fetched from OpenAlex (becomes the cache's fetched_at).
        missing: the error text of a DOI the recording lacks.
    """
    by_doi: dict[str, dict[str, Any]] = {}
    for work in works:
        by_doi.setdefault(canonical_doi(work.get("doi")), dict(work))
    results = [
        _seen(checked_result(doi, by_doi[doi])) if doi in by_doi else WorkResult(doi, ERROR, error=missing)
        for doi in dict.fromkeys(dois)
    ]
    return FetchReport(results=results, fetched_at=recorded_at)


def _seen(result: WorkResult) -> WorkResult:
    """A found composed record's result dated by the day its count was seen."""
    return replace(result, fetched_at=composed_seen_at(result.work)) if result.status == FOUND else result


def cache_rows(results: Iterable[WorkResult], *, fetched_at: datetime) -> pd.DataFrame:
    """openalex_cache rows (doi, status, work, fetched_at) of the found and not_found results; errors and mismatches
    are not cached, so they are asked again next time. A work is kept to `openalex_records.cached_fields`; a result
    seen on its own day (`WorkResult.fetched_at`) keeps that day instead of `fetched_at`."""
    rows = [
        (result.doi, result.status, json.dumps(cached_fields(result.work)) if result.work else None, result.fetched_at or fetched_at)
        for result in results
        if result.status in (FOUND, NOT_FOUND)
    ]
    return pd.DataFrame(rows, columns=["doi", "status", "work", "fetched_at"])
