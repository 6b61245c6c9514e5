"""Read an OpenAlex Work into the columns of `openalex_works`: the fields the score uses, the abstract
rebuilt from its inverted index, whether the work is a retraction notice, and its field-and-year citation
percentile. Nothing here depends on `as_of`: what a citation record says as of a date is worked out when scoring
(`reliability.citations`).

Work fields: OpenAlex API reference, "Work object" (`cited_by_count`, `counts_by_year` (last ten years,
years with zero citations left out), `is_retracted`, `publication_year`, `referenced_works`,
`abstract_inverted_index`, `primary_topic`, `type`, `citation_normalized_percentile` ({value in [0, 1],
is_in_top_1_percent, is_in_top_10_percent}: the citation count's percentile among works of the same type, year
and subfield), `cited_by_percentile_year` ({min, max} in 0-100: the percentile range among works of the same year)).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

import pandas as pd

from recon_assets.kg.doi import canonical_doi

# The fields requested with `select` (OpenAlex bills by request, not by field, but smaller pages are faster).
SELECT_FIELDS = (
    "id", "doi", "title", "type", "publication_year", "cited_by_count", "counts_by_year",
    "is_retracted", "referenced_works", "primary_topic", "abstract_inverted_index", "citation_normalized_percentile",
    "cited_by_percentile_year",
)
# The fields requested for a work citing another (`openalex_client.OpenAlexClient.citing_works`): what the judges
# read (title, abstract, year, type) and weigh (cited_by_count), what scores it when evidence expansion adds it to a
# dataset's evidence (citation counts by year, percentile), the citation tag (authorships) and which of the asked-for
# works it cites (referenced_works).
CITING_FIELDS = (
    "id", "doi", "title", "type", "publication_year", "publication_date", "cited_by_count", "counts_by_year",
    "citation_normalized_percentile", "cited_by_percentile_year", "is_retracted", "referenced_works",
    "abstract_inverted_index", "authorships",
)
# Columns of the openalex_works table, in order (sql/openalex_works.sql).
OPENALEX_WORK_COLUMNS = (
    "research_area", "doi", "status", "error", "openalex_id", "openalex_doi", "title", "type", "publication_year",
    "cited_by_count", "counts_by_year", "citation_percentile_low", "citation_percentile_high", "is_retracted",
    "is_retraction_notice", "referenced_works", "primary_topic", "abstract", "fetched_at",
)
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


def citation_percentile(work: Mapping[str, Any]) -> tuple[float | None, float | None]:
    """(low, high) bounds of the work's field-and-year citation percentile in [0, 1], or (None, None).

    `citation_normalized_percentile.value` (same type, year and subfield) gives both bounds; without it the
    year-only `cited_by_percentile_year` {min, max} (0-100) gives a range, read conservatively by each use (the
    FOUNDATIONAL gate needs the low bound over its bar, "bottom half" the high bound under 0.5).
    """
    normalized = work.get("citation_normalized_percentile")
    if isinstance(normalized, Mapping) and isinstance(normalized.get("value"), (int, float)):
        return float(normalized["value"]), float(normalized["value"])
    by_year = work.get("cited_by_percentile_year")
    if isinstance(by_year, Mapping) and all(isinstance(by_year.get(bound), (int, float)) for bound in ("min", "max")):
        return by_year["min"] / 100.0, by_year["max"] / 100.0
    return None, None


def work_columns(work: Mapping[str, Any]) -> dict[str, Any]:
    """The `openalex_works` columns of a found work (see TABLE_DOCS["openalex_works"]).

    JSON-valued columns (counts_by_year, primary_topic) are JSON text; referenced_works is a list of ids.
    """
    low, high = citation_percentile(work)
    return {
        "openalex_id": work.get("id"),
        "openalex_doi": canonical_doi(work.get("doi")),
        "title": work.get("title"),
        "type": work.get("type"),
        "publication_year": work.get("publication_year"),
        "cited_by_count": work.get("cited_by_count"),
        "counts_by_year": json.dumps(work.get("counts_by_year") or []),
        "citation_percentile_low": low,
        "citation_percentile_high": high,
        "is_retracted": bool(work.get("is_retracted")),
        "is_retraction_notice": is_retraction_notice(work),
        "referenced_works": list(work.get("referenced_works") or []),
        "primary_topic": json.dumps(work["primary_topic"]) if work.get("primary_topic") else None,
        "abstract": rebuild_abstract(work.get("abstract_inverted_index")),
    }


def openalex_rows(requested: pd.DataFrame, cache: pd.DataFrame, errors: Mapping[str, str]) -> pd.DataFrame:
    """One `openalex_works` row per requested (research_area, doi): from the cache when it holds the DOI,
    else an `error` row with the fetch's error text.

    Args:
        requested: columns research_area, doi (canonical).
        cache: openalex_cache rows (doi, status found / not_found, work as JSON text or NULL, fetched_at).
        errors: {doi: error text} of this fetch, for DOIs the cache does not hold.

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
                row |= work_columns(work)
        rows.append(row)
    return pd.DataFrame(rows, columns=list(OPENALEX_WORK_COLUMNS))
