"""Evidence expansion on real recorded OpenAlex works: the 44 works of fixtures/openalex and their 50 real
internal citation edges. The test "dataset" has the DOI of a real cited work, 10.3390/rs10081186
(W2883746869, cited by 7 of the recorded works), so the works citing it are found by their real
referenced_works: in the works cache (round 1) or among the citing works the enrichment fetched from OpenAlex,
faked on a loopback server, and stored in openalex_citing_works (round 2). Expansion itself asks nothing."""

import json
from datetime import date, datetime, timezone

import duckdb
import numpy as np
import pandas as pd
import pytest

from recon_assets.enrichment import citing_works
from recon_assets.enrichment.citing_plan import CitedWork, plan_citing_queries
from recon_assets.enrichment.openalex_client import OpenAlexClient, cache_rows, recorded_report
from recon_assets.enrichment.openalex_records import work_columns
from recon_assets.enrichment.retries import RetryPolicy
from recon_assets.reliability.scoring import score_edges
from recon_assets.shared.sql_files import load_sql
from recon_assets.storage.tables import replace_partitions
from recon_assets.verdicts.critic import Edge, VerdictRules, sufficiency
from recon_assets.verdicts.expansion import (
    CACHE_SOURCE,
    ENRICHMENT_SOURCE,
    CitingWork,
    CitingWorks,
    cached_citing_works,
    enriched_citing_works,
    expand,
    expansion_edges,
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
    return sorted(citing.columns["openalex_id"] for citing in found.works)


def _targets(status: str | None, openalex_id: str | None = "W2883746869", error: str | None = None) -> pd.DataFrame:
    return pd.DataFrame({
        "research_area": [KEY[0]], "cited_doi": [CITED_DOI], "cited_kind": ["dataset"], "openalex_status": [status],
        "openalex_error": [error], "cited_openalex_id": [openalex_id], "cited_by_count": [7],
    })


def _store_citing_works(con, targets: pd.DataFrame, fetch: citing_works.CitingFetch, queries) -> None:
    """What the openalex_citing_works asset stores for `targets` after `fetch`."""
    for table in ("openalex_citing_cache", "openalex_citing_works"):
        con.execute(load_sql(table))
    con.register("fetched", citing_works.cache_rows(fetch, {"W2883746869": 7}, queries, fetched_at=NOW))
    con.execute("INSERT INTO openalex_citing_cache SELECT * FROM fetched")
    cached = con.execute("SELECT * FROM openalex_citing_cache").df()
    replace_partitions(con, "openalex_citing_works", citing_works.citing_rows(targets, cached, fetch.failed), [KEY[0]])


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


def test_round_2_reads_the_citing_works_the_enrichment_fetched(tmp_path):
    queries = plan_citing_queries([CitedWork(CITED_DOI, "W2883746869", 7)], per_work=25)
    fake = FakeOpenAlex(WORKS)
    with serve_on_loopback(fake) as base:
        client = OpenAlexClient(api_key="test-key", base_url=base, timeout=5, retry=RetryPolicy(retries=0))
        fetch = citing_works.fetch_citing(queries, client.citing_works)
    con = duckdb.connect(str(tmp_path / "citing.duckdb"))
    _store_citing_works(con, _targets("found"), fetch, queries)
    found = enriched_citing_works(con, [CITED_DOI, ABSENT_DOI])
    assert _ids(found[CITED_DOI]) == CITING_IDS
    assert found[CITED_DOI].note == "7 OpenAlex work(s) cite W2883746869" and found[CITED_DOI].ran
    assert found[ABSENT_DOI] == CitingWorks((), "openalex_citing_works has no row for the dataset DOI (materialize it)", ran=False)
    assert len(fake.requests) == 1  # one filter request; reading the table asks nothing
    assert enriched_citing_works(con, [CITED_DOI])[CITED_DOI] == found[CITED_DOI] and len(fake.requests) == 1


@pytest.mark.parametrize(
    ("targets", "failed", "expected"),
    [
        (_targets("found"), {"W2883746869": "OpenAlex offline: not asked"},
         CitingWorks((), "not asked: OpenAlex offline: not asked", ran=False)),
        (_targets("error", None, "offline: not in the recorded cache"), {},
         CitingWorks((), "not asked: offline: not in the recorded cache", ran=False)),
        (_targets("not_found", None), {}, CitingWorks((), "OpenAlex has no work with this DOI")),
    ],
    ids=["offline", "dataset-doi-never-resolved", "not-in-openalex"],
)
def test_round_2_runs_only_when_openalex_was_asked(tmp_path, targets, failed, expected):
    con = duckdb.connect(str(tmp_path / "citing.duckdb"))
    _store_citing_works(con, targets, citing_works.CitingFetch(failed=failed), [])
    assert enriched_citing_works(con, [CITED_DOI]) == {CITED_DOI: expected}


def test_round_2_uses_the_works_one_research_area_fetched_when_another_area_was_not_asked():
    """Bug row (found moving this read to expansion_enriched_citing.sql): a research area's row without a citing work
    (not_asked: citing id NULL, sorted first) decided the DOI's round and hid the works another area fetched."""
    con = duckdb.connect()
    con.execute(load_sql("openalex_citing_works"))
    con.execute("INSERT INTO openalex_citing_works (research_area, cited_doi, cited_kind, status, note) "
                "VALUES ('area-a', ?, 'dataset', 'not_asked', 'budget spent')", [CITED_DOI])
    con.execute("INSERT INTO openalex_citing_works (research_area, cited_doi, cited_kind, cited_openalex_id, status, note, "
                "citing_openalex_id, citing_title, citing_type, citing_is_retracted, citing_citation) "
                "VALUES ('area-b', ?, 'dataset', 'W2883746869', 'fetched', 'all citing works', 'W9', 'A title', 'article', false, '[X, 2020]')",
                [CITED_DOI])
    found = enriched_citing_works(con, [CITED_DOI])[CITED_DOI]
    assert found.ran and _ids(found) == ["https://openalex.org/W9"]

def test_expanded_works_are_scored_like_edges_with_unverified_coherence():
    work = next(work for work in WORKS if work["id"] == "https://openalex.org/W2949528887")  # 2019, 88 citations
    scored = score_edges(expansion_edges([CitingWork(work_columns(work), "[10.3390/rs11121408, 2019]", NOW)], DATASET), as_of=AS_OF)
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
    return [Edge(f"[{citing.columns['openalex_id'].rsplit('/', 1)[-1]}]", 0.5, "DECLINING") for citing in works]


def test_expand_stops_once_sufficient_and_never_counts_a_publication_twice(cache):
    cached = cached_citing_works(cache, [CITED_DOI])
    known = {work["doi"].removeprefix("https://doi.org/").lower() for work in WORKS if work["id"] == CITING_IDS[0]}
    sufficient = ("floods", "kg:enough")
    calls: list = []
    rounds = expand(
        {KEY: [Edge("[A, 2020]", 0.6, "DECLINING")], sufficient: [Edge(f"[{n}]", 0.6, "DECLINING") for n in range(3)]},
        {KEY: CITED_DOI, sufficient: "10.5067/enough"},
        {KEY: known},
        [(CACHE_SOURCE, _lookup(cached, calls)), (ENRICHMENT_SOURCE, _lookup({}, calls))],
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
        {KEY: []}, {KEY: doi}, {}, [(CACHE_SOURCE, _lookup({}, calls)), (ENRICHMENT_SOURCE, _lookup(online, calls))], _score,
        _insufficient, VerdictRules(expansion_rounds=expansion_rounds), as_of=AS_OF,
    )
    assert [(round_.note, round_.ran) for round_ in rounds[KEY]] == notes
    assert len(calls) == (len(notes) if doi else 0)


def _work(number: int, doi: str | None, year: object = 2020, id_prefix: str = "https://openalex.org/") -> CitingWork:
    return CitingWork({"openalex_id": f"{id_prefix}W{number}", "openalex_doi": doi, "publication_year": year}, f"[W{number}]", NOW)


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
