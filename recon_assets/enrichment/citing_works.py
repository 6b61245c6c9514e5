"""The works OpenAlex lists as citing a work: which are due for a refresh, fetching the planned queries within a
budget, and the rows of `openalex_citing_works` (DOMAIN.md "coherence" (a): works citing the publication, at any date).

- `refresh_due`: a cited work is asked again once its citing works are older than the TTL, shortened for each work by
  up to `spread` of it (a fixed fraction drawn from its OpenAlex id), so works first fetched on one day come due on
  different days and the refresh spreads over the TTL instead of returning all at once.
- `fetch_citing`: runs the `citing_plan` queries in order, checks every returned work against the schema of the fields
  used (`openalex_records.OpenAlexCitingWork`: one that fails is left out and counted, with its reason), attributes
  the others to the asked-for works they cite (their `referenced_works`), and stops cleanly when the budget is spent;
  a work is fetched only when every query covering it ran (a work half-fetched keeps its cached citing works).
- `citing_rows`: one row per (research area, cited DOI, citing work), or one row with a status and a note for a
  cited DOI without citing works: `fetched` (OpenAlex was asked), `none` (the work's OpenAlex record counts no
  citation, so nothing is asked, or OpenAlex was asked and listed none), `not_in_openalex` (no OpenAlex work has the DOI), `not_asked` (offline, budget spent, no OpenAlex
  record of the DOI yet: the note says which).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import pandas as pd

from recon_assets.enrichment.citing_plan import ALL_CITING, CitingQuery
from recon_assets.enrichment.openalex_client import BudgetSpent, describe, short_work_id
from recon_assets.enrichment.openalex_records import OpenAlexCitingWork, citation_percentile, invalid_reason, rebuild_abstract
from recon_assets.kg.authors import citation_tag
from recon_assets.kg.doi import canonical_doi
from recon_assets.shared.table_docs import declared_columns

FETCHED, NONE, NOT_IN_OPENALEX, NOT_ASKED = "fetched", "none", "not_in_openalex", "not_asked"
# How many reasons of invalid returned works `fetch_citing` keeps (for the asset's metadata and log).
MAX_INVALID_EXAMPLES = 5
CITING_STATUSES = (FETCHED, NONE, NOT_IN_OPENALEX, NOT_ASKED)
CITING_WORK_COLUMNS = declared_columns("openalex_citing_works")


def citing_record(work: Mapping[str, Any]) -> dict[str, Any]:
    """What is kept of a citing work (CITING_FIELDS; it must meet `OpenAlexCitingWork`): short OpenAlex id, canonical DOI, title, type, year, date
    (ISO text), cited_by_count, counts_by_year (list), citation percentile bounds (`openalex_records.citation_percentile`),
    is_retracted, citation tag ('[Chen et al., 2023]') and the abstract's text."""
    year = work.get("publication_year")
    authors = [(a.get("author") or {}).get("display_name") or a.get("raw_author_name") for a in work.get("authorships") or []]
    doi = canonical_doi(work.get("doi"))
    low, high = citation_percentile(work)
    return {
        "openalex_id": short_work_id(work["id"]),
        "doi": doi,
        "title": work.get("title"),
        "type": work.get("type"),
        "publication_year": year if isinstance(year, int) else None,
        "publication_date": work.get("publication_date"),
        "cited_by_count": work.get("cited_by_count"),
        "counts_by_year": list(work.get("counts_by_year") or []),
        "percentile_low": low,
        "percentile_high": high,
        "is_retracted": bool(work.get("is_retracted")),
        "citation": citation_tag([a for a in authors if a], year if isinstance(year, int) else None, doi or short_work_id(work["id"]),
                                 work.get("title") if isinstance(work.get("title"), str) else None),
        "abstract": rebuild_abstract(work.get("abstract_inverted_index")),
    }


def refresh_due(openalex_id: str, fetched_at: datetime | None, *, now: datetime, ttl: timedelta, spread: float) -> bool:
    """Whether a cited work's citing works are due (module docstring): never fetched, or fetched more than
    ttl * (1 - spread * u) before `now`, u in [0, 1) fixed by the id (SHA-256). `spread` in [0, 1]."""
    if fetched_at is None:
        return True
    u = int.from_bytes(hashlib.sha256(openalex_id.encode()).digest()[:4], "big") / 2**32
    return now - fetched_at > ttl * (1 - spread * u)


