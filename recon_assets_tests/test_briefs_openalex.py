"""The research briefs' OpenAlex search (issue 21, online retrieval): candidates from OpenAlex search merged with the
KG's by DOI, cached, on the shared daily budget; a paper found only in OpenAlex is unassessed and its trust summary
says so. OpenAlex is faked at the HTTP transport (`responses`) with the recorded real works of
fixtures/openalex (the search envelope is assembled around them by `fake_openalex.FakeOpenAlex.search_page`; see
fixtures/openalex/PROVENANCE.md).

Every one of those works is a publication of the sample graph, so the asset tests remove two of them from a copy of
the scored sample's `publications` table: those two are then papers the graph lacks, found only in OpenAlex (the
records themselves are unchanged)."""

import re
from datetime import date, datetime, timezone

import dagster as dg
import duckdb
import pytest
import responses

from recon_assets.briefs.questions import asked_key
from recon_assets.briefs.retrieval import KG, OPENALEX, Candidate, openalex_candidate, searched_papers
from recon_assets.definitions import build_defs
from recon_assets.enrichment.resources import OpenAlexResource
from recon_assets.papers.resources import PaperIntake
from recon_assets.briefs.partitions import QuestionFileResource
from recon_assets.shared.run_tags import QUESTION_DATASETS_TAG, QUESTION_TAG

from recon_assets_tests.fake_openalex import FakeOpenAlex, real_works
from recon_assets_tests.pipeline_runs import SAMPLE_JSONL, pipeline_defs
from recon_assets_tests.test_briefs_assets import answer, home, rows

API = re.compile(r"https://api\.openalex\.org/works.*")
WORKS = {work["doi"].rsplit("doi.org/", 1)[1].lower(): work for work in real_works()}
QUESTION = ("Which ASTER, Landsat-8 and Sentinel-2 spectral imagery methods map hydrothermal alteration zones and "
            "lineaments for orogenic gold exploration?")
ASTER_L1T = "10.5067/ASTER/AST_L1T.003"
# Removed from the graph's copy: found only in OpenAlex then (both real recorded works on ASTER and Landsat-8 imagery).
GONE = ("10.3390/rs11202430", "10.3390/rs10081186")
IN_POOL = "10.3390/rs12081239"  # uses AST_L1T in the graph: the search finds it, and it is merged with the KG's paper


def _kg(doi: str, publication_id: str) -> Candidate:
    return Candidate(doi=doi.upper(), title="kg", source=KG, semantic=0.0, publication_id=publication_id)


def test_searched_papers_merge_by_doi_keep_one_of_a_repeat_and_reject_a_work_without_doi():
    pool = {"p1": _kg(IN_POOL, "p1")}
    found = [
        openalex_candidate(WORKS[IN_POOL], date(2026, 12, 1), None),  # the pool's paper, in another spelling
        openalex_candidate(WORKS[GONE[0]], date(2026, 12, 1), None),
        openalex_candidate(WORKS[GONE[0]], date(2026, 12, 1), None),
        openalex_candidate({**WORKS[GONE[1]], "doi": None}, date(2026, 12, 1), None),
        openalex_candidate(WORKS["10.1016/j.asr.2019.01.035"], date(2026, 12, 1), None, publication_id="p9"),
    ]
    searched = searched_papers(pool, found)
    assert searched.in_pool == 1 and searched.repeated == 1 and len(searched.rejected) == 1
    assert "without a DOI" in searched.rejected[0].reason
    assert list(searched.papers) == [GONE[0], "p9"]  # a paper found only in OpenAlex by DOI; a KG publication by its id
    assert [p.source for p in searched.papers.values()] == [OPENALEX, KG] and searched.openalex_only == 1
    assert len(found) == len(searched.papers) + searched.in_pool + searched.repeated + len(searched.rejected)


def test_an_openalex_candidate_counts_citations_up_to_as_of_only_and_reads_authors_and_abstract():
    work = WORKS[IN_POOL]  # 2020, 159 citations by 2026-03
    # as_of's own year is left out too: the record, fetched after as_of, may hold its later months (reliability.citations)
    later = sum(entry["cited_by_count"] for entry in work["counts_by_year"] if entry["year"] >= 2022)
    fetched = datetime(2026, 3, 1, tzinfo=timezone.utc)
    then = openalex_candidate(work, date(2022, 12, 31), fetched)
    now = openalex_candidate(work, date(2026, 12, 1), fetched)
    assert now.cited_by_count == 159 and then.cited_by_count == 159 - later < 159
    assert then.source == OPENALEX and then.publication_id is None and then.year == 2020
    assert then.authors and then.abstract and len(then.abstract) > 200 and then.title == WORKS[IN_POOL]["title"]


@pytest.fixture
def graph_lacking_two(sample_run, tmp_path):
    """A writable copy of the scored sample without the publications GONE, and a fresh instance."""
    database = sample_run.copy_database(tmp_path / "recon.duckdb")
    with duckdb.connect(str(database)) as con:
        con.execute("DELETE FROM publications WHERE list_contains(?, doi)", [list(GONE)])
    with dg.instance_for_test(temp_dir=str(home(tmp_path, "dagster_home"))) as instance:
        yield database, instance


