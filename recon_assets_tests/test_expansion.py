"""Evidence expansion on real recorded OpenAlex works: the 44 works of fixtures/openalex and their 50 real
internal citation edges. The test "dataset" has the DOI of a real cited work, 10.3390/rs10081186
(W2883746869, cited by 7 of the recorded works), so the works citing it are found by their real
referenced_works: in the cache (round 1) or from OpenAlex, faked on a loopback server (round 2)."""

import json
import logging
from datetime import date, datetime, timezone

import duckdb
import pytest

from recon_assets.enrichment.openalex_client import FOUND, OpenAlexClient, cache_rows, recorded_report
from recon_assets.reliability.scoring import score_edges
from recon_assets.resources import OpenAlexResource
from recon_assets.sql_files import load_sql
from recon_assets.verdicts.critic import CriticRules, Edge
from recon_assets.verdicts.expansion import (
    CACHE_SOURCE,
    ONLINE_SOURCE,
    CitingWork,
    CitingWorks,
    cached_citing_works,
    expand,
    expansion_edges,
    online_citing_works,
)

from recon_assets_tests.fake_openalex import REAL_WORKS_FILE, FakeOpenAlex, real_works, serve_on_loopback

WORKS = real_works()
CITED_DOI, CITED_ID = "10.3390/rs10081186", "https://openalex.org/W2883746869"
# The real internal citation edges (citing, cited) recorded with the works.
CITING_IDS = sorted(
    citing for citing, cited in json.loads(REAL_WORKS_FILE.read_text())["internal_citation_edges_citing_to_cited"] if cited == CITED_ID
)
ABSENT_DOI = "10.5067/not-cited/0001"
NOW = datetime(2026, 3, 1, 8, 55, 55, tzinfo=timezone.utc)
AS_OF = date(2026, 11, 29)
KEY = ("land_surface_agriculture_indicators", "kg:test-dataset")
DATASET = {
    "research_area": KEY[0], "dataset_id": KEY[1], "dataset_doi": CITED_DOI, "dataset_short_name": "TEST_DS",
    "dataset_superseded": False, "dataset_version": None, "successor_version": None, "superseded_since": None,
    "dataset_collection_progress": None,
}


@pytest.fixture
def cache(tmp_path):
    """A DuckDB openalex_cache holding the 44 real works, as the openalex_works asset stores them."""
    con = duckdb.connect(str(tmp_path / "cache.duckdb"))
    con.execute(load_sql("openalex_cache"))
    report = recorded_report([work["doi"].removeprefix("https://doi.org/").lower() for work in WORKS], WORKS, recorded_at=NOW)
    rows = cache_rows(report.results, fetched_at=NOW)
    con.execute("INSERT INTO openalex_cache SELECT * FROM rows")
    yield con
    con.close()


def _ids(found: CitingWorks) -> list[str]:
    return sorted(citing.work["id"] for citing in found.works)


def test_the_fixture_has_seven_real_citing_works():
    assert len(CITING_IDS) == 7


def test_round_1_finds_the_cached_works_citing_the_dataset_doi(cache):
    found = cached_citing_works(cache, [CITED_DOI, ABSENT_DOI])
    assert _ids(found[CITED_DOI]) == CITING_IDS
    assert found[CITED_DOI].note == "7 cached work(s) cite W2883746869"
    assert found[ABSENT_DOI] == CitingWorks((), "the dataset DOI is not in the OpenAlex cache")


def test_round_1_cannot_resolve_a_doi_whose_own_work_is_not_cached(cache):
    cache.execute("DELETE FROM openalex_cache WHERE doi = ?", [CITED_DOI])
    assert cached_citing_works(cache, [CITED_DOI])[CITED_DOI].works == ()


def test_round_2_asks_openalex_for_the_works_citing_the_dataset_doi():
    fake = FakeOpenAlex(WORKS)
    with serve_on_loopback(fake) as base:
        client = OpenAlexClient(api_key="test-key", base_url=base, timeout=5, retries=0)
        found, to_cache = online_citing_works(client, [CITED_DOI, ABSENT_DOI], offline_note="unused", now=NOW)
    assert _ids(found[CITED_DOI]) == CITING_IDS
    citations = [citing.work["cited_by_count"] for citing in found[CITED_DOI].works]
    assert citations == sorted(citations, reverse=True)  # most cited first, as asked
    assert found[ABSENT_DOI] == CitingWorks((), "the dataset DOI is not in OpenAlex")
    # the dataset DOI's own work and the 7 citing works, for the next run's round 1
    assert {result.doi for result in to_cache} >= {CITED_DOI} and len(to_cache) == 8
    assert {result.status for result in to_cache} == {FOUND}
    assert ("/works", "filter=cites:W2883746869&select=id,doi,title,type,publication_year,cited_by_count,counts_by_year,"
            "is_retracted,referenced_works,primary_topic,abstract_inverted_index&sort=cited_by_count:desc&per-page=100") in fake.requests


