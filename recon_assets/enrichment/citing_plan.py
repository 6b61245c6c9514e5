"""Plan the OpenAlex requests that fetch the works citing a set of works, within a small request budget.

The judges use, per cited work, a few dozen citing works at most (`judgement.citing_pairs` judges the 20 closest,
plus every comment, reply and correction), so a citing-works refresh asks for those and no more:

- a work OpenAlex counts no citation for (`cited_by_count` 0) needs no request: OpenAlex has none;
- works cited at most `per_work` times are packed into one OR filter (`filter=cites:W1|W2|...`, at most 100
  values, "Filter entity lists" OR syntax) while their counts add up to at most one page (200 works, OpenAlex's
  largest `per-page`): one request returns every work citing any of them (ALL_CITING; cursor paging fetches the
  rare second page when counts grew since they were read);
- works cited more often are grouped by similar counts, `page_size // per_work` per group, and each group asks
  for one page of its most cited citing works (MOST_CITED) and one of its most recent (MOST_RECENT); because a
  page holds the citing works of the whole group, a work cited far more than its group-mates can take most of a
  page (counts are close within a group, which keeps that rare);
- the same heavily cited works, 100 per group, ask for every citing work whose title reads as a comment, reply
  or correction (COMMENT_TITLES, `title.search`), which the most cited and most recent pages would miss.

Which cited work a returned work cites is read from its `referenced_works` (see `citing_works`).

Cost: OpenAlex bills a list or filter page as one list call and a full-text search page as ten ("Authentication &
Pricing", 2026: list/filter $0.10 per 1,000 calls, search $1 per 1,000; a free key has $1 a day, 10,000 list calls);
a `title.search` filter is counted as a search. A single work by id or DOI costs nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from recon_assets.enrichment.openalex_batches import MAX_FILTER_VALUES

# OpenAlex's largest page ("Paging": per-page 1 to 200).
MAX_PAGE_SIZE = 200
ALL_CITING, MOST_CITED, MOST_RECENT, COMMENT_TITLES = "all_citing", "most_cited", "most_recent", "comment_titles"
SELECTIONS = (ALL_CITING, MOST_CITED, MOST_RECENT, COMMENT_TITLES)
# The words a comment, reply or correction's title starts with (`judgement.disputes` reads the whole title).
COMMENT_TITLE_SEARCH = "comment OR comments OR reply OR response OR rebuttal OR corrigendum OR erratum OR correction"
# List calls per page: a filter page is one, a search page ten (module docstring).
LIST_CALL, SEARCH_CALLS = 1, 10


@dataclass(frozen=True)
class CitedWork:
    """A work whose citing works are wanted: `key` (its DOI), OpenAlex id ('W123') and OpenAlex's citation count."""

    key: str
    openalex_id: str
    cited_by_count: int


@dataclass(frozen=True)
class CitingQuery:
    """One OpenAlex query: the cited works' ids (an OR filter), which citing works it selects (SELECTIONS), the
    sort, the page size, whether every page is fetched (cursor paging) or the first only, and its title search."""

    cited_ids: tuple[str, ...]
    selection: str
    sort: tuple[str, str]
    per_page: int
    all_pages: bool
    title_search: str | None = None

    @property
    def list_calls_per_page(self) -> int:
        """What one page costs, in list calls (module docstring)."""
        return SEARCH_CALLS if self.title_search else LIST_CALL


def plan_citing_queries(
    works: Iterable[CitedWork], *, per_work: int, page_size: int = MAX_PAGE_SIZE, max_values: int = MAX_FILTER_VALUES
) -> list[CitingQuery]:
    """The queries that fetch the citing works of `works` (module docstring), cheapest kinds first.

    Args:
        works: the cited works (a repeated OpenAlex id is planned once; `cited_by_count` <= 0 needs no query).
        per_work: citing works wanted per heavily cited work (1 to `page_size`); a work cited at most this often
            gets all its citing works.
        page_size: works per page (1 to 200).
        max_values: ids per OR filter (OpenAlex: 100).

    Returns:
        ALL_CITING queries (first page expected to hold all; `all_pages`), then per group of heavily cited works a
        MOST_CITED and a MOST_RECENT query (first page only), then COMMENT_TITLES queries (`all_pages`).

    Raises:
        ValueError: a bound out of range.
    """
    if not 1 <= page_size <= MAX_PAGE_SIZE:
        raise ValueError(f"page_size must be 1 to {MAX_PAGE_SIZE}, got {page_size}")
    if not 1 <= per_work <= page_size:
        raise ValueError(f"per_work must be 1 to page_size ({page_size}), got {per_work}")
    if max_values < 1:
        raise ValueError(f"max_values must be at least 1, got {max_values}")
    unique = {work.openalex_id: work for work in works if work.cited_by_count > 0}
    light = sorted((w for w in unique.values() if w.cited_by_count <= per_work), key=lambda w: (w.cited_by_count, w.openalex_id))
    heavy = sorted((w for w in unique.values() if w.cited_by_count > per_work), key=lambda w: (-w.cited_by_count, w.openalex_id))
    queries = [
        CitingQuery(ids, ALL_CITING, ("publication_date", "desc"), page_size, all_pages=True)
        for ids in _pack(light, page_size, max_values)
    ]
    group = min(max_values, max(1, page_size // per_work))
    for start in range(0, len(heavy), group):
        ids = tuple(w.openalex_id for w in heavy[start : start + group])
        queries.append(CitingQuery(ids, MOST_CITED, ("cited_by_count", "desc"), page_size, all_pages=False))
        queries.append(CitingQuery(ids, MOST_RECENT, ("publication_date", "desc"), page_size, all_pages=False))
    queries += [
        CitingQuery(tuple(w.openalex_id for w in heavy[start : start + max_values]), COMMENT_TITLES, ("publication_date", "desc"),
                    page_size, all_pages=True, title_search=COMMENT_TITLE_SEARCH)
        for start in range(0, len(heavy), max_values)
    ]
    return queries


def planned_list_calls(queries: Iterable[CitingQuery]) -> int:
    """List calls the queries cost when each returns a single page (module docstring)."""
    return sum(query.list_calls_per_page for query in queries)


def _pack(works: list[CitedWork], page_size: int, max_values: int) -> list[tuple[str, ...]]:
    """Consecutive runs of `works` (sorted by count) whose counts add up to at most `page_size`, at most
    `max_values` ids each; a run closes when the next work would overflow it."""
    batches: list[tuple[str, ...]] = []
    current: list[str] = []
    total = 0
    for work in works:
        if current and (total + work.cited_by_count > page_size or len(current) == max_values):
            batches.append(tuple(current))
            current, total = [], 0
        current.append(work.openalex_id)
        total += work.cited_by_count
    if current:
        batches.append(tuple(current))
    return batches

