"""Tests for reading OpenAlex works: abstract rebuild, retraction notices, citation percentile, table rows."""

import json
from datetime import datetime, timezone

import duckdb
import pandas as pd
import pyalex
import pytest

from recon_assets.enrichment.openalex_records import (
    OPENALEX_WORK_COLUMNS,
    cached_fields,
    citation_percentile,
    composed_seen_at,
    invalid_reason,
    is_retraction_notice,
    openalex_rows,
    rebuild_abstract,
    unusable_cache_rows,
    work_columns,
)
from recon_assets.shared.sql_files import load_sql
from recon_assets.shared.table_docs import declared_columns

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


def test_work_columns_of_a_real_work():
    row = work_columns(WORKS["W3015860713"])
    assert row["openalex_id"] == "https://openalex.org/W3015860713"
    assert row["openalex_doi"] == "10.3390/rs12081239"
    assert (row["publication_year"], row["cited_by_count"], row["type"]) == (2020, 159, "article")
    assert (row["is_retracted"], row["is_retraction_notice"]) == (False, False)
    assert json.loads(row["counts_by_year"]) == WORKS["W3015860713"]["counts_by_year"]
    assert json.loads(row["primary_topic"])["display_name"] == "Geochemistry and Geologic Mapping"
    assert row["referenced_works"] == WORKS["W3015860713"]["referenced_works"]
    assert row["citation_percentile_low"] == row["citation_percentile_high"] == WORKS["W3015860713"]["citation_normalized_percentile"]["value"]
    assert row["abstract"].startswith(pyalex.invert_abstract(WORKS["W3015860713"]["abstract_inverted_index"])[:40])


def test_openalex_rows_one_per_requested_doi_from_cache_or_error():
    fetched = datetime(2026, 3, 1, tzinfo=timezone.utc)
    requested = pd.DataFrame({
        "research_area": ["floods", "floods", "wildfires", "wildfires", "wildfires"],
        "doi": ["10.3390/rs12081239", "10.9999/missing", "10.3390/rs12081239", "10.9999/failed", "10.9999/other"],
    })  # in the order publication_dois_in_research_areas.sql gives them: by area, then DOI
    with duckdb.connect() as con:
        con.execute(load_sql("openalex_cache"))
        con.executemany("INSERT INTO openalex_cache VALUES (?, ?, ?, ?)", [
            ("10.3390/rs12081239", "found", json.dumps(WORKS["W3015860713"]), fetched),
            ("10.9999/missing", "not_found", None, fetched),
        ])
        paired = con.execute(load_sql("openalex_work_rows"), [
            requested["research_area"].tolist(), requested["doi"].tolist(),
            ["10.9999/failed"], ["HTTP 503 Service Unavailable from /works"], ["10.9999/other"], ["answered with W1 (10.9999/another)"],
        ]).df()
    rows = openalex_rows(paired)
    assert rows.columns.tolist() == list(OPENALEX_WORK_COLUMNS)
    assert rows[["research_area", "doi", "status"]].values.tolist() == [
        ["floods", "10.3390/rs12081239", "found"], ["floods", "10.9999/missing", "not_found"],
        ["wildfires", "10.3390/rs12081239", "found"], ["wildfires", "10.9999/failed", "error"], ["wildfires", "10.9999/other", "mismatch"],
    ]
    assert rows["cited_by_count"].tolist()[:3:2] == [159, 159]
    assert rows["error"].isna().tolist() == [True, True, True, False, False]
    assert rows.loc[3, "error"] == "HTTP 503 Service Unavailable from /works" and rows.loc[4, "error"] == "answered with W1 (10.9999/another)"
    assert pd.isna(rows.loc[1, "cited_by_count"]) and rows.loc[1, "fetched_at"] == fetched


@pytest.mark.parametrize(
    ("work", "expected"),
    [
        ({"citation_normalized_percentile": {"value": 0.97, "is_in_top_10_percent": True}}, (0.97, 0.97)),
        # the year-only percentile range, when the field-normalised one is absent
        ({"citation_normalized_percentile": None, "cited_by_percentile_year": {"min": 96, "max": 99}}, (0.96, 0.99)),
        ({"cited_by_percentile_year": {"min": 96}}, (None, None)),
        ({"citation_normalized_percentile": {"value": "high"}}, (None, None)),
        ({}, (None, None)),
    ],
)
def test_citation_percentile(work, expected):
    assert citation_percentile(work) == pytest.approx(expected) if expected[0] is not None else citation_percentile(work) == expected


