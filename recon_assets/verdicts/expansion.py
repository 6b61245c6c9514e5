"""Evidence expansion for INSUFFICIENT datasets: more publications, those that cite the dataset's DOI.

A dataset DOI is resolved to its OpenAlex work id, and the works whose `referenced_works` hold that id are
the new evidence (OpenAlex API reference, "Work object" `referenced_works`; filter `cites:`):

- round 1, `cached_citing_works`: the openalex_cache table alone (the dataset DOI's cached work, then the
  cached works referencing it); no request;
- round 2, `online_citing_works`: OpenAlex itself, when a client is configured (`OpenAlexClient.fetch` for
  the DOI, `OpenAlexClient.citing_works` for the works citing it). Its answers are meant for the cache
  (`cache_rows`), so the next run's round 1 finds them.

`expand` runs the rounds, at most `VerdictRules.expansion_rounds`, for the datasets still insufficient
after each. A citing work counts once: one already among a dataset's edges, found by an earlier round, or
found twice in one answer (same DOI in another spelling, same OpenAlex id) is left out, and so is a work
published after `as_of` (its year later than as_of's: it was not evidence then). A round that could not
look (OpenAlex offline, in error or out of budget; a dataset without a DOI) is recorded as not run
(`ExpansionRound.ran`), so the critic does not count it toward the ceiling. `expansion_edges` shapes the new works for `reliability.scoring.score_edges`: not in the KG, they have
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

from recon_assets.enrichment.openalex_client import (
    FOUND,
    NOT_FOUND,
    BudgetSpent,
    OpenAlexClient,
    WorkResult,
    describe,
    short_work_id,
)
from recon_assets.enrichment.openalex_records import work_columns
from recon_assets.judgement.offline_judge import NEUTRAL_COHERENCE
from recon_assets.kg.authors import citation_tag
from recon_assets.kg.doi import canonical_doi
from recon_assets.kg.years import parse_year
from recon_assets.reliability.labels import UNVERIFIED
from recon_assets.verdicts.critic import Edge, ExpansionRound, VerdictRules

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
    """What one round found for one dataset DOI: the citing works, a note saying what it found or why nothing,
    and whether the round could look at all (False: offline, an error, a spent budget; the note says which)."""

    works: tuple[CitingWork, ...]
    note: str
    ran: bool = True


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
        client: None when OpenAlex may not be asked; every DOI then gets `offline_note` (round not run).
        now: when the answers were fetched.

    Returns:
        ({dataset DOI: CitingWorks} for every DOI, the found works worth caching: the dataset DOIs' own
        works and the citing works that have a DOI). It never raises: a failed request or answer (HTTP
        error, pyalex QueryError on a refused key, a work without an OpenAlex id), a DOI the fetch left
        without a result, or a spent daily budget ends in a note, the round marked not run. Citing works
        without an id are left out and counted in the note.
    """
    if client is None:
        return {doi: CitingWorks((), offline_note, ran=False) for doi in dataset_dois}, []
    report = client.fetch(dataset_dois)
    resolved = {result.doi: result for result in report.results}
    to_cache = [result for result in report.results if result.status == FOUND]
    budget_spent = report.budget_spent
    found: dict[str, CitingWorks] = {}
    for doi in dataset_dois:
        result = resolved.get(doi)
        work_id = result.work.get("id") if result is not None and result.work else None
        if budget_spent and (result is None or result.status == FOUND):  # left unasked once the budget ran out
            found[doi] = CitingWorks((), f"not asked: {budget_spent}", ran=False)
        elif result is None:
            found[doi] = CitingWorks((), "OpenAlex error: no answer for the dataset DOI", ran=False)
        elif result.status == NOT_FOUND:
            found[doi] = CitingWorks((), "the dataset DOI is not in OpenAlex")
        elif result.status != FOUND:
            found[doi] = CitingWorks((), f"OpenAlex error: {result.error}", ran=False)
        elif not work_id:
            found[doi] = CitingWorks((), "OpenAlex error: the dataset DOI's work has no OpenAlex id", ran=False)
        else:
            try:
                answer = client.citing_works(work_id, limit=per_dataset)
            except BudgetSpent as spent:
                budget_spent = str(spent)
                found[doi] = CitingWorks((), f"not asked: {budget_spent}", ran=False)
                continue
            except Exception as error:  # "never raises": one dataset's failure must not stop the others' verdicts
                found[doi] = CitingWorks((), f"OpenAlex error: {describe(error)}", ran=False)
                continue
            works = [work for work in answer if work.get("id")]
            unnamed = f", {len(answer) - len(works)} without an OpenAlex id left out" if len(works) < len(answer) else ""
            found[doi] = CitingWorks(tuple(CitingWork(work, now) for work in works), _found_note(work_id, len(works), "OpenAlex") + unnamed)
            to_cache += [WorkResult(canonical_doi(work.get("doi")), FOUND, work=work) for work in works if canonical_doi(work.get("doi"))]
    return found, to_cache