@dataclass
class CitingFetch:
    """What `fetch_citing` did: the citing works of each fully fetched cited id ({cited id: {citing id: record with
    its `selections`}}), the ids it could not fetch with why, the queries run, why it stopped early if it did, how
    many returned works were invalid (failed `OpenAlexCitingWork`; the first `MAX_INVALID_EXAMPLES` reasons, each
    with the work's id when it has one) and how many unusable (citing none of the asked-for works); `partial`: cited
    ids whose list misses works OpenAlex returned but that could not be read (cached, never as complete)."""

    works: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)
    queries_run: int = 0
    stopped: str | None = None
    unusable: int = 0
    partial: set[str] = field(default_factory=set)
    invalid: int = 0
    invalid_examples: list[str] = field(default_factory=list)


def fetch_citing(queries: Sequence[CitingQuery], ask: Callable[[CitingQuery], list[dict[str, Any]]]) -> CitingFetch:
    """Run `queries` in order with `ask` (e.g. `OpenAlexClient.citing_works`) and gather the citing works per cited id.

    A query that fails marks its cited ids failed with the error text and the run goes on; `BudgetSpent` stops the
    run, and the ids of the queries not run are failed with its message. A returned work that fails
    `OpenAlexCitingWork` is counted in `invalid` (its reason in `invalid_examples`), one citing none of the query's
    ids (by its referenced_works) in `unusable`; neither is kept, and the cited works' lists are fetched without them.

    Returns:
        CitingFetch: `works` holds exactly the cited ids every covering query ran for (empty dict: OpenAlex listed none).
    """
    result = CitingFetch()
    found: dict[str, dict[str, dict[str, Any]]] = {}
    for position, query in enumerate(queries):
        try:
            answer = ask(query)
        except BudgetSpent as spent:
            result.stopped = str(spent)
            for later in queries[position:]:
                result.failed.update(dict.fromkeys(later.cited_ids, f"not asked: {spent}"))
            break
        except Exception as error:  # the query's works keep what the cache holds; the others go on
            result.failed.update(dict.fromkeys(query.cited_ids, describe(error)))
            result.queries_run += 1
            continue
        result.queries_run += 1
        asked = set(query.cited_ids)
        invalid_before, first_problem = result.invalid, None
        for work in answer:
            problem = invalid_reason(work, OpenAlexCitingWork)
            if problem:
                result.invalid += 1
                first_problem = first_problem or problem
                if len(result.invalid_examples) < MAX_INVALID_EXAMPLES:
                    work_id = work.get("id") if isinstance(work, Mapping) else None
                    result.invalid_examples.append(f"{short_work_id(work_id)[:40] if isinstance(work_id, str) else 'a work'}: {problem}")
                continue
            cited = {short_work_id(reference) for reference in work["referenced_works"]} & asked
            if not cited:
                result.unusable += 1
                continue
            record = citing_record(work)
            for cited_id in cited:
                kept = found.setdefault(cited_id, {}).setdefault(record["openalex_id"], record | {"selections": []})
                if query.selection not in kept["selections"]:
                    kept["selections"].append(query.selection)
        if result.invalid > invalid_before:
            # some works could not be read: what this query lists is not the whole answer (never "none", never complete)
            why = f"{result.invalid - invalid_before} of the {len(answer)} works OpenAlex returned fail the schema (first: {first_problem}): asked again next run"
            result.failed.update({cited_id: why for cited_id in asked if not found.get(cited_id)})
            result.partial.update(cited_id for cited_id in asked if found.get(cited_id))
        for cited_id in asked:
            found.setdefault(cited_id, {})
    result.works = {cited_id: works for cited_id, works in found.items() if cited_id not in result.failed}
    return result


def cache_rows(fetch: CitingFetch, counts: Mapping[str, int], queries: Iterable[CitingQuery], *, fetched_at: datetime) -> pd.DataFrame:
    """openalex_citing_cache rows (openalex_id, cited_by_count, works as JSON text, complete, fetched_at) for every
    cited id OpenAlex answered for (an empty list: it lists none). `counts`: OpenAlex's citation count of each cited
    id as the works cache holds it. `complete`: all its citing works were asked for (an ALL_CITING query)."""
    whole = {cited_id for query in queries if query.selection == ALL_CITING for cited_id in query.cited_ids}
    rows = [
        (cited_id, int(counts.get(cited_id, 0)), json.dumps(list(works.values())), cited_id in whole and cited_id not in fetch.partial, fetched_at)
        for cited_id, works in fetch.works.items()
    ]
    return pd.DataFrame(rows, columns=["openalex_id", "cited_by_count", "works", "complete", "fetched_at"])


