"""Every edge's signals as of one date: what the weights and label thresholds do not change (DOMAIN.md "The score"
and "Labels are findings").

    recency     = max(0, 1 - age/20) (linear) | max(0, 1 - log(1+age)/log(21)) (log) | 1 (none)
    citation    = min(1, log1p(n)/log1p(10000)), n = OpenAlex citations up to as_of (`citations`)
    centrality  = PageRank centrality and citation centrality combined by the centrality rule

and the evidence each rests on: a citation record, KG citations, the field-and-year percentile, recent citations, a
retraction, the dataset version superseded on or before as_of. Nothing dated after as_of is used.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

import numpy as np
import pandas as pd

from recon_assets.centrality.centrality_rule import combine_centrality
from recon_assets.centrality.citation_centrality import citation_centrality
from recon_assets.lifecycle.lineage import supersession_day
from recon_assets.reliability.citations import citation_records, has_year_breakdown
from recon_assets.reliability.settings import DECAYS, Decay, ScoringSettings

# Age at which linear recency reaches 0 and the log decay's normaliser log(1 + 20) (DOMAIN.md "recency").
DECAY_HORIZON_YEARS = 20


def age_years(year: object, as_of: date) -> float | np.ndarray:
    """Whole years between publication and `as_of` (never negative: in-press papers have age 0); NaN when the year
    is unknown (None, NA, NaN). `year` is a scalar (a float is returned) or array-like of shape (n,) (an array)."""
    years = pd.array(np.atleast_1d(np.asarray(year, dtype=object)), dtype="Float64").to_numpy(dtype=float, na_value=np.nan)
    ages = np.maximum(0.0, as_of.year - np.floor(years))
    return ages if np.ndim(year) else float(ages[0])


def recency(age: np.ndarray | float, decay: Decay) -> np.ndarray:
    """Age decay in [0, 1] (DOMAIN.md): none -> 1; linear -> max(0, 1 - age/20); log -> max(0, 1 - log(1+age)/log(21)).

    Args:
        age: years, shape (n,) or scalar; a negative age counts as 0. Under linear and log decay NaN (unknown year)
            gives 0, the conservative value: a paper whose age we cannot tell earns no recency credit (the reason
            says so). Under 'none' age plays no part, so every edge gets 1.
        decay: 'none', 'linear' or 'log'.

    Raises:
        ValueError: unknown decay.
    """
    age = np.maximum(np.asarray(age, dtype=float), 0.0)
    if decay == "none":
        return np.ones_like(age)
    if decay == "linear":
        values = np.maximum(0.0, 1.0 - age / DECAY_HORIZON_YEARS)
    elif decay == "log":
        values = np.maximum(0.0, 1.0 - np.log1p(age) / np.log1p(DECAY_HORIZON_YEARS))
    else:
        raise ValueError(f"decay must be one of {DECAYS}, got {decay!r}")
    return np.where(np.isnan(age), 0.0, values)


def superseded_before(since: object, as_of: date) -> bool:
    """Whether a dataset superseded `since` (dataset_lineage.superseded_since: 'YYYY-MM-DD', 'YYYY', or 'by
    YYYY-MM-DD' for a supersession whose date is unknown, dated by the first record of it) was already superseded
    on `as_of`. A supersession does not count before the evidence of it (issue 20): 'by ...' counts from that record's
    day, and one that nothing dates (None / NA) does not count at all, as an undated citing work is no evidence
    (nothing may say it came before as_of). A year counts from its first day.

    Raises:
        ValueError: `since` is text in none of these forms (`lineage.supersession_day`).
    """
    day = supersession_day(since)
    return day is not None and day <= as_of


def retraction(openalex_retracted: bool, crossref_notices: Sequence[str], is_notice: bool) -> str | None:
    """Why the publication counts as retracted ('OpenAlex is_retracted', 'Crossref notice <doi>', or both joined by
    '; '), or None. A retraction notice is never a retracted finding, whatever the flags say."""
    if is_notice:
        return None
    sources = (["OpenAlex is_retracted"] if openalex_retracted else []) + [f"Crossref notice {doi}" for doi in crossref_notices]
    return "; ".join(sources) or None


@dataclass(frozen=True)
class EdgeSignals:
    """Every edge's signals under one as_of and settings (`edge_signals`): all `labels.label_edges` needs
    whatever the weights. `frame` keeps the row order of the edges."""

    frame: pd.DataFrame
    as_of: date
    settings: ScoringSettings


def edge_signals(edges: pd.DataFrame, *, as_of: date, settings: ScoringSettings) -> EdgeSignals:
    """The signals and evidence of every edge as of `as_of`.

    Args:
        edges: one row per Dataset→Publication edge (recon_assets/reliability/sql/edges_in_research_areas.sql plus the coherence columns of
            `edge_scores`): kg_year (Int64, NA allowed), year_issue, pagerank_centrality in [0, 1], kg_citations
            and kg_recent_citations (incoming KG CITES dated up to as_of, and within the recent years), OpenAlex
            openalex_status, cited_by_count, counts_by_year, openalex_fetched_at, openalex_year, openalex_retracted,
            retraction_notice, percentile_low / percentile_high (field-and-year citation percentile in [0, 1], NaN
            when OpenAlex gives none), crossref_notice_dois (NA when not checked), dataset_superseded and
            superseded_since (dataset_lineage), coherence and coherence_status.

    Returns:
        EdgeSignals whose frame is `edges` plus publication_year, year_source, age, recency, citation_record,
        citations_from_page (the record is a count composed from a public page, not an OpenAlex answer), citations_as_of, recent_citations, citation_trend, citation_centrality, centrality, centrality_source,
        centrality_evidence, field_percentile_low / _high (NaN when not usable as of as_of), recent, cited_recently,
        is_retracted, retraction_source, superseded_as_of and lifecycle_penalty.
    """
    scored = edges.copy()
    kg_year = scored["kg_year"].astype("Int64")
    openalex_year = scored["openalex_year"].astype("Int64")
    scored["publication_year"] = kg_year.fillna(openalex_year)
    scored["year_source"] = np.where(kg_year.notna(), "kg", np.where(openalex_year.notna(), "openalex", None))
    scored["age"] = age_years(scored["publication_year"], as_of)
    scored["recency"] = recency(scored["age"], settings.decay)
    thresholds = settings.thresholds
    found = (scored["openalex_status"] == "found").fillna(False).to_numpy(dtype=bool)
    records = citation_records(
        scored["cited_by_count"].where(found), scored["counts_by_year"].where(found), scored["openalex_fetched_at"].where(found),
        scored["publication_year"], as_of=as_of, recent_years=thresholds.recent_citation_years,
    )
    scored["citation_record"] = records.known
    # a count composed from a public page (no years, no OpenAlex answer): the reasons name where it was seen
    scored["citations_from_page"] = found & ~has_year_breakdown(scored["counts_by_year"].to_numpy(dtype=object))
    scored["citations_as_of"], scored["recent_citations"], scored["citation_trend"] = records.count, records.recent, records.trend
    scored["citation_centrality"] = citation_centrality(records.count)
    kg_citations = scored["kg_citations"].fillna(0).to_numpy(dtype=float)
    # A PageRank of a publication no KG publication cites up to as_of is no evidence, not low centrality: it does not
    # count (issue 24: one such PageRank added 0.08 to a score whose reason called it no evidence).
    pagerank = np.where(kg_citations > 0, scored["pagerank_centrality"].to_numpy(dtype=float), np.nan)
    scored["centrality"], scored["centrality_source"] = combine_centrality(pagerank, scored["citation_centrality"], settings.centrality_rule)
    scored["centrality_evidence"] = records.known | (kg_citations > 0)
    # The percentile is as of the fetch: a record fetched in a later year than as_of's has seen later citations.
    fetched_year = pd.to_datetime(scored["openalex_fetched_at"], utc=True).dt.year.to_numpy(dtype=float, na_value=np.nan)
    usable = records.known & (fetched_year <= as_of.year)
    for bound in ("low", "high"):
        scored[f"field_percentile_{bound}"] = np.where(usable, scored[f"percentile_{bound}"].astype(float), np.nan)
    scored["recent"] = scored["recency"].to_numpy() >= thresholds.current_recency
    scored["cited_recently"] = (np.nan_to_num(records.recent) > 0) | (scored["kg_recent_citations"].fillna(0).to_numpy(dtype=float) > 0)
    sources = [
        retraction(bool(flag), notices if isinstance(notices, (list, tuple, np.ndarray)) else (), bool(notice))
        for flag, notices, notice in zip(
            scored["openalex_retracted"].to_numpy(dtype=object),
            scored["crossref_notice_dois"].to_numpy(dtype=object),
            scored["retraction_notice"].to_numpy(dtype=object),
        )
    ]
    scored["is_retracted"] = [source is not None for source in sources]
    scored["retraction_source"] = sources
    scored["superseded_as_of"] = [
        bool(flag) and superseded_before(since, as_of)
        for flag, since in zip(scored["dataset_superseded"].to_numpy(dtype=object), scored["superseded_since"].to_numpy(dtype=object))
    ]
    scored["lifecycle_penalty"] = np.where(scored["superseded_as_of"], settings.lifecycle_penalty, 0.0)
    return EdgeSignals(scored, as_of, settings)

