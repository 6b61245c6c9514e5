"""A paper given by a DOI the graph lacks (issue 22, `recon paper 10.xxxx/...`): its title, abstract and references
from OpenAlex, through the project's OpenAlex client (pyalex) and its caches, on the shared daily OpenAlex budget.

- The work: online only, one lookup (`OpenAlexClient.fetch`: an OR-filter batch of one, 1 list call, then the free
  single lookup `/works/doi:<doi>` if the batch missed it). It is not kept in openalex_cache: that is the research
  areas' table, which the scores read (a paper's lookup must not become their input); the paper's text is kept in
  paper_texts, and a re-run asks again.
- Its references: OpenAlex lists them as work ids (`referenced_works`); their DOIs and titles come from OR filters
  `openalex:W1|W2|...` (100 ids a request, 1 list call each, `id,doi,title` selected). A reference left unresolved
  (the budget spent, a failed request) is kept as its OpenAlex id without a DOI, and the lookup says how many.
- Only the DOI and OpenAlex work ids are sent: public identifiers of a published work, none of a manuscript's text, so
  this needs OpenAlex online, not the papers' opt-in. What was asked is recorded (`DoiLookup.summary`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import duckdb

from recon_assets.enrichment.openalex_batches import MAX_FILTER_VALUES
from recon_assets.enrichment.openalex_client import FOUND, BudgetSpent, OpenAlexClient, short_work_id
from recon_assets.enrichment.openalex_records import rebuild_abstract
from recon_assets.enrichment.openalex_usage import record_usage, run_allowance
from recon_assets.kg.doi import canonical_doi
from recon_assets.papers.parse import UnreadablePaper
from recon_assets.storage.tables import create_tables

REFERENCE_FIELDS = ("id", "doi", "title")


@dataclass(frozen=True)
class DoiLookup:
    """What OpenAlex says of a DOI: its title and abstract (None when OpenAlex has none), its references as (DOI or
    None, title or the OpenAlex id) in OpenAlex's order, how many references stayed unresolved, the HTTP requests and
    list calls spent, and one line on what was sent where."""

    title: str | None
    abstract: str | None
    references: tuple[tuple[str | None, str], ...]
    unresolved: int
    requests: int
    list_calls: int
    summary: str


def lookup_doi(
    con: duckdb.DuckDBPyConnection, doi: str, client: OpenAlexClient | None, *, run_id: str, now: datetime, daily_list_calls: int,
    where: str, offline_reason: str,
) -> DoiLookup:
    """The paper with canonical DOI `doi` from OpenAlex (module docstring); `client` None: OpenAlex may not be asked.

    Args:
        where: the API root named in the summary (redacted by the caller).
        offline_reason: why nothing may be requested (`client` None), for the error.
    Raises:
        UnreadablePaper: in one line, when OpenAlex does not give the work (offline, no such work, its lookup failed,
            the daily budget spent) or the work has neither an abstract nor a reference.
    """
    if client is None:
        raise UnreadablePaper(f"DOI {doi} is no publication of the graph and OpenAlex is not asked ({offline_reason})")
    create_tables(con, "openalex_usage")
    budget = run_allowance(con, day=now.date(), daily_list_calls=daily_list_calls)
    client.budget = budget
    sent_before = client.requests_sent
    try:
        report = client.fetch([doi])
        if report.budget_spent:
            raise UnreadablePaper(f"DOI {doi} is no publication of the graph and OpenAlex was not asked: {report.budget_spent}")
        (result,) = report.results
        if result.status != FOUND:
            said = "has no work with that DOI" if result.error is None else f"did not give it ({result.error})"
            raise UnreadablePaper(f"DOI {doi} is no publication of the graph, and OpenAlex {said}")
        work = result.work
        ids = [short_work_id(reference) for reference in dict.fromkeys(work.get("referenced_works") or [])]
        resolved = _asked_references(client, ids) if ids else {}
    finally:
        requests = client.requests_sent - sent_before
        record_usage(con, day=now.date(), run_id=run_id, asset="paper_documents", list_calls=budget.spent, requests=requests)
    references = tuple(resolved.get(work_id, (None, f"OpenAlex work {work_id} (not resolved)")) for work_id in ids)
    unresolved = sum(work_id not in resolved for work_id in ids)
    abstract = rebuild_abstract(work.get("abstract_inverted_index"))
    if not abstract and not references:
        raise UnreadablePaper(f"DOI {doi}: OpenAlex holds neither its abstract nor a work it cites; nothing to analyse")
    summary = (f"paper: its DOI and {len(ids)} cited OpenAlex work id(s) sent to OpenAlex ({where}) for its title, abstract and "
               f"references; {requests} requests, {budget.spent} list calls")
    if unresolved:
        summary += f"; {unresolved} of {len(ids)} references without a DOI (not resolved)"
    return DoiLookup(work.get("title"), abstract, references, unresolved, requests, budget.spent, summary)


def _asked_references(client: OpenAlexClient, ids: Sequence[str]) -> dict[str, tuple[str | None, str]]:
    """{OpenAlex id: (DOI, title)} of `ids` from OpenAlex, 100 a request; a batch whose request fails or that the
    budget stops is left unresolved (the lookup counts it)."""
    found: dict[str, tuple[str | None, str]] = {}
    for start in range(0, len(ids), MAX_FILTER_VALUES):
        batch = list(ids[start : start + MAX_FILTER_VALUES])
        try:
            page = client.works_by_ids(batch, REFERENCE_FIELDS)
        except BudgetSpent:
            break
        except Exception:  # noqa: BLE001 - a failed batch stays unresolved, which the lookup counts and says
            continue
        for work in page:
            if isinstance(work.get("id"), str) and short_work_id(work["id"]) in batch:
                doi = canonical_doi(work.get("doi"))
                found[short_work_id(work["id"])] = (doi, work.get("title") or doi or short_work_id(work["id"]))
    return found
