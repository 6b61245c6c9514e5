"""Evidence expansion on real recorded OpenAlex works: the 44 works of fixtures/openalex and their 50 real
internal citation edges. The test "dataset" has the DOI of a real cited work, 10.3390/rs10081186
(W2883746869, cited by 7 of the recorded works), so the works citing it are found by their real
referenced_works: in the cache (round 1) or from OpenAlex, faked on a loopback server (round 2)."""

import copy
import json
import logging
from datetime import date, datetime, timezone

import duckdb
import numpy as np
import pytest

from recon_assets.enrichment.openalex_client import FOUND, FetchReport, OpenAlexClient, cache_rows, recorded_report
from recon_assets.enrichment.retries import RetryPolicy
from recon_assets.reliability.scoring import score_edges
from recon_assets.resources import OpenAlexResource
from recon_assets.sql_files import load_sql
from recon_assets.verdicts.critic import Edge, VerdictRules, sufficiency
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
    "dataset_collection_progress": None, "succession_basis": None,
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
        client = OpenAlexClient(api_key="test-key", base_url=base, timeout=5, retry=RetryPolicy(retries=0))
        found, to_cache = online_citing_works(client, [CITED_DOI, ABSENT_DOI], offline_note="unused", now=NOW)
    assert _ids(found[CITED_DOI]) == CITING_IDS
    citations = [citing.work["cited_by_count"] for citing in found[CITED_DOI].works]
    assert citations == sorted(citations, reverse=True)  # most cited first, as asked
    assert found[ABSENT_DOI] == CitingWorks((), "the dataset DOI is not in OpenAlex")
    # the dataset DOI's own work and the 7 citing works, for the next run's round 1
    assert {result.doi for result in to_cache} >= {CITED_DOI} and len(to_cache) == 8
    assert {result.status for result in to_cache} == {FOUND}
    assert ("/works", "filter=cites:W2883746869&select=id,doi,title,type,publication_year,cited_by_count,counts_by_year,"
            "is_retracted,referenced_works,primary_topic,abstract_inverted_index,citation_normalized_percentile,cited_by_percentile_year"
            "&sort=cited_by_count:desc&per-page=100") in fake.requests


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
    assert found == {CITED_DOI: CitingWorks((), note, ran=False)} and to_cache == []


def test_round_2_survives_an_openalex_that_does_not_answer():
    with serve_on_loopback(FakeOpenAlex(WORKS), delay=1.0) as base:
        client = OpenAlexClient(api_key="test-key", base_url=base, timeout=0.1, retry=RetryPolicy(retries=0))
        found, to_cache = online_citing_works(client, [CITED_DOI], offline_note="unused", now=NOW)
    assert found[CITED_DOI].works == () and found[CITED_DOI].note.startswith("OpenAlex error: ReadTimeout")
    assert not found[CITED_DOI].ran and to_cache == []


class RefusingCites(FakeOpenAlex):
    """OpenAlex refusing the key on the `cites:` request, as it answers 401 (pyalex raises its QueryError)."""

    def answer(self, url):
        if "cites" in url:
            return 401, {"error": "Invalid API key", "message": "the API key is not valid"}
        return super().answer(url)


class NoFetchResult(OpenAlexClient):
    """A client whose fetch reports nothing for the DOIs (no result, no spent budget)."""

    def fetch(self, dois):
        return FetchReport()


def _without_id(*ids: str) -> list[dict]:
    """The recorded works, those with an id of `ids` stripped of it."""
    works = copy.deepcopy(WORKS)
    for work in works:
        if work["id"] in ids:
            del work["id"]
    return works


# hostile finding 14: online_citing_works never raises, and an answer it cannot use is a round not run
@pytest.mark.parametrize(
    ("fake", "client_class", "note", "ran", "found_works"),
    [
        (RefusingCites(WORKS), OpenAlexClient, "OpenAlex error: QueryError: Invalid API key. Did you configure a valid API key?", False, 0),
        (FakeOpenAlex(_without_id(CITED_ID)), OpenAlexClient, "OpenAlex error: the dataset DOI's work has no OpenAlex id", False, 0),
        (FakeOpenAlex(_without_id(CITING_IDS[0])), OpenAlexClient,
         "6 OpenAlex work(s) cite W2883746869, 1 without an OpenAlex id left out", True, 6),
        (FakeOpenAlex(WORKS), NoFetchResult, "OpenAlex error: no answer for the dataset DOI", False, 0),
    ],
    ids=["key-refused", "dataset-work-without-id", "citing-work-without-id", "no-fetch-result"],
)
def test_round_2_turns_an_unusable_answer_into_a_note(fake, client_class, note, ran, found_works):
    with serve_on_loopback(fake) as base:
        client = client_class(api_key="test-key", base_url=base, timeout=5, retry=RetryPolicy(retries=0))
        found, _ = online_citing_works(client, [CITED_DOI], offline_note="unused", now=NOW)
    assert (found[CITED_DOI].note, found[CITED_DOI].ran, len(found[CITED_DOI].works)) == (note, ran, found_works)


def test_expanded_works_are_scored_like_edges_with_unverified_coherence():
    work = next(work for work in WORKS if work["id"] == "https://openalex.org/W2949528887")  # 2019, 88 citations
    scored = score_edges(expansion_edges([CitingWork(work, NOW)], DATASET), as_of=AS_OF)
    row = scored.iloc[0]
    assert row["citation"] == "[10.3390/rs11121408, 2019]"
    assert row["publication_year"] == 2019 and row["year_source"] == "openalex"
    assert row["coherence_status"] == "UNVERIFIED" and row["centrality_source"] == "citations"
    citations = row["citations_as_of"]  # the recorded count, less the years after as_of
    assert 0 < citations <= 88
    # 0.4 * log1p(n)/log1p(10000) + 0.3 * (1 - age/20) + 0.3 * 0.5
    expected = 0.4 * np.log1p(citations) / np.log1p(10_000) + 0.3 * (1 - (AS_OF.year - 2019) / 20) + 0.3 * 0.5
    assert row["reliability"] == pytest.approx(expected, abs=1e-4)


