"""A citation record as of a date: yearly counts cut at as_of, the count up to it, recent citations, the trend."""

from datetime import date, datetime, timezone

import numpy as np
import pandas as pd
import pytest

from recon_assets.reliability.citations import citation_records, citation_trends, count_visible, has_year_breakdown, year_matrix

from recon_assets_tests.fake_openalex import real_works

WORKS = {work["id"].rsplit("/", 1)[1]: work for work in real_works()}
FETCHED = datetime(2026, 3, 1, tzinfo=timezone.utc)


def _counts(**by_year: int) -> list[dict]:
    return [{"year": int(year[1:]), "cited_by_count": count} for year, count in by_year.items() if count]


def _trend(counts, publication_year, reference_year=2026) -> float:
    matrix = year_matrix([counts], 2010, 2026)
    return float(citation_trends(matrix, 2010, np.array([reference_year]), np.array([publication_year], dtype=float))[0])


@pytest.mark.parametrize(
    ("counts", "publication_year", "expected"),
    [
        # rate halved: 10 a year in 2020-2022, 5 a year in 2023-2025
        (_counts(y2020=10, y2021=10, y2022=10, y2023=5, y2024=5, y2025=5), 2015, -0.5),
        (_counts(y2020=4, y2021=4, y2022=4, y2023=4, y2024=4, y2025=4), 2010, 0.0),
        (_counts(y2020=2, y2021=2, y2022=2, y2023=8, y2024=8, y2025=8), 2003, 0.75),
        # citations stopped; omitted zero years count as 0
        (_counts(y2020=3, y2021=3, y2022=3), 2012, -1.0),
        # the current, incomplete year (2026) is not counted
        (_counts(y2020=3, y2021=3, y2022=3, y2023=3, y2024=3, y2025=3, y2026=40), 2012, 0.0),
        # published 2021: the earlier window is 2021-2022 only (2 years)
        (_counts(y2021=6, y2022=6, y2023=3, y2024=3, y2025=3), 2021, -0.5),
        # published after 2022: no earlier window, too young to tell
        (_counts(y2023=30, y2024=30, y2025=30), 2023, np.nan),
        # fewer than 5 citations in both windows: no trend
        (_counts(y2021=1, y2024=3), 2015, np.nan),
        (None, 2015, np.nan),
        # unknown publication year: both full windows
        (_counts(y2020=10, y2021=10, y2022=10, y2023=5, y2024=5, y2025=5), np.nan, -0.5),
    ],
)
def test_citation_trend(counts, publication_year, expected):
    assert _trend(counts, publication_year) == pytest.approx(expected, nan_ok=True)


def test_citation_trend_of_a_real_work():
    # W3015860713 (Sekandari et al., 2020): 67 citations in 2020-2022, 86 in 2023-2025
    assert _trend(WORKS["W3015860713"]["counts_by_year"], 2020) == pytest.approx((86 / 3 - 67 / 3) / (86 / 3))


@pytest.mark.parametrize(
    ("fetched_at", "as_of", "reference_year"),
    [
        (datetime(2026, 3, 1, tzinfo=timezone.utc), date(2026, 11, 29), 2026),
        # a record fetched a year before as_of: its last year was incomplete when fetched, so the trend ends there
        (datetime(2025, 3, 1, tzinfo=timezone.utc), date(2026, 11, 29), 2025),
        # a past as_of bounds a fresh record
        (datetime(2026, 3, 1, tzinfo=timezone.utc), date(2024, 6, 1), 2024),
    ],
)
def test_the_trend_ends_at_the_earlier_of_as_of_and_the_fetch_year(fetched_at, as_of, reference_year):
    work = WORKS["W3015860713"]
    records = citation_records([work["cited_by_count"]], [work["counts_by_year"]], [fetched_at], [2020], as_of=as_of, recent_years=3)
    expected = {year: _trend(work["counts_by_year"], 2020, year) for year in (2024, 2025, 2026)}
    assert len(set(expected.values())) == 3  # the three reference years tell different trends, so the case can fail
    assert records.trend[0] == pytest.approx(expected[reference_year])


