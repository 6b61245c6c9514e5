"""A publication's citation record as of `as_of`: OpenAlex's yearly counts cut at as_of, the count up to as_of,
the recent citations and the citation trend, vectorised over many publications.

OpenAlex gives `cited_by_count` (every citation when the record was fetched) and `counts_by_year` (citations per
year for the last ten years, years without citations left out; OpenAlex API reference, "Work object").
DOMAIN.md: nothing dated after `as_of` is evidence. So a citation year counts when it ended before as_of's year,
or when it is as_of's own year and the record was fetched on or before as_of (nothing in it is then later than
as_of); the later years are taken off `cited_by_count`. When as_of is so far before the fetch that a later year
may be missing from the ten listed, the count cannot be taken back to as_of: no citation record. Recent citations
need a record fetched in as_of's year or the year before: an older record has not seen them.

A record without a year breakdown (`counts_by_year` null: a count composed from a public page, which shows one total
and no years) cannot be taken back at all: its count is visible from the day it was seen (`fetched_at`: the page's
date, or the day the page was read when it shows none) and never before (`count_visible`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

import numpy as np
import pandas as pd

# OpenAlex lists counts_by_year for the last ten years ("Work object").
LISTED_YEARS = 10
# Citation trend windows: the last 3 complete years against the 3 before them.
TREND_WINDOW_YEARS = 3
# Fewer citations than this in both trend windows together tell no trend: 1 citation against 0 is not a rise.
MIN_TREND_CITATIONS = 5


@dataclass(frozen=True)
class CitationRecords:
    """Citation records of n publications as of one date, each of shape (n,).

    known: the record's count can be read as of as_of (`count_visible`).
    count: citations up to as_of (cited_by_count less the years after it); NaN when not known.
    recent: citations in the recent years before as_of (as_of's own year included when it counts); NaN when not
        known or the record is too old to have seen them.
    trend: `citation_trends`; NaN when not known, too young or too few citations to tell.
    """

    known: np.ndarray
    count: np.ndarray
    recent: np.ndarray
    trend: np.ndarray


def year_matrix(counts_by_year: Sequence[object], first_year: int, last_year: int) -> np.ndarray:
    """Dense yearly counts, shape (n, last_year - first_year + 1): column j holds year first_year + j.

    Args:
        counts_by_year: per publication, OpenAlex `counts_by_year` as a list of {"year", "cited_by_count"} or its
            JSON text; None / NA for no record (a row of zeros). Years outside the span are dropped.

    Raises:
        ValueError: JSON text that does not parse (the enrichment validates records before storing them, so
            this means a corrupt table).
        KeyError, TypeError: an entry without integer year and cited_by_count (likewise).
    """
    matrix = np.zeros((len(counts_by_year), max(last_year - first_year + 1, 0)), dtype=np.int64)
    parsed: dict[str, list] = {}  # many edges share one publication's text
    for row, entries in enumerate(counts_by_year):
        if isinstance(entries, str):
            entries = parsed[entries] if entries in parsed else parsed.setdefault(entries, json.loads(entries))
        if not isinstance(entries, (list, tuple, np.ndarray)):
            continue
        for entry in entries:
            year = int(entry["year"])
            if first_year <= year <= last_year:
                matrix[row, year - first_year] += int(entry["cited_by_count"])
    return matrix


def has_year_breakdown(counts_by_year: Sequence[object]) -> np.ndarray:
    """Whether each record gives its citations by year, shape (n,): a list (OpenAlex's `counts_by_year`, empty when
    no listed year has a citation) or its JSON text. None / NA / JSON null is a record without years (a count composed
    from a public page) or no record."""
    return np.array([
        entries.lstrip().startswith("[") if isinstance(entries, str) else isinstance(entries, (list, tuple, np.ndarray))
        for entries in counts_by_year
    ], dtype=bool)


def count_visible(has_breakdown: np.ndarray, fetched_at: pd.Series, as_of: date) -> np.ndarray:
    """Whether each record's count can be read as of `as_of`, shape (n,) (DOMAIN.md: nothing dated after as_of is
    evidence).

    - With a year breakdown (OpenAlex's `counts_by_year`): when the record was fetched fewer than LISTED_YEARS years
      after as_of's year, so that every year after as_of is among the ten listed and can be taken off the count.
    - Without one (a count seen on a page, one total): only from the day it was seen, `fetched_at` (the page's date,
      else the day it was read), on or after which as_of must fall; before that day the work has no citation evidence,
      however old the citations it counts may be.

    Args:
        has_breakdown: shape (n,), `has_year_breakdown`.
        fetched_at: shape (n,), UTC timestamps (NaT without a record: never visible).
    """
    fetched_year = fetched_at.dt.year.to_numpy(dtype=float, na_value=np.nan)
    # seen on or before as_of's day (UTC): before the next midnight
    seen_by_as_of = (fetched_at < pd.Timestamp(as_of, tz="UTC") + pd.Timedelta(days=1)).fillna(False).to_numpy(dtype=bool)
    takes_back = np.isfinite(fetched_year) & (fetched_year - as_of.year < LISTED_YEARS)
    return np.where(has_breakdown, takes_back, seen_by_as_of)


def citation_records(
    cited_by_count: Sequence[float],
    counts_by_year: Sequence[object],
    fetched_at: Sequence[object],
    publication_year: Sequence[float],
    *,
    as_of: date,
    recent_years: int,
) -> CitationRecords:
    """The citation record of each publication as of `as_of` (module docstring).

    Args:
        cited_by_count: shape (n,), OpenAlex cited_by_count; NaN / NA without a record.
        counts_by_year: shape (n,), see `year_matrix`; None / JSON null for a record without years (`count_visible`).
        fetched_at: shape (n,), when each record was fetched, or a page's count seen (timestamps; NaT / None without
            one).
        publication_year: shape (n,), NaN / NA when unknown.
        recent_years: how many years before as_of count as recent (DOMAIN.md: 3).

    Returns:
        CitationRecords of shape (n,) each.
    """
    count = pd.to_numeric(pd.Series(list(cited_by_count), dtype=object), errors="coerce").to_numpy(dtype=float)
    fetched = pd.to_datetime(pd.Series(list(fetched_at), dtype=object), utc=True)
    fetched_year = fetched.dt.year.to_numpy(dtype=float, na_value=np.nan)
    # fetched on or before as_of's day (UTC): before the next midnight
    fetched_by_as_of = (fetched < pd.Timestamp(as_of, tz="UTC") + pd.Timedelta(days=1)).fillna(False).to_numpy(dtype=bool)
    by_year = has_year_breakdown(counts_by_year)
    # The trend stops at the smaller of as_of's year and the fetch year: a stale record is not read as a decline.
    reference_year = np.minimum(as_of.year, np.nan_to_num(fetched_year, nan=as_of.year)).astype(int)
    first = int(min(reference_year.min(initial=as_of.year), as_of.year - recent_years)) - 2 * TREND_WINDOW_YEARS
    last = int(max(np.nanmax(fetched_year, initial=as_of.year), as_of.year))
    matrix = year_matrix(counts_by_year, first, last)
    this_year = matrix[:, as_of.year - first]
    later = matrix[:, as_of.year - first + 1 :].sum(axis=1) + np.where(fetched_by_as_of, 0, this_year)
    known = np.isfinite(count) & count_visible(by_year, fetched, as_of)
    recent = _window_sums(matrix, first, np.full(len(count), as_of.year - recent_years), np.full(len(count), as_of.year - 1))
    recent = recent + np.where(fetched_by_as_of, this_year, 0)
    # without years nothing says which citations are recent, nor how the rate changed
    seen_recent = known & by_year & (fetched_year >= as_of.year - 1)
    trend = citation_trends(matrix, first, reference_year, pd.to_numeric(pd.Series(list(publication_year), dtype=object), errors="coerce").to_numpy(dtype=float))
    return CitationRecords(
        known=known,
        count=np.where(known, np.maximum(count - later, 0.0), np.nan),
        recent=np.where(seen_recent, recent, np.nan),
        trend=np.where(known & by_year, trend, np.nan),
    )


def citation_trends(matrix: np.ndarray, first_year: int, reference_year: np.ndarray, publication_year: np.ndarray) -> np.ndarray:
    """Relative change of each publication's yearly citation rate: the last 3 complete years against the 3 before.

        recent  = citations per year in [R-3, R-1]
        earlier = citations per year in [max(P, R-6), R-4]       (P = publication year, R = reference year)
        trend   = (recent - earlier) / max(recent, earlier)       in [-1, 1]

    -1 means citations stopped, 0 a steady rate, +1 citations only recently; -0.5 means the rate halved.

    Args:
        matrix: yearly counts, shape (n, years), column j = year first_year + j (`year_matrix`); it must span
            R-6..R-1 of every row.
        reference_year: R per row, shape (n,): the first year not counted (incomplete).
        publication_year: P per row, shape (n,), NaN when unknown (then the earlier window is R-6..R-4).

    Returns:
        shape (n,); NaN where the earlier window is empty (published after R-4: too young to tell) or both windows
        together hold fewer than MIN_TREND_CITATIONS citations.
    """
    reference = np.asarray(reference_year, dtype=int)
    published = np.asarray(publication_year, dtype=float)
    start = np.where(np.isfinite(published), np.maximum(np.nan_to_num(published, nan=0), reference - 2 * TREND_WINDOW_YEARS), reference - 2 * TREND_WINDOW_YEARS).astype(int)
    earlier_years = reference - TREND_WINDOW_YEARS - start
    earlier_total = _window_sums(matrix, first_year, start, reference - TREND_WINDOW_YEARS - 1)
    recent_total = _window_sums(matrix, first_year, reference - TREND_WINDOW_YEARS, reference - 1)
    enough = (earlier_years > 0) & (earlier_total + recent_total >= MIN_TREND_CITATIONS)
    earlier = earlier_total / np.maximum(earlier_years, 1)
    recent = recent_total / TREND_WINDOW_YEARS
    with np.errstate(invalid="ignore", divide="ignore"):
        trend = (recent - earlier) / np.maximum(recent, earlier)
    return np.where(enough, trend, np.nan)


def _window_sums(matrix: np.ndarray, first_year: int, start: np.ndarray, stop: np.ndarray) -> np.ndarray:
    """Per row, the sum of the counts of years start..stop (inclusive; 0 when stop < start), shape (n,)."""
    cumulative = np.concatenate([np.zeros((matrix.shape[0], 1), dtype=np.int64), np.cumsum(matrix, axis=1)], axis=1)
    rows = np.arange(matrix.shape[0])
    low = np.clip(np.asarray(start) - first_year, 0, matrix.shape[1])
    high = np.clip(np.asarray(stop) - first_year + 1, 0, matrix.shape[1])
    return np.where(high > low, cumulative[rows, high] - cumulative[rows, low], 0).astype(float)
