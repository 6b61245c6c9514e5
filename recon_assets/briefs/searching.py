"""A question's OpenAlex search (issue 21, online retrieval), shared by its retriever and its critic's rewrite rounds:
the queries of a round's texts, the works they found merged into the question's pool by DOI, and one line on what
the search did. Pure: the search itself (`enrichment.openalex_search.search_works`, cached 30 days in
openalex_search_cache, on the shared daily OpenAlex budget; or, offline, the cache alone) and the graph's DOIs are
functions the caller gives (`briefs.assets`), as `answering` takes its similarity.

- `question_evidence` searches the question and each sub-question of its plan; its works widen round 0's pool.
- `question_verdicts` searches, in each rewrite round, the round's rewritten sub-questions (`round_search`, an
  `answering.Search`); their works widen the pool that round retrieves from, merged by DOI exactly so.
- `research_briefs` reads the cached answers of every round's queries, so it judges the pool the rounds had.

A work found by the search joins the pool as `retrieval.searched_papers` says: a work whose DOI is a paper of the pool
is that paper (the KG record kept), one whose DOI is another KG publication is that publication (no edge to the
question's datasets), any other a paper found only in OpenAlex (unassessed); a work published after as_of's year is
left out (`openalex_search.works_as_of`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import date, datetime
from typing import Any

from recon_assets.briefs.answering import Pool, RoundSearch, Search
from recon_assets.briefs.planner import SubQuestion
from recon_assets.briefs.retrieval import Searched, openalex_candidate, searched_papers
from recon_assets.enrichment.openalex_search import CACHED, SEARCHED, SearchQuery, SearchReport, SearchResult, search_query, works_as_of
from recon_assets.kg.doi import canonical_doi

# Works asked for per query, each text one query (a search page costs 10 list calls of the shared daily budget,
# whatever its size).
SEARCH_PER_QUERY = 10

# queries -> (the results that hold works, in order; the report of what was sent, None when nothing could be sent).
RunSearch = Callable[[Sequence[SearchQuery]], tuple[list[SearchResult], SearchReport | None]]
# canonical DOIs -> {doi: KG publication id} of those the graph's publications hold.
GraphDois = Callable[[list[str]], Mapping[str, str]]


def search_queries(texts: Iterable[str]) -> list[SearchQuery]:
    """The OpenAlex searches of `texts` (`openalex_search.search_query`, SEARCH_PER_QUERY works each), each once, in
    order; a text with nothing left to search with (all of it wording addressing a model) is skipped."""
    queries = []
    for text in texts:
        try:
            queries.append(search_query(text, SEARCH_PER_QUERY))
        except ValueError:
            continue
    return list(dict.fromkeys(queries))


def searched_dois(results: Sequence[SearchResult], as_of: date) -> list[str]:
    """The canonical DOIs of the works `results` found published by as_of's year (what to look up in the graph)."""
    return [doi for doi in (canonical_doi(work.get("doi")) for work, _ in _found(results, as_of).values()) if doi]


def searched_pool(pool: Pool, results: Sequence[SearchResult], as_of: date, in_graph: Mapping[str, str]) -> tuple[Pool, Searched]:
    """`pool` with the works of the search `results` (published by as_of's year) that it lacks, merged by DOI
    (`retrieval.searched_papers`): a KG publication outside the pool (`in_graph`: {canonical DOI: publication id}) as
    that publication, any other as a paper found only in OpenAlex. Each work once, from the first result holding it
    (its fetch time counts its citations up to as_of)."""
    found = _found(results, as_of)
    if not found:
        return pool, Searched({}, 0)
    candidates = [openalex_candidate(work, as_of, fetched_at, in_graph.get(canonical_doi(work.get("doi")) or ""))
                  for work, fetched_at in found.values()]
    searched = searched_papers(pool.papers, candidates)
    return replace(pool, papers={**pool.papers, **searched.papers}), searched


def search_summary(report: SearchReport | None, results: Sequence[SearchResult], offline_why: str) -> str:
    """One line on a search: what was sent, answered from the cache or not sent and why, the requests and list calls
    and every failure's reason; without a report (nothing could be sent: `offline_why`, e.g. 'RECON_OPENALEX=offline'),
    how many cached answers were used."""
    if report is None:
        return f"OpenAlex search not sent ({offline_why}); {len(results)} cached answer(s) used"
    counts = ", ".join(f"{n} {status}" for status, n in report.counts().items())
    reasons = sorted({result.reason for result in report.results if result.reason})
    return (f"OpenAlex search: {len(report.results)} queries ({counts}); {report.requests} requests, {report.list_calls} list calls "
            f"of {report.list_calls_allowed:,} allowed" + (f"; {'; '.join(reasons)}" if reasons else ""))


def round_search(run: RunSearch, in_graph: GraphDois, as_of: date, offline_why: str) -> Search:
    """The critic's rewrite-round search (`answering.Search`): the round's rewritten sub-questions searched (`run`:
    the question's cached, budgeted OpenAlex search), their works merged into the pool by DOI (`searched_pool`, the
    graph's DOIs from `in_graph`), and what it did (`RoundSearch`: papers added, the line `search_summary` gives,
    requests, list calls). A failed query adds nothing and its reason is in the line; the round is judged over the
    pool it had."""

    def search(pool: Pool, subquestions: Sequence[SubQuestion]) -> tuple[Pool, RoundSearch]:
        results, report = run(search_queries(item.text for item in subquestions))
        widened, searched = searched_pool(pool, results, as_of, in_graph(searched_dois(results, as_of)))
        said = search_summary(report, results, offline_why)
        if report is None:
            return widened, RoundSearch(len(searched.papers), said)
        unanswered = sum(result.status not in (SEARCHED, CACHED) for result in report.results)
        return widened, RoundSearch(len(searched.papers), said, report.requests, report.list_calls, unanswered)

    return search


def _found(results: Sequence[SearchResult], as_of: date) -> dict[str, tuple[dict[str, Any], datetime | None]]:
    """{OpenAlex id: (work, when its result was fetched)} of the works published by as_of's year, first result first."""
    found: dict[str, tuple[dict[str, Any], datetime | None]] = {}
    for result in results:
        for work in works_as_of([result], as_of):
            found.setdefault(work["id"], (work, result.fetched_at))
    return found