@pytest.mark.parametrize(
    ("as_of", "count", "recent"),
    [
        # fetched before as_of: everything counts, 2026's citations included
        (date(2026, 11, 29), 100, 1 + 30 + 20 + 10),
        # as_of before the fetch in the same year: 2026 may hold later citations, so it is left out whole
        (date(2026, 2, 1), 99, 30 + 20 + 10),
        # a past as_of: the years after it are taken off
        (date(2023, 6, 1), 100 - 1 - 10 - 20 - 30, 5 + 5 + 5),
    ],
)
def test_count_and_recent_citations_stop_at_as_of(as_of, count, recent):
    yearly = _counts(y2020=5, y2021=5, y2022=5, y2023=30, y2024=20, y2025=10, y2026=1)
    records = citation_records([100], [yearly], [FETCHED], [2015], as_of=as_of, recent_years=3)
    assert records.known[0] and records.count[0] == count and records.recent[0] == recent


def test_no_record_and_a_record_too_old_for_as_of_are_unknown():
    records = citation_records(
        [np.nan, 50, 50], [None, _counts(y2024=5), _counts(y2019=5)],
        [None, FETCHED, datetime(2019, 6, 1, tzinfo=timezone.utc)], [2015, 2000, 2015],
        as_of=date(2026, 6, 1), recent_years=3,
    )
    assert records.known.tolist() == [False, True, True]
    # the third record was fetched in 2019: it cannot have seen the recent years' citations
    assert np.isnan(records.recent[0]) and records.recent[1] == 5 and np.isnan(records.recent[2])
    past = citation_records([50], [_counts(y2024=5)], [FETCHED], [2000], as_of=date(2010, 1, 1), recent_years=3)
    assert not past.known[0] and np.isnan(past.count[0])


def test_year_matrix_reads_json_text_and_lists_and_drops_years_out_of_span():
    matrix = year_matrix(['[{"year": 2024, "cited_by_count": 2}]', _counts(y2000=9, y2025=3), None], 2020, 2025)
    assert matrix.tolist() == [[0, 0, 0, 0, 2, 0], [0, 0, 0, 0, 0, 3], [0] * 6]


# A count composed from a public page (citation_records.csv): one total, no years (counts_by_year null), seen on the
# page's date. Before that day it was a leak: the whole count was read at any as_of (issue 20).
PAGE_SEEN = datetime(2026, 12, 2, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    ("counts_by_year", "as_of", "known", "count"),
    [
        # no years: invisible before the day the page was seen, the whole count from that day on
        (None, date(2026, 12, 1), False, np.nan),
        (None, date(2026, 12, 2), True, 4459),
        (None, date(2027, 6, 1), True, 4459),
        ("null", date(2020, 1, 1), False, np.nan),  # JSON null as openalex_works stores it
        ("null", date(2026, 12, 2), True, 4459),
        # an OpenAlex record whose ten listed years hold no citation ([]) keeps today's rule: every citation it
        # counts is older than the listed years, so it is read at an earlier as_of within them
        ([], date(2020, 1, 1), True, 4459),
        ("[]", date(2018, 6, 1), True, 4459),
    ],
)
def test_a_count_without_years_is_visible_only_from_the_day_it_was_seen(counts_by_year, as_of, known, count):
    records = citation_records([4459], [counts_by_year], [PAGE_SEEN], [2007], as_of=as_of, recent_years=3)
    assert records.known[0] == known
    assert (np.isnan(records.count[0]) and np.isnan(count)) or records.count[0] == count
    # a total says neither which citations are recent nor how the rate changed
    assert np.isnan(records.recent[0]) == (counts_by_year in (None, "null") or not known)
    assert np.isnan(records.trend[0])


def test_count_visible_keeps_the_ten_listed_years_rule_for_records_with_years():
    fetched = pd.Series(pd.to_datetime([FETCHED, FETCHED, PAGE_SEEN, None], utc=True))
    visible = count_visible(np.array([True, True, False, False]), fetched, date(2017, 1, 1))
    # 2026 - 2017 = 9 < 10: taken back; the page count of 2026-12-02 is not seen in 2017; no record never
    assert visible.tolist() == [True, True, False, False]
    assert count_visible(np.array([True]), fetched[:1], date(2016, 12, 31)).tolist() == [False]


def test_has_year_breakdown():
    assert has_year_breakdown([[], "[]", ' [{"year": 2020, "cited_by_count": 1}]', None, "null", np.nan]).tolist() == [
        True, True, True, False, False, False,
    ]