def _lookup(found: dict[str, CitingWorks], calls: list):
    def lookup(dois):
        calls.append(dois)
        return {doi: found.get(doi, CitingWorks((), "nothing")) for doi in dois}

    return lookup


RULES = VerdictRules()


def _insufficient(key, edges) -> bool:
    """The critic's sufficiency alone: these tests give no dataset lifecycle nor contradicting pair."""
    return sufficiency(edges, RULES).flagged


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
        _insufficient,
        RULES,
        as_of=AS_OF,
    )
    assert list(rounds) == [KEY]  # a sufficient set is never expanded
    [round_1] = rounds[KEY]  # sufficient after round 1: OpenAlex not asked
    assert calls == [[CITED_DOI]]
    assert round_1.source == CACHE_SOURCE and len(round_1.edges) == 6
    assert round_1.note == "7 cached work(s) cite W2883746869, 1 already in the evidence"


OFFLINE = {CITED_DOI: CitingWorks((), "OpenAlex offline: not asked", ran=False)}


@pytest.mark.parametrize(
    ("expansion_rounds", "doi", "online", "notes"),
    [
        (2, CITED_DOI, {}, [("nothing", True), ("nothing", True)]),
        (1, CITED_DOI, {}, [("nothing", True)]),
        (0, CITED_DOI, {}, []),
        # hostile finding 4: rounds that could not look are recorded as not run
        (2, CITED_DOI, OFFLINE, [("nothing", True), ("OpenAlex offline: not asked", False)]),
        (2, None, {}, [("the dataset has no DOI", False), ("the dataset has no DOI", False)]),
    ],
)
def test_expand_runs_at_most_the_configured_rounds(expansion_rounds, doi, online, notes):
    calls: list = []
    rounds = expand(
        {KEY: []}, {KEY: doi}, {}, [(CACHE_SOURCE, _lookup({}, calls)), (ONLINE_SOURCE, _lookup(online, calls))], _score,
        _insufficient, VerdictRules(expansion_rounds=expansion_rounds), as_of=AS_OF,
    )
    assert [(round_.note, round_.ran) for round_ in rounds[KEY]] == notes
    assert len(calls) == (len(notes) if doi else 0)


def _work(number: int, doi: str | None, year: object = 2020, id_prefix: str = "https://openalex.org/") -> CitingWork:
    return CitingWork({"id": f"{id_prefix}W{number}", "doi": doi, "publication_year": year}, NOW)


@pytest.mark.parametrize(
    ("works", "as_of", "new_ids", "note"),
    [
        # hostile finding 5: one DOI in three spellings (two of them the same OpenAlex id) is one publication
        ([_work(9, "10.1234/dup"), _work(9, "https://doi.org/10.1234/DUP"), _work(10, "10.1234/DUP")], AS_OF, ["W9"],
         "found, 2 found twice"),
        # the same OpenAlex id, once without a DOI
        ([_work(11, None), _work(11, "10.1234/b")], AS_OF, ["W11"], "found, 1 found twice"),
        ([_work(12, "10.1234/known")], AS_OF, [], "found, 1 already in the evidence"),
        # hostile finding 7: a 2025 work was not evidence as of 2019-06-01; one of unknown year is kept
        ([_work(13, "10.1234/later", 2025), _work(14, "10.1234/then", 2019), _work(15, "10.1234/undated", None)],
         date(2019, 6, 1), ["W14", "W15"], "found, 1 published after as_of 2019-06-01"),
        # second hostile pass, finding 5: one OpenAlex id in its two spellings is one publication
        ([_work(16, None), _work(16, None, id_prefix="")], AS_OF, ["W16"], "found, 1 found twice"),
        # a post-as_of work found twice is once after as_of, once found twice
        ([_work(17, "10.1234/later", 2025), _work(17, "10.1234/later", 2025)], date(2019, 6, 1), [],
         "found, 1 found twice, 1 published after as_of 2019-06-01"),
        # a year given as text or as a float is still a year
        ([_work(18, "10.1234/text-year", "2025"), _work(19, "10.1234/float-year", 2025.0)], date(2019, 6, 1), [],
         "found, 2 published after as_of 2019-06-01"),
    ],
    ids=["doi-spellings", "same-openalex-id", "known", "after-as-of", "openalex-id-spellings", "after-as-of-twice", "year-text-or-float"],
)
def test_expand_counts_each_publication_once_and_none_published_after_as_of(works, as_of, new_ids, note):
    rounds = expand(
        {KEY: [Edge("[A, 2018]", 0.6, "DECLINING")]}, {KEY: CITED_DOI}, {KEY: {"10.1234/known"}},
        [(CACHE_SOURCE, lambda dois: {doi: CitingWorks(tuple(works), "found") for doi in dois})], _score,
        _insufficient, VerdictRules(expansion_rounds=1), as_of=as_of,
    )
    [round_] = rounds[KEY]
    assert [edge.citation for edge in round_.edges] == [f"[{work_id}]" for work_id in new_ids]
    assert round_.note == note


def test_no_request_is_logged_with_the_key(caplog):
    caplog.set_level(logging.DEBUG)
    with serve_on_loopback(FakeOpenAlex(WORKS)) as base:
        online_citing_works(OpenAlexClient(api_key="secret-7f3a", base_url=base, timeout=5, retry=RetryPolicy(retries=0)), [CITED_DOI], offline_note="", now=NOW)
    assert "secret-7f3a" not in caplog.text
