"""Read an OpenAlex Work into the columns of `openalex_works`: the fields the score uses, the abstract
rebuilt from its inverted index, whether the work is a retraction notice, and its citation trend.

Work fields: OpenAlex API reference, "Work object" (`cited_by_count`, `counts_by_year` (last ten years,
years with zero citations left out), `is_retracted`, `publication_year`, `referenced_works`,
`abstract_inverted_index`, `primary_topic`, `type`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import date
from typing import Any

import pandas as pd

from recon_assets.kg.doi import canonical_doi

# The fields requested with `select` (OpenAlex bills by request, not by field, but smaller pages are faster).
SELECT_FIELDS = (
    "id", "doi", "title", "type", "publication_year", "cited_by_count", "counts_by_year",
    "is_retracted", "referenced_works", "primary_topic", "abstract_inverted_index",
)
# Columns of the openalex_works table, in order (sql/openalex_works.sql).
OPENALEX_WORK_COLUMNS = (
    "research_area", "doi", "status", "error", "openalex_id", "openalex_doi", "title", "type", "publication_year",
    "cited_by_count", "counts_by_year", "citation_trend", "is_retracted", "is_retraction_notice",
    "referenced_works", "primary_topic", "abstract", "fetched_at",
)
# Citation trend windows (see `citation_trend`): the last 3 complete years against the 3 before them.
TREND_WINDOW_YEARS = 3
# Fewer citations than this in both windows together tell no trend: 1 citation against 0 is not a rise.
MIN_TREND_CITATIONS = 5
# Titles of retraction notices ("Retraction Note: ...", "Retraction—...", "Notice of Retraction ..."): the
# notice is a current document about another paper, though OpenAlex sets is_retracted on some of them
# (seen on the real records: W4381149761 "Retraction Note: Data-driven EUR ...", type article).
# "RETRACTED ARTICLE: ..." is the retracted paper itself and does not match.
_NOTICE_TITLE = re.compile(r"^\W*(?:retraction(?:\s+(?:note|notice))?\b|notice\s+of\s+retraction\b)", re.IGNORECASE)


def rebuild_abstract(inverted_index: Mapping[str, list[int]] | None) -> str | None:
    """The abstract text from OpenAlex's `abstract_inverted_index` ({word: [positions]}).

    Every word is placed at each of its positions, so repeated words come back where they were:
    {"Data": [0], "is": [1, 5], "complex": [2], "and": [3], "it": [4], "multi-step": [6]} gives
    "Data is complex and it is multi-step". A null or empty index gives None (OpenAlex has no abstract).
    """
    if not inverted_index:
        return None
    placed = sorted((position, word) for word, positions in inverted_index.items() for position in positions)
    return " ".join(word for _, word in placed)


def is_retraction_notice(work: Mapping[str, Any]) -> bool:
    """True when the work is a retraction notice (OpenAlex type 'retraction', or a notice's title), not a finding."""
    return work.get("type") == "retraction" or bool(_NOTICE_TITLE.match(work.get("title") or ""))


def citation_trend(
    counts_by_year: list[Mapping[str, int]] | None, *, publication_year: int | None, reference_year: int
) -> float | None:
    """Relative change of the yearly citation rate: the last 3 complete years against the 3 before them.

        recent  = citations per year in [R-3, R-1]
        earlier = citations per year in [max(P, R-6), R-4]       (P = publication year, R = reference year)
        trend   = (recent - earlier) / max(recent, earlier)       in [-1, 1]

    -1 means citations stopped, 0 a steady rate, +1 citations only recently (a growing paper); -0.5 means
    the rate halved. Years OpenAlex leaves out of `counts_by_year` count as 0 (it omits zero years).

    Args:
        counts_by_year: OpenAlex `counts_by_year`, [{"year": int, "cited_by_count": int}, ...].
        publication_year: the work's year; years before it are not part of the earlier window.
        reference_year: R, the first year not counted (incomplete): the smaller of as_of's year and the year
            the record was fetched, so a stale record is not read as a decline.

    Returns:
        The trend, or None when the earlier window is empty (published after R-4: too young to tell) or both
        windows together hold fewer than MIN_TREND_CITATIONS citations.
    """
    counts = {int(entry["year"]): int(entry["cited_by_count"]) for entry in counts_by_year or []}
    earlier_years = range(max(publication_year or 0, reference_year - 2 * TREND_WINDOW_YEARS), reference_year - TREND_WINDOW_YEARS)
    recent_years = range(reference_year - TREND_WINDOW_YEARS, reference_year)
    if not earlier_years:
        return None
    earlier_total = sum(counts.get(year, 0) for year in earlier_years)
    recent_total = sum(counts.get(year, 0) for year in recent_years)
    if earlier_total + recent_total < MIN_TREND_CITATIONS:
        return None
    earlier, recent = earlier_total / len(earlier_years), recent_total / len(recent_years)
    return (recent - earlier) / max(recent, earlier)


def work_columns(work: Mapping[str, Any], *, reference_year: int) -> dict[str, Any]:
    """The `openalex_works` columns of a found work (see TABLE_DOCS["openalex_works"]).

    JSON-valued columns (counts_by_year, primary_topic) are JSON text; referenced_works is a list of ids.
    """
    year = work.get("publication_year")
    return {
        "openalex_id": work.get("id"),
        "openalex_doi": canonical_doi(work.get("doi")),
        "title": work.get("title"),
        "type": work.get("type"),
        "publication_year": year,
        "cited_by_count": work.get("cited_by_count"),
        "counts_by_year": json.dumps(work.get("counts_by_year") or []),
        "citation_trend": citation_trend(work.get("counts_by_year"), publication_year=year, reference_year=reference_year),
        "is_retracted": bool(work.get("is_retracted")),
        "is_retraction_notice": is_retraction_notice(work),
        "referenced_works": list(work.get("referenced_works") or []),
        "primary_topic": json.dumps(work["primary_topic"]) if work.get("primary_topic") else None,
        "abstract": rebuild_abstract(work.get("abstract_inverted_index")),
    }


def openalex_rows(requested: pd.DataFrame, cache: pd.DataFrame, errors: Mapping[str, str], *, as_of: date) -> pd.DataFrame:
    """One `openalex_works` row per requested (research_area, doi): from the cache when it holds the DOI,
    else an `error` row with the fetch's error text.

    Args:
        requested: columns research_area, doi (canonical).
        cache: openalex_cache rows (doi, status found / not_found, work as JSON text or NULL, fetched_at).
        errors: {doi: error text} of this fetch, for DOIs the cache does not hold.
        as_of: the citation trend is measured up to the smaller of as_of's year and the year of fetched_at.

    Returns:
        DataFrame with the columns of `OPENALEX_WORK_COLUMNS`, in `requested` order.
    """
    by_doi = {row.doi: row for row in cache.itertuples(index=False)}
    rows = []
    for area, doi in zip(requested["research_area"], requested["doi"]):
        row = dict.fromkeys(OPENALEX_WORK_COLUMNS) | {"research_area": area, "doi": doi}
        cached = by_doi.get(doi)
        if cached is None:
            row |= {"status": "error", "error": errors.get(doi, "not fetched")}
        else:
            row |= {"status": cached.status, "fetched_at": cached.fetched_at}
            if cached.status == "found":
                work = json.loads(cached.work) if isinstance(cached.work, str) else cached.work
                row |= work_columns(work, reference_year=min(as_of.year, pd.Timestamp(cached.fetched_at).year))
        rows.append(row)
    return pd.DataFrame(rows, columns=list(OPENALEX_WORK_COLUMNS))
