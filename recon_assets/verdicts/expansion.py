"""Evidence expansion for INSUFFICIENT datasets: more publications, those that cite the dataset's DOI.

A dataset DOI is resolved to its OpenAlex work id, and the works whose `referenced_works` hold that id are
the new evidence (OpenAlex API reference, "Work object" `referenced_works`; filter `cites:`). Both rounds read what
the enrichment layer stored; nothing here asks OpenAlex:

- round 1, `cached_citing_works`: the openalex_cache table (the dataset DOI's cached work, then the cached works
  referencing it);
- round 2, `enriched_citing_works`: the works OpenAlex lists as citing the dataset DOI, fetched and cached by the
  `openalex_citing_works` asset (its rows with cited_kind 'dataset').

`expand` runs the rounds, at most `VerdictRules.expansion_rounds`, for the datasets still insufficient
after each. A citing work counts once: one already among a dataset's edges, found by an earlier round, or
found twice in one answer (same DOI in another spelling, same OpenAlex id) is left out, and so is a work
published after `as_of` (its year later than as_of's: it was not evidence then). A round that could not
look (OpenAlex not asked for the DOI: offline, budget spent, an error; a dataset without a DOI) is recorded as not run
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

from recon_assets.enrichment.citing_works import FETCHED, NONE, NOT_IN_OPENALEX
from recon_assets.enrichment.openalex_client import FOUND, short_work_id
from recon_assets.enrichment.openalex_records import invalid_reason, is_retraction_notice, work_columns
from recon_assets.judgement.verdict_scale import NEUTRAL_COHERENCE, UNVERIFIED
from recon_assets.kg.authors import citation_tag
from recon_assets.kg.doi import canonical_doi
from recon_assets.kg.years import parse_year
from recon_assets.storage.tables import Tables
from recon_assets.verdicts.critic import Edge, ExpansionRound, VerdictRules

CACHE_SOURCE, ENRICHMENT_SOURCE = "OpenAlex cache", "OpenAlex citing works"
# A publication not in the KG has no PageRank: the centrality of an isolated node (the log scale's floor).
NO_PAGERANK_CENTRALITY = 0.0


@dataclass(frozen=True)
class CitingWork:
    """A work citing a dataset DOI: its `openalex_works` columns (`openalex_records.work_columns`), its citation
    tag ('[Chen et al., 2023]') and when OpenAlex answered."""

    columns: dict[str, Any]
    citation: str
    fetched_at: datetime


@dataclass(frozen=True)
class CitingWorks:
    """What one round found for one dataset DOI: the citing works, a note saying what it found or why nothing,
    and whether the round could look at all (False: OpenAlex not asked, an error, a spent budget; the note says which)."""

    works: tuple[CitingWork, ...]
    note: str
    ran: bool = True


Lookup = Callable[[list[str]], Mapping[str, CitingWorks]]


def cached_citing_works(con: duckdb.DuckDBPyConnection | Tables, dataset_dois: Sequence[str]) -> dict[str, CitingWorks]:
    """Round 1: for each dataset DOI, the cached works whose referenced_works hold the OpenAlex id of the
    DOI's own cached work, leaving out a cached work that no longer meets its schema (`openalex_records.invalid_reason`).
    The openalex_cache table must exist.

    Returns:
        {dataset DOI: CitingWorks}, one entry per DOI of `dataset_dois`.
    """
    con = Tables.of(con)
    targets = dict(con.query_rows("expansion_cached_targets", [FOUND, list(dataset_dois)]))
    citing: dict[str, list[CitingWork]] = {}
    if targets:
        rows = con.query_rows("expansion_cached_citing", [list(targets), list(targets.values()), FOUND])
        for dataset_doi, work, fetched_at in rows:
            record = json.loads(work)
            if invalid_reason(record):  # cached by an older version and no longer valid: no evidence (asked again when due)
                continue
            columns = work_columns(record)
            # the works cache keeps the `select`ed fields only, without authorships: the work is cited by its title
            # (by its DOI when it has none), as a paper without an author (`kg.authors.citation_tag`)
            title = columns.get("title")
            tag = citation_tag([], columns["publication_year"], columns["openalex_doi"] or columns["openalex_id"],
                               title if isinstance(title, str) else None)
            citing.setdefault(dataset_doi, []).append(CitingWork(columns, tag, fetched_at))
    return {
        doi: CitingWorks(tuple(citing.get(doi, ())), _found_note(targets[doi], len(citing.get(doi, ())), "cached"))
        if doi in targets else CitingWorks((), "the dataset DOI is not in the OpenAlex cache")
        for doi in dataset_dois
    }


def enriched_citing_works(con: duckdb.DuckDBPyConnection | Tables, dataset_dois: Sequence[str]) -> dict[str, CitingWorks]:
    """Round 2: for each dataset DOI, the works the openalex_citing_works table lists as citing it (any research
    area; each work once). The round ran when OpenAlex was asked (status fetched or none) or has no work with the
    DOI; it did not run when the DOI was not asked (the table's note says why) or the table has no row for it.

    Returns:
        {dataset DOI: CitingWorks}, one entry per DOI of `dataset_dois`.
    """
    con = Tables.of(con)
    con.create("openalex_citing_works")
    rows = con.query("expansion_enriched_citing", [list(dataset_dois)])
    found: dict[str, CitingWorks] = {}
    for doi in dataset_dois:
        mine = rows[rows["cited_doi"] == doi]
        if mine.empty:
            found[doi] = CitingWorks((), "openalex_citing_works has no row for the dataset DOI (materialize it)", ran=False)
            continue
        status, note = mine["status"].iloc[0], mine["note"].iloc[0]
        if status == FETCHED:
            works = tuple(_enriched_work(row) for row in mine.itertuples(index=False))
            found[doi] = CitingWorks(works, _found_note(mine["cited_openalex_id"].iloc[0], len(works), "OpenAlex"))
        elif status in (NONE, NOT_IN_OPENALEX):
            found[doi] = CitingWorks((), note)
        else:
            found[doi] = CitingWorks((), f"not asked: {note}", ran=False)
    return found


def _enriched_work(row: Any) -> CitingWork:
    """A CitingWork from an openalex_citing_works row."""
    columns = {
        "openalex_id": f"https://openalex.org/{row.citing_openalex_id}",
        "openalex_doi": row.citing_doi if isinstance(row.citing_doi, str) else None,
        "title": row.citing_title,
        "type": row.citing_type,
        "publication_year": None if pd.isna(row.citing_year) else int(row.citing_year),
        "cited_by_count": None if pd.isna(row.citing_cited_by_count) else int(row.citing_cited_by_count),
        "counts_by_year": row.citing_counts_by_year,
        "citation_percentile_low": None if pd.isna(row.citing_percentile_low) else float(row.citing_percentile_low),
        "citation_percentile_high": None if pd.isna(row.citing_percentile_high) else float(row.citing_percentile_high),
        "is_retracted": bool(row.citing_is_retracted),
        "is_retraction_notice": is_retraction_notice({"type": row.citing_type, "title": row.citing_title}),
    }
    return CitingWork(columns, row.citing_citation, row.fetched_at)


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
        columns = found.columns
        doi = columns["openalex_doi"]
        rows.append({
            **dataset,
            "publication_id": doi or columns["openalex_id"],
            "publication_doi": doi,
            "citation": found.citation,
            "kg_year": pd.NA,
            "year_issue": "not in the KG (found citing the dataset DOI in OpenAlex)",
            "pagerank_centrality": NO_PAGERANK_CENTRALITY,
            "kg_citations": 0,
            "kg_recent_citations": 0,
            "coherence": NEUTRAL_COHERENCE,
            "coherence_status": UNVERIFIED,
            "coherence_evidence": None,
            "coherence_judges": None,
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
        year = parse_year(found.columns.get("publication_year"), latest_year=date.max.year).year
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
    work_id = found.columns.get("openalex_id")
    short_id = short_work_id(work_id.strip()).upper() if isinstance(work_id, str) else None
    return {key for key in (canonical_doi(found.columns.get("openalex_doi")), short_id) if key}


def _found_note(work_id: str, count: int, where: str) -> str:
    return f"{count} {where} work(s) cite {short_work_id(work_id)}"