def citing_rows(targets: pd.DataFrame, cache: pd.DataFrame, not_asked: Mapping[str, str]) -> pd.DataFrame:
    """The rows of `openalex_citing_works` (CITING_WORK_COLUMNS; module docstring).

    Args:
        targets: one row per (research_area, cited_doi): cited_kind ('publication' / 'dataset'), openalex_status
            (found / not_found / error / NA when OpenAlex was never asked), openalex_error, cited_openalex_id (short).
        cache: openalex_citing_cache rows of the targets' ids (openalex_id, works JSON text, complete, fetched_at).
        not_asked: {cited id or cited DOI: why it was not asked this run} for the targets the cache does not hold (a
            DOI OpenAlex could not be asked about has no id yet).

    Returns:
        DataFrame with CITING_WORK_COLUMNS; rows in `targets` order, a cited DOI's citing works newest first.
    """
    by_id = {row.openalex_id: row for row in cache.itertuples(index=False)}
    rows: list[dict[str, Any]] = []
    for target in targets.itertuples(index=False):
        base = dict.fromkeys(CITING_WORK_COLUMNS) | {
            "research_area": target.research_area, "cited_doi": target.cited_doi, "cited_kind": target.cited_kind,
            "cited_openalex_id": target.cited_openalex_id if isinstance(target.cited_openalex_id, str) else None,
        }
        cached = by_id.get(base["cited_openalex_id"])
        if target.openalex_status == "not_found":
            rows.append(base | {"status": NOT_IN_OPENALEX, "note": "OpenAlex has no work with this DOI"})
        elif target.openalex_status == "found" and base["cited_openalex_id"] is None:
            # a count composed from a public page (openalex_records.ComposedWork): no OpenAlex id to ask about
            rows.append(base | {"status": NOT_ASKED, "note": "the work's record is a citation count composed from a public page, with no OpenAlex id to ask OpenAlex for its citing works"})
        elif cached is None and target.openalex_status == "found" and not (target.cited_by_count or 0) > 0:
            # nothing to ask: the work's own record counts no citation (and OpenAlex was not asked for a list)
            rows.append(base | {"status": NONE, "note": "OpenAlex's record of the work counts no citation (cited_by_count 0): nothing to ask"})
        elif cached is None:
            error = target.openalex_error if isinstance(target.openalex_error, str) else None
            why = not_asked.get(base["cited_openalex_id"]) or not_asked.get(target.cited_doi) or error or "OpenAlex has no record of this DOI yet"
            rows.append(base | {"status": NOT_ASKED, "note": why})
        else:
            works = sorted(json.loads(cached.works), key=lambda w: (w.get("publication_date") or "", w["openalex_id"]), reverse=True)
            extent = "all of them" if cached.complete else "the most cited, the most recent and those titled as comments or replies"
            if not works:
                rows.append(base | {"status": NONE, "note": "OpenAlex lists no citing work", "fetched_at": cached.fetched_at})
            for work in works:
                rows.append(base | {
                    "status": FETCHED, "note": f"{len(works)} citing works fetched: {extent}", "fetched_at": cached.fetched_at,
                    "citing_openalex_id": work["openalex_id"], "citing_doi": work["doi"], "citing_title": work["title"],
                    "citing_type": work["type"], "citing_year": work["publication_year"], "citing_date": work["publication_date"],
                    "citing_cited_by_count": work["cited_by_count"], "citing_counts_by_year": json.dumps(work["counts_by_year"]),
                    "citing_percentile_low": work["percentile_low"], "citing_percentile_high": work["percentile_high"],
                    "citing_is_retracted": work["is_retracted"],
                    "citing_citation": work["citation"], "citing_abstract": work["abstract"], "selections": work["selections"],
                })
    frame = pd.DataFrame(rows, columns=list(CITING_WORK_COLUMNS))
    return frame.astype({"citing_year": "Int64", "citing_cited_by_count": "Int64"})
