"""Evidence expansion for INSUFFICIENT datasets: more publications, those that cite the dataset's DOI.

A dataset DOI is resolved to its OpenAlex work id, and the works whose `referenced_works` hold that id are
the new evidence (OpenAlex API reference, "Work object" `referenced_works`; filter `cites:`):

- round 1, `cached_citing_works`: the openalex_cache table alone (the dataset DOI's cached work, then the
  cached works referencing it); no request;
- round 2, `online_citing_works`: OpenAlex itself, when a client is configured (`OpenAlexClient.fetch` for
  the DOI, `OpenAlexClient.citing_works` for the works citing it). Its answers are meant for the cache
  (`cache_rows`), so the next run's round 1 finds them.

`expand` runs the rounds, at most `CriticRules.expansion_rounds`, for the datasets still insufficient
after each; a citing work already among a dataset's edges, or found by an earlier round, is not counted
twice. `expansion_edges` shapes the new works for `reliability.scoring.score_edges`: not in the KG, they have
no PageRank (centrality from OpenAlex citations alone) and no judged coherence (UNVERIFIED, neutral).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import duckdb
import pandas as pd
import requests

from recon_assets.enrichment.openalex_client import FOUND, NOT_FOUND, BudgetSpent, OpenAlexClient, WorkResult
from recon_assets.enrichment.openalex_records import work_columns
from recon_assets.judgement.offline_judge import NEUTRAL_COHERENCE
from recon_assets.kg.authors import citation_tag
from recon_assets.kg.doi import canonical_doi
from recon_assets.reliability.scoring import UNVERIFIED
from recon_assets.verdicts.critic import CriticRules, Edge, ExpansionRound, sufficiency

CACHE_SOURCE, ONLINE_SOURCE = "OpenAlex cache", "OpenAlex"
# Citing works asked per dataset: one OpenAlex page; far more than the 3 reliable edges a verdict needs.
CITING_WORKS_PER_DATASET = 100
# A publication not in the KG has no PageRank: the centrality of an isolated node (the log scale's floor).
NO_PAGERANK_CENTRALITY = 0.0


@dataclass(frozen=True)
class CitingWork:
    """An OpenAlex work (`select`ed fields) citing a dataset DOI, and when it was fetched."""

    work: dict[str, Any]
    fetched_at: datetime


@dataclass(frozen=True)
class CitingWorks:
    """What one round found for one dataset DOI: the citing works, and a note saying what it found or why nothing."""

    works: tuple[CitingWork, ...]
    note: str


Lookup = Callable[[list[str]], Mapping[str, CitingWorks]]


def cached_citing_works(con: duckdb.DuckDBPyConnection, dataset_dois: Sequence[str]) -> dict[str, CitingWorks]:
    """Round 1: for each dataset DOI, the cached works whose referenced_works hold the OpenAlex id of the
    DOI's own cached work. The openalex_cache table must exist.

    Returns:
        {dataset DOI: CitingWorks}, one entry per DOI of `dataset_dois`.
    """
    targets = dict(con.execute(
        "SELECT doi, json_extract_string(work, '$.id') FROM openalex_cache WHERE status = ? AND list_contains(?, doi)",
        [FOUND, list(dataset_dois)],
    ).fetchall())
    citing: dict[str, list[CitingWork]] = {}
    if targets:
        rows = con.execute(
            "SELECT t.dataset_doi, c.work, c.fetched_at FROM openalex_cache AS c "
            "JOIN (SELECT unnest(?) AS dataset_doi, unnest(?) AS work_id) AS t "
            "ON list_contains(json_extract_string(c.work, '$.referenced_works[*]'), t.work_id) "
            "WHERE c.status = ? ORDER BY t.dataset_doi, c.doi",
            [list(targets), list(targets.values()), FOUND],
        ).fetchall()
        for dataset_doi, work, fetched_at in rows:
            citing.setdefault(dataset_doi, []).append(CitingWork(json.loads(work), fetched_at))
    return {
        doi: CitingWorks(tuple(citing.get(doi, ())), _found_note(targets[doi], len(citing.get(doi, ())), "cached"))
        if doi in targets else CitingWorks((), "the dataset DOI is not in the OpenAlex cache")
        for doi in dataset_dois
    }


def online_citing_works(
    client: OpenAlexClient | None, dataset_dois: Sequence[str], *, offline_note: str, now: datetime,
    per_dataset: int = CITING_WORKS_PER_DATASET,
) -> tuple[dict[str, CitingWorks], list[WorkResult]]:
    """Round 2: resolve the dataset DOIs in OpenAlex (batched), then ask for the works citing each.

    Args:
        client: None when OpenAlex may not be asked; every DOI then gets `offline_note`.
        now: when the answers were fetched.

    Returns:
        ({dataset DOI: CitingWorks} for every DOI, the found works worth caching: the dataset DOIs' own
        works and the citing works that have a DOI). A failed request or a spent daily budget ends in a note;
        it never raises.
    """
    if client is None:
        return {doi: CitingWorks((), offline_note) for doi in dataset_dois}, []
    report = client.fetch(dataset_dois)
    resolved = {result.doi: result for result in report.results}
    to_cache = [result for result in report.results if result.status == FOUND]
    budget_spent = report.budget_spent
    found: dict[str, CitingWorks] = {}
    for doi in dataset_dois:
        result = resolved.get(doi)
        if result is None or (result.status == FOUND and budget_spent):  # left unasked once the budget ran out
            found[doi] = CitingWorks((), f"not asked: {budget_spent}")
        elif result.status == NOT_FOUND:
            found[doi] = CitingWorks((), "the dataset DOI is not in OpenAlex")
        elif result.status != FOUND:
            found[doi] = CitingWorks((), f"OpenAlex error: {result.error}")
        else:
            try:
                works = client.citing_works(result.work["id"], limit=per_dataset)
            except BudgetSpent as spent:
                budget_spent = str(spent)
                found[doi] = CitingWorks((), f"not asked: {budget_spent}")
                continue
            except requests.RequestException as error:
                found[doi] = CitingWorks((), f"OpenAlex error: {_describe(error)}")
                continue
            found[doi] = CitingWorks(tuple(CitingWork(work, now) for work in works), _found_note(result.work["id"], len(works), "OpenAlex"))
            to_cache += [WorkResult(canonical_doi(work.get("doi")), FOUND, work=work) for work in works if canonical_doi(work.get("doi"))]
    return found, to_cache


def expansion_edges(works: Sequence[CitingWork], dataset: Mapping[str, Any], *, as_of: date) -> pd.DataFrame:
    """The input rows of `score_edges` for works found by expansion, one per work.

    Args:
        dataset: the dataset's columns copied onto every row: research_area, dataset_id, dataset_doi,
            dataset_short_name and the lifecycle columns score_edges reads (dataset_superseded,
            dataset_version, successor_version, superseded_since, dataset_collection_progress).
        as_of: the citation trend is measured up to the smaller of its year and the year the work was fetched.

    Returns:
        DataFrame: publication_id (the DOI, else the OpenAlex id), publication_doi, citation ('[10.3390/rs11121408, 2019]'),
        kg_year NA with year_issue
        saying why, PageRank centrality NO_PAGERANK_CENTRALITY, coherence UNVERIFIED at the neutral value,
        and the OpenAlex columns.
    """
    rows = []
    for found in works:
        columns = work_columns(found.work, reference_year=min(as_of.year, pd.Timestamp(found.fetched_at).year))
        doi = columns["openalex_doi"]
        rows.append({
            **dataset,
            "publication_id": doi or found.work["id"],
            "publication_doi": doi,
            # the cache keeps the `select`ed fields only, without authorships: the DOI names the work
            "citation": citation_tag([], columns["publication_year"], doi or found.work["id"]),
            "kg_year": pd.NA,
            "year_issue": "not in the KG (found citing the dataset DOI in OpenAlex)",
            "pagerank_centrality": NO_PAGERANK_CENTRALITY,
            "coherence": NEUTRAL_COHERENCE,
            "coherence_status": UNVERIFIED,
            "evidence": None,
            "openalex_status": FOUND,
            "openalex_error": None,
            "cited_by_count": columns["cited_by_count"],
            "openalex_year": columns["publication_year"],
            "citation_trend": columns["citation_trend"],
            "openalex_retracted": columns["is_retracted"],
            "retraction_notice": columns["is_retraction_notice"],
            "crossref_notice_dois": None,
        })
    return pd.DataFrame(rows)


def expand(
    evidence: Mapping[tuple[str, str], Sequence[Edge]],
    dataset_dois: Mapping[tuple[str, str], str | None],
    known_dois: Mapping[tuple[str, str], set[str]],
    lookups: Sequence[tuple[str, Lookup]],
    score: Callable[[tuple[str, str], Sequence[CitingWork]], list[Edge]],
    rules: CriticRules = CriticRules(),
) -> dict[tuple[str, str], list[ExpansionRound]]:
    """Expansion rounds for every insufficient evidence set, until it is sufficient or the rounds run out.

    Args:
        evidence: scored edges per (research_area, dataset_id).
        dataset_dois: each key's dataset DOI (None: nothing can cite it).
        known_dois: each key's publication DOIs already among its edges.
        lookups: (source, lookup) per round, in order; a lookup takes the DOIs still wanted and is called
            at most once per round, only for DOIs of insufficient sets. The first `rules.expansion_rounds` run.
        score: scores the new works of one key (see `expansion_edges`).

    Returns:
        {key: the rounds run for it}, for the keys that were insufficient on their edges alone.
    """
    pending = [key for key, edges in evidence.items() if sufficiency(edges, rules).flagged]
    rounds: dict[tuple[str, str], list[ExpansionRound]] = {key: [] for key in pending}
    seen = {key: set(known_dois.get(key, ())) for key in pending}
    for source, lookup in lookups[: rules.expansion_rounds]:
        pending = [
            key for key in pending
            if sufficiency([*evidence[key], *(edge for round_ in rounds[key] for edge in round_.edges)], rules).flagged
        ]
        wanted = sorted({dataset_dois[key] for key in pending if dataset_dois.get(key)})
        found = lookup(wanted) if wanted else {}
        for key in pending:
            doi = dataset_dois.get(key)
            if not doi:
                rounds[key].append(ExpansionRound(source, "the dataset has no DOI"))
                continue
            cited = found[doi]
            new = [work for work in cited.works if _work_key(work) not in seen[key]]
            seen[key] |= {_work_key(work) for work in new}
            repeated = len(cited.works) - len(new)
            note = cited.note + (f", {repeated} already in the evidence" if repeated else "")
            rounds[key].append(ExpansionRound(source, note, tuple(score(key, new)) if new else ()))
    return rounds


def _work_key(found: CitingWork) -> str:
    """The DOI of a work, else its OpenAlex id: what makes two findings the same publication."""
    return canonical_doi(found.work.get("doi")) or found.work["id"]


def _found_note(work_id: str, count: int, where: str) -> str:
    return f"{count} {where} work(s) cite {work_id.rsplit('/', 1)[-1]}"


def _describe(error: requests.RequestException) -> str:
    """The HTTP status or the exception's type: never a URL or a header (which could carry credentials)."""
    response = getattr(error, "response", None)
    return f"HTTP {response.status_code}" if response is not None else type(error).__name__