def test_sample_run_openalex_works_rows_are_what_the_python_merge_gave(sample_run):
    """The SQL pairing writes the rows the pandas merge of the requested DOIs with openalex_cache wrote: one per
    publication DOI of each area; a cached DOI has the cache's status and fetch time and its work's columns, any
    other DOI is an error or mismatch row with its text and no fetch time."""
    areas = [area for (area,) in sample_run.query("SELECT DISTINCT research_area FROM openalex_works")]
    requested = sample_run.query(load_sql("publication_dois_in_research_areas"), [areas])
    cache = {doi: rest for doi, *rest in sample_run.query("SELECT doi, status, CAST(work AS VARCHAR), fetched_at FROM openalex_cache")}
    columns = list(declared_columns("openalex_works"))
    stored = [dict(zip(columns, row)) for row in sample_run.query("SELECT * FROM openalex_works ORDER BY research_area, doi")]

    assert [(row["research_area"], row["doi"]) for row in stored] == requested and len(areas) > 5
    found = 0
    for row in stored:
        if row["doi"] in cache:
            status, work, fetched_at = cache[row["doi"]]
            columns_of_work = work_columns(json.loads(work)) if status == "found" else {}
            found += status == "found"
            assert {**row, **columns_of_work, "status": status, "error": None, "fetched_at": fetched_at} == row
        else:
            assert row["status"] in ("error", "mismatch") and row["error"] and row["fetched_at"] is None and row["openalex_id"] is None
    assert found > 20


# A record composed from a public page (recon_assets/reference/evaluation/citation_records.csv): the page's count in
# OpenAlex's shape, no OpenAlex id, no years (issue 20).
COMPOSED = {
    "id": None, "doi": "https://doi.org/10.1175/jhm560.1", "title": "The TRMM Multisatellite Precipitation Analysis (TMPA)",
    "publication_year": 2007, "cited_by_count": 4459, "counts_by_year": None,
    "_composed_from": {
        "page": "https://www.semanticscholar.org/author/R.-Adler/34175652", "page_date": None, "read_on": "2026-12-02",
        "count_source": "Semantic Scholar (as the page shows)",
    },
}


def test_a_composed_record_is_valid_and_keeps_its_nulls_and_its_provenance():
    assert invalid_reason(COMPOSED) is None
    row = work_columns(COMPOSED)
    # no invented OpenAlex id; no years, retraction status or references the page did not show
    assert row["openalex_id"] is None and row["counts_by_year"] is None
    assert row["is_retracted"] is None and row["referenced_works"] is None
    assert (row["openalex_doi"], row["cited_by_count"], row["publication_year"]) == ("10.1175/jhm560.1", 4459, 2007)
    kept = cached_fields(COMPOSED)
    assert kept["_composed_from"] == COMPOSED["_composed_from"]
    # cached, it is still usable next run (not dropped and asked again)
    assert unusable_cache_rows(pd.DataFrame({"doi": ["10.1175/jhm560.1"], "status": ["found"], "work": [json.dumps(kept)]})) == {}
    # an OpenAlex work keeps only the selected fields, and its lists
    assert "_composed_from" not in cached_fields(WORKS["W3015860713"])
    assert json.loads(work_columns(WORKS["W3015860713"])["counts_by_year"]) == WORKS["W3015860713"]["counts_by_year"]


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"id": "https://openalex.org/W2158347016"}, "id: Input should be None"),  # no OpenAlex id may be invented
        ({"cited_by_count": -1}, "cited_by_count"),
        ({"doi": None}, "doi"),
        ({"_composed_from": {**COMPOSED["_composed_from"], "read_on": "2 Dec 2026"}}, "_composed_from.read_on"),
        ({"_composed_from": {**COMPOSED["_composed_from"], "page": "not a page"}}, "_composed_from.page"),
        ({"_composed_from": {key: value for key, value in COMPOSED["_composed_from"].items() if key != "count_source"}}, "_composed_from.count_source"),
    ],
)
def test_a_composed_record_out_of_shape_is_invalid(change, reason):
    assert reason in invalid_reason(COMPOSED | change)


def test_a_composed_count_is_seen_on_the_pages_date_else_the_day_it_was_read():
    assert composed_seen_at(COMPOSED) == datetime(2026, 12, 2, tzinfo=timezone.utc)
    dated = COMPOSED | {"_composed_from": {**COMPOSED["_composed_from"], "page_date": "2024-04-18"}}
    assert composed_seen_at(dated) == datetime(2024, 4, 18, tzinfo=timezone.utc)
    assert composed_seen_at(WORKS["W3015860713"]) is None
