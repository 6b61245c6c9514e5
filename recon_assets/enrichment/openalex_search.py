"""OpenAlex search: the works OpenAlex ranks first for a text (`/works?search=<text>`, "Search works": title, abstract
and full text, relevance order), through pyalex and the project's OpenAlex client, cached in DuckDB and charged to the
one daily OpenAlex budget.

- A query is its text (whitespace collapsed, double quotes dropped so that a question cannot open an unbalanced
  phrase search, cut at a word boundary to MAX_QUERY_CHARS) and its page size; `SearchQuery.key` is the cache key.
- The answer is the first page (`per_page` works, at most 200) with `CITING_FIELDS` selected: title, abstract, year,
  authorships (the citation tag), citation counts by year, referenced works. Each returned work is checked against
  `openalex_records.OpenAlexCitingWork`; one that fails it is counted and left out, never cached.
- Cost: a search page is 10 list calls of the free key's 10,000 a day ("Authentication & Pricing";
  `citing_plan.SEARCH_CALLS`). `search_works` asks `openalex_usage.run_allowance` for what the run may spend (the day's
  budget less every run's spending, at most `run_cap`), charges each attempt to it through the client's
  `ListCallBudget`, and records what it spent in `openalex_usage` under the calling asset, so the other OpenAlex
  assets see it. When the allowance or OpenAlex's own daily budget (a 429) runs out, the queries left are not sent.
- Cache: one row per query, in the asking domain's own table (`SearchCache`: the briefs' `openalex_search_cache`, the
  papers' `paper_search_cache`, whose search texts come from a manuscript); a query answered within `ttl` is read from
  it with no request. A failed or unsent query is not cached; an older cached answer is used then, and says so.
- Offline, or without a key, or when the caller may not send the text (`why_not`: the papers' opt-in), nothing is
  sent: the cache's answers are used when there are any, else the query has none, with the reason.

What was sent is what `openalex_search_cache.query` holds, and each `SearchResult` says where its works came from.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

import duckdb
import pandas as pd

from recon_assets.enrichment.citing_plan import MAX_PAGE_SIZE
from recon_assets.enrichment.openalex_client import BudgetSpent, OpenAlexClient, describe
from recon_assets.enrichment.openalex_records import CITING_FIELDS, OpenAlexCitingWork, invalid_reason
from recon_assets.enrichment.openalex_usage import record_usage, run_allowance
from recon_assets.storage.tables import Tables, create_tables, table_exists, upsert

# Part of the cache key: a change of what is asked (fields, normalisation) makes every query new.
SEARCH_VERSION = "openalex-search-v1"
# Longest query text sent: OpenAlex's search reads words, and a question or a paper's keyword list is far shorter.
MAX_QUERY_CHARS = 300
DEFAULT_PER_PAGE = 25
DEFAULT_TTL = timedelta(days=30)
SEARCHED, CACHED, STALE_CACHE, NOT_SENT, FAILED = "searched", "cached", "stale cache", "not sent", "failed"
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class SearchQuery:
    """One search: its `text` as sent (normalised by `search_query`) and `per_page` works wanted (1-200)."""

    text: str
    per_page: int = DEFAULT_PER_PAGE

    @property
    def key(self) -> str:
        """The cache key: SHA-256 (hex) of SEARCH_VERSION, per_page and text."""
        return hashlib.sha256(f"{SEARCH_VERSION}\n{self.per_page}\n{self.text}".encode()).hexdigest()


def search_query(text: str, per_page: int = DEFAULT_PER_PAGE) -> SearchQuery:
    """The query for `text`: whitespace collapsed, double quotes dropped, cut at the last whole word within
    MAX_QUERY_CHARS characters.

    Raises:
        ValueError: nothing is left of the text, or per_page outside 1-200 (OpenAlex's page sizes).
    """
    if not 1 <= per_page <= MAX_PAGE_SIZE:
        raise ValueError(f"per_page must be 1 to {MAX_PAGE_SIZE}, got {per_page}")
    cleaned = _SPACES.sub(" ", (text or "").replace('"', " ")).strip()
    if len(cleaned) > MAX_QUERY_CHARS:
        cut = cleaned[: MAX_QUERY_CHARS + 1]
        cleaned = cut[: cut.rfind(" ")].strip() if " " in cut else cut[:MAX_QUERY_CHARS]
    if not cleaned:
        raise ValueError("an OpenAlex search needs some text; the query is empty")
    return SearchQuery(cleaned, per_page)


@dataclass(frozen=True)
class SearchResult:
    """The answer to one query: its works (OpenAlex work dicts, CITING_FIELDS, in OpenAlex's order), where they came
    from (`status`: searched now, cached within the TTL, stale cache after a failed or unsent request, not sent,
    failed), why (reason; None when searched or cached), when OpenAlex answered (None without an answer) and the
    returned works left out as invalid."""

    query: SearchQuery
    status: str
    works: tuple[dict[str, Any], ...] = ()
    reason: str | None = None
    fetched_at: datetime | None = None
    invalid: int = 0


@dataclass
class SearchReport:
    """What `search_works` did: one result per query (in order), the HTTP requests sent, the list calls spent and
    allowed, and why sending stopped early (the budget) when it did."""

    results: list[SearchResult] = field(default_factory=list)
    requests: int = 0
    list_calls: int = 0
    list_calls_allowed: int = 0
    budget_spent: str | None = None

    @property
    def sent(self) -> list[str]:
        """The query texts sent to OpenAlex in this run."""
        return [result.query.text for result in self.results if result.status == SEARCHED]

    def counts(self) -> dict[str, int]:
        """{status: queries} of the statuses that occur."""
        found: dict[str, int] = {}
        for result in self.results:
            found[result.status] = found.get(result.status, 0) + 1
        return found


def search_works(
    con: duckdb.DuckDBPyConnection,
    queries: Sequence[SearchQuery],
    *,
    client: OpenAlexClient | None,
    asset: str,
    run_id: str,
    now: datetime,
    daily_list_calls: int,
    run_cap: int | None = None,
    ttl: timedelta = DEFAULT_TTL,
    why_not: str | None = None,
    cache: "SearchCache",
) -> SearchReport:
    """Answer each of `queries` (repeats answered once) from the cache or OpenAlex (module docstring).

    Args:
        con: a DuckDB connection (or the store's `Tables`); openalex_search_cache and openalex_usage are created
            when missing.
        client: the OpenAlex client (`OpenAlexResource.client`), or None when nothing may be requested (offline,
            no key).
        asset: the calling asset, recorded in the budget's ledger and the cache.
        run_id: the Dagster run, for the ledger.
        now: the time of the run (UTC, timezone-aware): the TTL's reference and the ledger's day.
        daily_list_calls: the shared daily budget (`OpenAlexResource.daily_list_calls`).
        run_cap: at most this many list calls for this call (None: the day's budget alone).
        ttl: a cached answer younger than this is used without a request.
        why_not: why the texts may not be sent although a client exists (the papers' opt-in off); None: they may.
        cache: where answers are kept (`SearchCache`: the briefs' `QUESTION_SEARCHES`, the papers' `PAPER_SEARCHES`).

    Returns:
        SearchReport; never raises for OpenAlex's failures (a query's result says `failed` with the error text,
        redacted by `openalex_client.describe`).
    """
    create_tables(con, "openalex_usage")
    unique = list(dict.fromkeys(queries))
    cached = cache.read(con, [query.key for query in unique])
    report = SearchReport()
    budget = run_allowance(con, day=now.date(), daily_list_calls=daily_list_calls, run_cap=run_cap) if client and not why_not else None
    if budget is not None:
        client.budget = budget
        report.list_calls_allowed = budget.allowed
    sent_before = client.requests_sent if client is not None else 0
    fresh_rows = []
    for query in unique:
        row = cached.get(query.key)
        if row is not None and now - row["fetched_at"] <= ttl:
            report.results.append(SearchResult(query, CACHED, row["works"], None, row["fetched_at"], row["invalid"]))
            continue
        if client is None or why_not or report.budget_spent:
            reason = why_not or report.budget_spent or "OpenAlex is offline or has no API key: nothing is sent"
            report.results.append(_without_answer(query, row, NOT_SENT, reason))
            continue
        try:
            works, count = client.search_works(query.text, CITING_FIELDS, query.per_page)
        except BudgetSpent as spent:
            report.budget_spent = f"not sent: {spent}"
            report.results.append(_without_answer(query, row, NOT_SENT, report.budget_spent))
            continue
        except Exception as error:  # the query's result says why; the other queries go on
            report.results.append(_without_answer(query, row, FAILED, describe(error)))
            continue
        # cut to the fields asked for, as cached: a server sending more changes nothing downstream
        valid = tuple({name: work.get(name) for name in CITING_FIELDS} for work in works if invalid_reason(work, OpenAlexCitingWork) is None)
        result = SearchResult(query, SEARCHED, valid, None, now, len(works) - len(valid))
        report.results.append(result)
        fresh_rows.append({
            "query_key": query.key, "query": query.text, "per_page": query.per_page,
            "works": json.dumps(list(valid)),
            "result_count": count, "invalid": result.invalid, "asked_by": asset, "fetched_at": now,
        })
    if fresh_rows:
        cache.write(con, pd.DataFrame(fresh_rows))
    report.requests = (client.requests_sent - sent_before) if client is not None else 0
    report.list_calls = budget.spent if budget is not None else 0
    record_usage(con, day=now.date(), run_id=run_id, asset=asset, list_calls=report.list_calls, requests=report.requests)
    by_key = {result.query.key: result for result in report.results}
    report.results = [by_key[query.key] for query in queries]
    return report


def cached_results(
    con: duckdb.DuckDBPyConnection, queries: Sequence[SearchQuery], read: Callable[[duckdb.DuckDBPyConnection, list[str]], dict[str, dict[str, Any]]]
) -> list[SearchResult]:
    """The cached answers to `queries` (CACHED, whatever their age), in order, leaving out a query without one; no
    request and no table created ([] when the cache table does not exist: never searched online). What the assets
    after a search read, so that they see exactly the answers the search left. `read`: a `SearchCache.read`
    (`read_question_searches`, `papers.search_cache.read_paper_searches`)."""
    cached = read(con, [query.key for query in queries])
    return [SearchResult(query, CACHED, cached[query.key]["works"], None, cached[query.key]["fetched_at"], cached[query.key]["invalid"])
            for query in dict.fromkeys(queries) if query.key in cached]


@dataclass(frozen=True)
class SearchCache:
    """Where search answers are kept: `read(con, keys)` -> {query_key: {works, invalid, fetched_at}} (none when the
    table does not exist) and `write(con, rows)` (openalex_search_cache's columns; creates the table). One per table
    (the briefs' `QUESTION_SEARCHES`; the papers' is `papers.search_cache`), so that an asset reads and writes only
    its own table (`declarations`)."""

    read: Callable[[duckdb.DuckDBPyConnection, list[str]], dict[str, dict[str, Any]]]
    write: Callable[[duckdb.DuckDBPyConnection, pd.DataFrame], None]


def read_question_searches(con: duckdb.DuckDBPyConnection | Tables, keys: list[str]) -> dict[str, dict[str, Any]]:
    """The cached answers of openalex_search_cache to `keys` (`cached_answers`); {} when the table does not exist."""
    con = Tables.of(con)
    if not table_exists(con, "openalex_search_cache"):
        return {}
    return cached_answers(con.query_rows("openalex_search_cache_answers", [keys]))


def write_question_searches(con: duckdb.DuckDBPyConnection, rows: pd.DataFrame) -> None:
    """Upsert answers into openalex_search_cache (created when missing)."""
    create_tables(con, "openalex_search_cache")
    upsert(con, "openalex_search_cache", rows)


QUESTION_SEARCHES = SearchCache(read_question_searches, write_question_searches)


def cached_answers(rows: Sequence[tuple]) -> dict[str, dict[str, Any]]:
    """{query_key: {works (tuple of dicts), invalid, fetched_at (UTC)}} of cache rows (query_key, works JSON, invalid,
    fetched_at)."""
    return {key: {"works": tuple(json.loads(works)), "invalid": int(invalid), "fetched_at": _utc(fetched_at)}
            for key, works, invalid, fetched_at in rows}


def _without_answer(query: SearchQuery, row: dict[str, Any] | None, status: str, reason: str) -> SearchResult:
    """A query not answered now: the cache's older answer when there is one (STALE_CACHE, saying why), else none."""
    if row is not None:
        return SearchResult(query, STALE_CACHE, row["works"], f"{status}: {reason}; the answer of {row['fetched_at']:%Y-%m-%d} is used",
                            row["fetched_at"], row["invalid"])
    return SearchResult(query, status, (), reason)


def _utc(value: datetime) -> datetime:
    stamp = pd.Timestamp(value)
    return (stamp.tz_convert("UTC") if stamp.tzinfo else stamp.tz_localize("UTC")).to_pydatetime()


def works_as_of(results: Sequence[SearchResult], as_of: date) -> list[dict[str, Any]]:
    """The works of `results`, each once (the first answer that holds it, by OpenAlex id), published on or before
    `as_of`'s year: a past as_of must not see later work (DOMAIN.md, "Nothing dated after as_of is evidence")."""
    seen: dict[str, dict[str, Any]] = {}
    for result in results:
        for work in result.works:
            year = work.get("publication_year")
            if isinstance(year, int) and year > as_of.year:
                continue
            seen.setdefault(work["id"], work)
    return list(seen.values())