def expansion_edges(works: Sequence[CitingWork], dataset: Mapping[str, Any]) -> pd.DataFrame:
    """The input rows of `score_edges` for works found by expansion, one per work.

    Args:
        dataset: the dataset's columns copied onto every row: research_area, dataset_id, dataset_doi,
            dataset_short_name and the lifecycle columns score_edges reads (dataset_superseded, dataset_version,
            successor_version, superseded_since, dataset_collection_progress, succession_basis).

    Returns:
        DataFrame: publication_id (the DOI, else the OpenAlex id), publication_doi, citation ('[10.3390/rs11121408, 2019]'),
        kg_year NA with year_issue saying why, PageRank centrality NO_PAGERANK_CENTRALITY and no KG citations,
        coherence UNVERIFIED at the neutral value, no recorded dispute, and the OpenAlex columns.
    """
    rows = []
    for found in works:
        columns = work_columns(found.work)
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
            "kg_citations": 0,
            "kg_recent_citations": 0,
            "coherence": NEUTRAL_COHERENCE,
            "coherence_status": UNVERIFIED,
            "coherence_evidence": None,
            "dispute_status": None,
            "dispute_evidence": None,
            "openalex_status": FOUND,
            "openalex_error": None,
            "cited_by_count": columns["cited_by_count"],
            "counts_by_year": columns["counts_by_year"],
            "openalex_fetched_at": found.fetched_at,
            "openalex_year": columns["publication_year"],
            "percentile_low": columns["citation_percentile_low"],
            "percentile_high": columns["citation_percentile_high"],
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
    insufficient: Callable[[tuple[str, str], Sequence[Edge]], bool],
    rules: VerdictRules,
    *,
    as_of: date,
) -> dict[tuple[str, str], list[ExpansionRound]]:
    """Expansion rounds for every evidence set the critic cannot judge yet (`insufficient`), until it can or the
    rounds run out.

    Args:
        evidence: scored edges per (research_area, dataset_id).
        dataset_dois: each key's dataset DOI (None: nothing can cite it, every round is recorded as not run).
        known_dois: each key's publication DOIs (canonical) already among its edges.
        lookups: (source, lookup) per round, in order; a lookup takes the DOIs still wanted and is called
            at most once per round, only for DOIs of insufficient sets. The first `rules.expansion_rounds` run.
            A DOI the lookup leaves unanswered is a round not run.
        score: scores the new works of one key (see `expansion_edges`).
        insufficient: whether a key's evidence (its edges and what earlier rounds found) still needs more: neither
            the staleness nor the contradiction check fires and it is insufficient (`critic.needs_more_evidence`).
        as_of: works whose publication_year (read by `kg.years.parse_year`: "2025" and 2025.0 are 2025) is
            later than as_of's year are left out (a work without a readable year is kept); the round's note counts them.

    Returns:
        {key: the rounds tried for it}, for the keys that were insufficient on their edges alone. Each
        round's note ends with how many works were left out: already in the evidence, found twice in the
        round, published after as_of.
    """
    pending = [key for key, edges in evidence.items() if insufficient(key, edges)]
    rounds: dict[tuple[str, str], list[ExpansionRound]] = {key: [] for key in pending}
    seen = {key: set(known_dois.get(key, ())) for key in pending}
    for source, lookup in lookups[: rules.expansion_rounds]:
        pending = [key for key in pending if insufficient(key, [*evidence[key], *(edge for round_ in rounds[key] for edge in round_.edges)])]
        wanted = sorted({dataset_dois[key] for key in pending if dataset_dois.get(key)})
        found = lookup(wanted) if wanted else {}
        for key in pending:
            doi = dataset_dois.get(key)
            if not doi:
                rounds[key].append(ExpansionRound(source, "the dataset has no DOI", ran=False))
                continue
            cited = found.get(doi, CitingWorks((), "the lookup gave no answer for the dataset DOI", ran=False))
            new, left_out = _new_works(cited.works, seen[key], as_of)
            note = cited.note + "".join(f", {count} {why}" for why, count in left_out.items() if count)
            rounds[key].append(ExpansionRound(source, note, tuple(score(key, new)) if new else (), ran=cited.ran))
    return rounds


def _new_works(works: Sequence[CitingWork], seen: set[str], as_of: date) -> tuple[list[CitingWork], dict[str, int]]:
    """The works of one answer not yet in `seen` (updated in place with their keys) and not published after
    `as_of`, and how many were left out for each reason: a work repeated in the answer is found twice,
    whatever became of its first finding."""
    later = f"published after as_of {as_of.isoformat()}"
    new: list[CitingWork] = []
    left_out = {"already in the evidence": 0, "found twice": 0, later: 0}
    answered: set[str] = set()
    for found in works:
        keys = _work_keys(found)
        # publication_year as OpenAlex or a cache may give it ("2025", 2025.0); no year, or none readable, is kept
        year = parse_year(found.work.get("publication_year"), latest_year=date.max.year).year
        if keys & answered:
            left_out["found twice"] += 1
        elif keys & seen:
            left_out["already in the evidence"] += 1
        elif year is not None and year > as_of.year:
            left_out[later] += 1
        else:
            new.append(found)
            seen |= keys
        answered |= keys
    return new, left_out


def _work_keys(found: CitingWork) -> set[str]:
    """The canonical DOI and the OpenAlex id ('W123', however prefixed) of a work, those it has: sharing
    either makes two findings the same publication."""
    work_id = found.work.get("id")
    short_id = short_work_id(work_id.strip()).upper() if isinstance(work_id, str) else None
    return {key for key in (canonical_doi(found.work.get("doi")), short_id) if key}


def _found_note(work_id: str, count: int, where: str) -> str:
    return f"{count} {where} work(s) cite {short_work_id(work_id)}"

