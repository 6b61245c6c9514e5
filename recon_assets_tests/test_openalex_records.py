"""Tests for reading OpenAlex works: abstract rebuild, retraction notices, citation trend, table rows."""

import json
from datetime import date, datetime, timezone

import pandas as pd
import pyalex
import pytest

from recon_assets.enrichment.openalex_records import (
    OPENALEX_WORK_COLUMNS,
    citation_trend,
    is_retraction_notice,
    openalex_rows,
    rebuild_abstract,
    work_columns,
)

from recon_assets_tests.fake_openalex import real_works

WORKS = {work["id"].rsplit("/", 1)[1]: work for work in real_works()}


@pytest.mark.parametrize(
    ("index", "expected"),
    [
        ({"Data": [0], "is": [1, 5], "complex": [2], "and": [3], "it": [4], "multi-step": [6]}, "Data is complex and it is multi-step"),
        ({"b": [1], "a": [0, 2]}, "a b a"),
        (None, None),
        ({}, None),
    ],
)
def test_rebuild_abstract_keeps_repeated_words_in_their_positions(index, expected):
    assert rebuild_abstract(index) == expected


@pytest.mark.parametrize("work_id", [key for key, work in WORKS.items() if work["abstract_inverted_index"]][:12])
def test_rebuild_abstract_of_real_works_matches_pyalex(work_id):
    index = WORKS[work_id]["abstract_inverted_index"]
    rebuilt = rebuild_abstract(index)
    assert rebuilt == pyalex.invert_abstract(index)
    assert len(rebuilt.split(" ")) == sum(len(positions) for positions in index.values())


@pytest.mark.parametrize(
    ("work_id", "notice"),
    [
        ("W4387949831", False),  # "RETRACTED ARTICLE: Micronized calcium carbonate ..." is the retracted paper
        ("W4405247386", True),  # its notice, OpenAlex type 'retraction'
        ("W4313494105", False),  # "RETRACTED ARTICLE: Data-driven EUR ..."
        ("W4381149761", True),  # "Retraction Note: Data-driven EUR ...", type article, is_retracted true in OpenAlex
        ("W3015860713", False),
    ],
)
def test_retraction_notices_of_the_real_records(work_id, notice):
    assert is_retraction_notice(WORKS[work_id]) is notice


@pytest.mark.parametrize(
    ("title", "notice"),
    [
        ("Retraction—Hydroxychloroquine or chloroquine with or without a macrolide", True),  # the Lancet notice
        ("Notice of Retraction: a study", True),
        ("Retraction notice to 'X'", True),
        ("Retractions in geoscience: a bibliometric study", False),
        ("RETRACTED: Relative performances of effective medium formulations", False),
        (None, False),
    ],
)
def test_retraction_notice_titles(title, notice):
    assert is_retraction_notice({"type": "article", "title": title}) is notice


def _counts(**by_year: int) -> list[dict]:
    return [{"year": int(year[1:]), "cited_by_count": count} for year, count in by_year.items() if count]


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
        (_counts(y2023=30, y2024=30, y2025=30), 2023, None),
        # fewer than 5 citations in both windows: no trend
        (_counts(y2021=1, y2024=3), 2015, None),
        (None, 2015, None),
        # unknown publication year: both full windows
        (_counts(y2020=10, y2021=10, y2022=10, y2023=5, y2024=5, y2025=5), None, -0.5),
    ],
)
def test_citation_trend(counts, publication_year, expected):
    trend = citation_trend(counts, publication_year=publication_year, reference_year=2026)
    assert trend == pytest.approx(expected) if expected is not None else trend is None


def test_citation_trend_of_a_real_work():
    # W3015860713 (Sekandari et al., 2020): 67 citations in 2020-2022, 86 in 2023-2025
    work = WORKS["W3015860713"]
    trend = citation_trend(work["counts_by_year"], publication_year=2020, reference_year=2026)
    assert trend == pytest.approx((86 / 3 - 67 / 3) / (86 / 3))


def test_work_columns_of_a_real_work():
    row = work_columns(WORKS["W3015860713"], reference_year=2026)
    assert row["openalex_id"] == "https://openalex.org/W3015860713"
    assert row["openalex_doi"] == "10.3390/rs12081239"
    assert (row["publication_year"], row["cited_by_count"], row["type"]) == (2020, 159, "article")
    assert (row["is_retracted"], row["is_retraction_notice"]) == (False, False)
    assert json.loads(row["counts_by_year"]) == WORKS["W3015860713"]["counts_by_year"]
    assert json.loads(row["primary_topic"])["display_name"] == "Geochemistry and Geologic Mapping"
    assert row["referenced_works"] == WORKS["W3015860713"]["referenced_works"]
    assert row["abstract"].startswith(pyalex.invert_abstract(WORKS["W3015860713"]["abstract_inverted_index"])[:40])


def test_openalex_rows_one_per_requested_doi_from_cache_or_error():
    fetched = datetime(2026, 3, 1, tzinfo=timezone.utc)
    requested = pd.DataFrame({
        "research_area": ["floods", "floods", "wildfires", "wildfires"],
        "doi": ["10.3390/rs12081239", "10.9999/missing", "10.3390/rs12081239", "10.9999/failed"],
    })
    cache = pd.DataFrame([
        ("10.3390/rs12081239", "found", json.dumps(WORKS["W3015860713"]), fetched),
        ("10.9999/missing", "not_found", None, fetched),
    ], columns=["doi", "status", "work", "fetched_at"])
    rows = openalex_rows(requested, cache, {"10.9999/failed": "HTTP 503 Service Unavailable from /works"}, as_of=date(2026, 11, 29))
    assert rows.columns.tolist() == list(OPENALEX_WORK_COLUMNS)
    assert rows[["research_area", "doi", "status"]].values.tolist() == [
        ["floods", "10.3390/rs12081239", "found"], ["floods", "10.9999/missing", "not_found"],
        ["wildfires", "10.3390/rs12081239", "found"], ["wildfires", "10.9999/failed", "error"],
    ]
    assert rows["cited_by_count"].tolist()[::2] == [159, 159]
    assert rows["error"].isna().tolist() == [True, True, True, False]
    assert rows.loc[3, "error"] == "HTTP 503 Service Unavailable from /works"
    assert pd.isna(rows.loc[1, "cited_by_count"]) and rows.loc[1, "fetched_at"] == fetched


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
def test_openalex_rows_measure_the_trend_up_to_the_earlier_of_as_of_and_the_fetch_year(fetched_at, as_of, reference_year):
    work = WORKS["W3015860713"]
    requested = pd.DataFrame({"research_area": ["floods"], "doi": ["10.3390/rs12081239"]})
    cache = pd.DataFrame([("10.3390/rs12081239", "found", json.dumps(work), fetched_at)], columns=["doi", "status", "work", "fetched_at"])
    trend = openalex_rows(requested, cache, {}, as_of=as_of).loc[0, "citation_trend"]
    expected = {
        year: citation_trend(work["counts_by_year"], publication_year=2020, reference_year=year) for year in (2024, 2025, 2026)
    }
    assert len(set(expected.values())) == 3  # the three reference years tell different trends, so the case can fail
    assert trend == pytest.approx(expected[reference_year])