def _defs(database, tmp_path, openalex: OpenAlexResource) -> dg.Definitions:
    resources = dict(pipeline_defs(SAMPLE_JSONL, database, openalex=openalex).resources)
    resources["papers"] = PaperIntake(folder=str(tmp_path / "papers"))
    resources["questions"] = QuestionFileResource(path="")
    return build_defs(resources)


def _ask(defs, instance):
    key = asked_key(QUESTION, [ASTER_L1T])
    result = answer(defs, instance, key, {QUESTION_TAG: QUESTION, QUESTION_DATASETS_TAG: f'["{ASTER_L1T}"]'})
    assert result.success
    return key, result


def _materialization(result, name: str):
    return next(event.materialization for event in result.all_events
                if event.is_step_materialization and event.asset_key.to_user_string() == name)


def test_online_brief_merges_openalex_with_the_kg_by_doi_counts_the_budget_and_marks_openalex_only_papers(graph_lacking_two, tmp_path):
    database, instance = graph_lacking_two
    fake = FakeOpenAlex(real_works())
    online = OpenAlexResource(offline=False, api_key="oa-brief-key-42")
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mocked:
        mocked.add_callback(responses.GET, API, callback=fake.responses_callback)
        key, result = _ask(_defs(database, tmp_path, online), instance)
        searches = [query for path, query in fake.requests if "search=" in query]
        assert len(searches) == len(fake.requests)  # nothing but searches: the question and each sub-question once
        [(subquestions,)] = rows(database, "SELECT count(*) FROM question_plans WHERE question_id = ?", [key])
        assert len(searches) == 1 + subquestions
        # the shared daily budget: 10 list calls a search page, in the same ledger as the other OpenAlex assets
        assert rows(database, "SELECT asset, list_calls, requests FROM openalex_usage") == [
            ("question_evidence", 10 * len(searches), len(searches))]
        evidence = rows(database, "SELECT doi, source, publication_id, edges, assessed, stale FROM question_evidence "
                                  "WHERE question_id = ? ORDER BY rank", [key])
        dois = [doi for doi, *_ in evidence]
        assert len(dois) == len(set(dois))  # merged by DOI: each paper once
        by_doi = {doi: rest for doi, *rest in evidence}
        openalex_only = [doi for doi, (source, *_) in by_doi.items() if source == OPENALEX]
        assert openalex_only and set(openalex_only) <= set(GONE)
        for doi in openalex_only:  # no KG id, no edge: unassessed, outside the staleness weight
            assert tuple(by_doi[doi][1:]) == (None, 0, False, False)
        if IN_POOL in by_doi:
            assert by_doi[IN_POOL][0] == KG and by_doi[IN_POOL][1] is not None
        metadata = _materialization(result, "question_evidence").metadata
        assert metadata["openalex_requests"].value == len(searches) and metadata["openalex_list_calls"].value == 10 * len(searches)
        assert metadata["openalex_papers_in_pool"].value >= 1  # the graph's ASTER papers the search found, merged
        assert QUESTION in metadata["openalex_queries_sent"].value
        summary, cited = rows(database, "SELECT trust_summary, cited FROM research_briefs WHERE question_id = ?", [key])[0]
        lines = [line for line in summary if "found only in OpenAlex" in line]
        cited_openalex = [line for line in lines if "Network reliability: UNASSESSED" in line]
        assert cited_openalex == lines
        [(verdict_papers,)] = rows(database, "SELECT evidence_ids FROM question_verdict_log WHERE question_id = ? AND round = 0", [key])
        assert set(openalex_only) <= set(verdict_papers)  # the critic judged them (by DOI: they have no KG id)

        # the same question again: every search a cache hit, no request, nothing more charged, the same evidence
        sent = len(fake.requests)
        _, again = _ask(_defs(database, tmp_path, online), instance)
        assert len(fake.requests) == sent
        assert rows(database, "SELECT sum(list_calls), sum(requests) FROM openalex_usage") == [(10 * len(searches), len(searches))]
        assert [doi for doi, *_ in rows(database, "SELECT doi FROM question_evidence WHERE question_id = ? ORDER BY rank", [key])] == dois
        assert "cached" in _materialization(again, "question_evidence").metadata["openalex_search"].value


def test_offline_nothing_is_searched_and_no_search_table_is_made(graph_lacking_two, tmp_path):
    database, instance = graph_lacking_two
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mocked:  # any request would fail the run
        key, result = _ask(_defs(database, tmp_path, OpenAlexResource(offline=True)), instance)
        assert len(mocked.calls) == 0
    assert rows(database, "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'openalex_search_cache'") == [(0,)]
    assert rows(database, "SELECT count(*) FROM question_evidence WHERE question_id = ? AND source <> 'kg'", [key]) == [(0,)]
    assert _materialization(result, "question_evidence").metadata["openalex_search"].value.startswith("OpenAlex search not sent")