@pytest.mark.parametrize(
    ("resource", "note"),
    [
        (OpenAlexResource(offline=True, api_key="test-key"), "OpenAlex offline: not asked"),
        (OpenAlexResource(offline=False, api_key=None), "OPENALEX_API_KEY not set: OpenAlex not asked"),
    ],
)
def test_round_2_offline_asks_nothing_and_says_so(resource, note):
    assert resource.client() is None
    found, to_cache = online_citing_works(resource.client(), [CITED_DOI], offline_note=note, now=NOW)
    assert found == {CITED_DOI: CitingWorks((), note)} and to_cache == []


def test_round_2_survives_an_openalex_that_does_not_answer():
    with serve_on_loopback(FakeOpenAlex(WORKS), delay=1.0) as base:
        client = OpenAlexClient(api_key="test-key", base_url=base, timeout=0.1, retries=0)
        found, to_cache = online_citing_works(client, [CITED_DOI], offline_note="unused", now=NOW)
    assert found[CITED_DOI].works == () and found[CITED_DOI].note.startswith("OpenAlex error: ReadTimeout")
    assert to_cache == []


def test_expanded_works_are_scored_like_edges_with_unverified_coherence():
    work = next(work for work in WORKS if work["id"] == "https://openalex.org/W2949528887")  # 2019, 88 citations
    scored = score_edges(expansion_edges([CitingWork(work, NOW)], DATASET, as_of=AS_OF), as_of=AS_OF)
    row = scored.iloc[0]
    assert row["citation"] == "[10.3390/rs11121408, 2019]"
    assert row["publication_year"] == 2019 and row["year_source"] == "openalex"
    assert row["coherence_status"] == "UNVERIFIED" and row["centrality_source"] == "citations"
    # 0.4 * log1p(88)/log1p(10000) + 0.3 * (1 - 7/20) + 0.3 * 0.5
    assert row["reliability"] == pytest.approx(0.4 * 0.48734 + 0.3 * 0.65 + 0.3 * 0.5, abs=1e-4)


def _lookup(found: dict[str, CitingWorks], calls: list):
    def lookup(dois):
        calls.append(dois)
        return {doi: found.get(doi, CitingWorks((), "nothing")) for doi in dois}

    return lookup


def _score(key, works):
    return [Edge(f"[{citing.work['id'].rsplit('/', 1)[-1]}]", 0.5, "DECLINING") for citing in works]


def test_expand_stops_once_sufficient_and_never_counts_a_publication_twice(cache):
    cached = cached_citing_works(cache, [CITED_DOI])
    known = {work["doi"].removeprefix("https://doi.org/").lower() for work in WORKS if work["id"] == CITING_IDS[0]}
    sufficient = ("floods", "kg:enough")
    calls: list = []
    rounds = expand(
        {KEY: [Edge("[A, 2020]", 0.6, "DECLINING")], sufficient: [Edge(f"[{n}]", 0.6, "DECLINING") for n in range(3)]},
        {KEY: CITED_DOI, sufficient: "10.5067/enough"},
        {KEY: known},
        [(CACHE_SOURCE, _lookup(cached, calls)), (ONLINE_SOURCE, _lookup({}, calls))],
        _score,
    )
    assert list(rounds) == [KEY]  # a sufficient set is never expanded
    [round_1] = rounds[KEY]  # sufficient after round 1: OpenAlex not asked
    assert calls == [[CITED_DOI]]
    assert round_1.source == CACHE_SOURCE and len(round_1.edges) == 6
    assert round_1.note == "7 cached work(s) cite W2883746869, 1 already in the evidence"


@pytest.mark.parametrize(
    ("expansion_rounds", "doi", "notes"),
    [
        (2, CITED_DOI, ["nothing", "nothing"]),
        (1, CITED_DOI, ["nothing"]),
        (0, CITED_DOI, []),
        (2, None, ["the dataset has no DOI", "the dataset has no DOI"]),
    ],
)
def test_expand_runs_at_most_the_configured_rounds(expansion_rounds, doi, notes):
    calls: list = []
    rounds = expand(
        {KEY: []}, {KEY: doi}, {}, [(CACHE_SOURCE, _lookup({}, calls)), (ONLINE_SOURCE, _lookup({}, calls))], _score,
        CriticRules(expansion_rounds=expansion_rounds),
    )
    assert [round_.note for round_ in rounds[KEY]] == notes
    assert len(calls) == (len(notes) if doi else 0)


def test_no_request_is_logged_with_the_key(caplog):
    caplog.set_level(logging.DEBUG)
    with serve_on_loopback(FakeOpenAlex(WORKS)) as base:
        online_citing_works(OpenAlexClient(api_key="secret-7f3a", base_url=base, timeout=5, retries=0), [CITED_DOI], offline_note="", now=NOW)
    assert "secret-7f3a" not in caplog.text
