"""The research briefs' OpenAlex search (issue 21, online retrieval): candidates from OpenAlex search merged with the
KG's by DOI, cached, on the shared daily budget; a paper found only in OpenAlex is unassessed and its trust summary
says so. OpenAlex is faked at the HTTP transport (`responses`) with the recorded real works of
fixtures/openalex (the search envelope is assembled around them by `fake_openalex.FakeOpenAlex.search_page`; see
fixtures/openalex/PROVENANCE.md).

Every one of those works is a publication of the sample graph, so the asset tests remove two of them from a copy of
the scored sample's `publications` table: those two are then papers the graph lacks, found only in OpenAlex (the
records themselves are unchanged).

The critic's rewrite rounds search too (`question_verdicts`, `searching.round_search`): the IMERG question of the
question file is STALE in its first round on the sample (its literature rests on the replaced V06 and V05), so its
rewrite rounds search OpenAlex for their rewritten sub-questions, through the same cache and budget."""

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime, timezone
from urllib.parse import parse_qs

import dagster as dg
import duckdb
import pytest
import requests
import responses

from recon_assets.briefs.questions import asked_key
from recon_assets.briefs.retrieval import KG, OPENALEX, Candidate, openalex_candidate, searched_papers
from recon_assets.briefs.searching import search_queries
from recon_assets.definitions import build_defs
from recon_assets.enrichment.resources import OpenAlexResource
from recon_assets.papers.resources import PaperIntake
from recon_assets.briefs.partitions import QuestionFileResource
from recon_assets.shared.run_tags import QUESTION_DATASETS_TAG, QUESTION_TAG

from recon_assets_tests.fake_openalex import FakeOpenAlex, real_works
from recon_assets_tests.pipeline_runs import SAMPLE_JSONL, pipeline_defs
from recon_assets_tests.test_briefs_assets import IMERG, answer, home, rows

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


KEY = "oa-brief-key-42"


@contextmanager
def fake_openalex() -> Iterator[FakeOpenAlex]:
    """OpenAlex faked at the HTTP transport (responses), answering with the repository's recorded real works."""
    fake = FakeOpenAlex(real_works())
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mocked:
        mocked.add_callback(responses.GET, API, callback=fake.responses_callback)
        yield fake


def _materialization(result, name: str):
    return next(event.materialization for event in result.all_events
                if event.is_step_materialization and event.asset_key.to_user_string() == name)


def test_online_brief_merges_openalex_with_the_kg_by_doi_counts_the_budget_and_marks_openalex_only_papers(graph_lacking_two, tmp_path):
    database, instance = graph_lacking_two
    online = OpenAlexResource(offline=False, api_key=KEY)
    with fake_openalex() as fake:
        key, result = _ask(_defs(database, tmp_path, online), instance)
        searches = [query for path, query in fake.requests if "search=" in query]
        assert len(searches) == len(fake.requests)  # nothing but searches: the question and each sub-question once, then
        planned = _plan_queries(database, key)      # each rewrite round's sub-questions the plan did not ask
        rewritten = _rewrite_queries(database, key, planned)
        assert _searched_texts(fake) == planned + rewritten and len(planned) == 1 + 3
        # the shared daily budget: 10 list calls a search page, in the same ledger as the other OpenAlex assets
        assert sorted(rows(database, "SELECT asset, list_calls, requests FROM openalex_usage")) == [
            ("question_evidence", 10 * len(planned), len(planned)), *([("question_verdicts", 10 * len(rewritten), len(rewritten))] if rewritten else [])]
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
        assert metadata["openalex_requests"].value == len(planned) and metadata["openalex_list_calls"].value == 10 * len(planned)
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


def _searched_texts(fake: FakeOpenAlex, start: int = 0) -> list[str]:
    """The texts of the fake's search requests from its `start`-th request on, in order."""
    return [parse_qs(query)["search"][0] for _, query in fake.requests[start:] if "search=" in query]


def _log(database, key: str) -> list[tuple]:
    """(round, verdict, subquestions, openalex_added, openalex_search, evidence_ids) of the question's last judgement."""
    return rows(database, "SELECT round, verdict, subquestions, openalex_added, openalex_search, evidence_ids FROM question_verdict_log "
                          "WHERE question_id = ? AND judged_at = (SELECT max(judged_at) FROM question_verdict_log WHERE question_id = ?) "
                          "ORDER BY round", [key, key])


def _plan_queries(database, key: str) -> list[str]:
    """The query texts question_evidence searches: the question and its plan's sub-questions."""
    plan = rows(database, "SELECT question, text FROM question_plans WHERE question_id = ? ORDER BY position", [key])
    return [query.text for query in search_queries([plan[0][0], *(text for _, text in plan)])]


def _rewrite_queries(database, key: str, planned: list[str]) -> list[str]:
    """The query texts the rewrite rounds of the question's last judgement searched that the plan had not: each
    rewritten sub-question once, in round order."""
    texts = [text for _, _, subquestions, *_ in _log(database, key)[1:] for text in subquestions]
    return [query.text for query in search_queries(texts) if query.text not in planned]


def test_a_rewrite_round_searches_openalex_for_its_rewritten_subquestions_and_a_rerun_reads_the_cache(graph_lacking_two, tmp_path):
    database, instance = graph_lacking_two
    online = OpenAlexResource(offline=False, api_key=KEY)
    with fake_openalex() as fake:
        result = answer(_defs(database, tmp_path, online), instance, IMERG)
        assert result.success
        log = _log(database, IMERG)
        assert log[0][1] != "PASS" and len(log) > 1  # STALE first: rewritten and retrieved again
        planned = _plan_queries(database, IMERG)
        new = _rewrite_queries(database, IMERG, planned)
        assert new  # the rewrites ask what the plan did not
        # question_evidence searched the plan, then each rewrite round its sub-questions, each text once (a repeat is a cache hit)
        assert _searched_texts(fake) == planned + new
        assert len(fake.requests) == len(planned) + len(new)
        # the same daily budget, each asset charged what it sent
        assert sorted(rows(database, "SELECT asset, list_calls, requests FROM openalex_usage")) == [
            ("question_evidence", 10 * len(planned), len(planned)), ("question_verdicts", 10 * len(new), len(new))]
        # each round's additions logged: round 0 question_evidence's (read from its cache), the first rewrite round's search
        # adds works the pool lacked (merged by DOI: a later round searching the same texts adds none)
        assert log[0][3] > 0 and "question_evidence's search" in log[0][4]
        assert log[1][3] > 0 and f"{len(new)} searched" in log[1][4]
        assert all(added == 0 and "cached" in said for _, _, _, added, said, _ in log[2:])
        metadata = _materialization(result, "question_verdicts").metadata
        assert metadata["openalex_requests"].value == len(new) and metadata["openalex_list_calls"].value == 10 * len(new)
        assert metadata["openalex_added_by_round"].value == ", ".join(f"round {n}: {added}" for n, _, _, added, *_ in log)
        # research_briefs judged the last round again over the pool the rounds had (their searches read from the cache)
        assert rows(database, "SELECT verdict FROM research_briefs WHERE question_id = ?", [IMERG]) == [(log[-1][1],)]
        evidence = set(log[-1][5])
        assert len(evidence) == len(log[-1][5])  # merged by DOI: each paper once

        # again: every search of every round a cache hit, no request, nothing more charged, the same rounds
        sent = len(fake.requests)
        again = answer(_defs(database, tmp_path, online), instance, IMERG)
        assert again.success and len(fake.requests) == sent
        assert rows(database, "SELECT sum(list_calls), sum(requests) FROM openalex_usage") == [(10 * (len(planned) + len(new)), len(planned) + len(new))]
        rerun = _log(database, IMERG)
        assert [row[:4] + row[5:] for row in rerun] == [row[:4] + row[5:] for row in log]  # the same rounds, additions and evidence
        assert all("cached" in said and "0 requests" in said for *_, said, _ in rerun[1:])


def test_offline_a_rewrite_round_sends_nothing_and_adds_nothing(graph_lacking_two, tmp_path):
    database, instance = graph_lacking_two
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mocked:  # any request would fail the run
        result = answer(_defs(database, tmp_path, OpenAlexResource(offline=True)), instance, IMERG)
        assert result.success and len(mocked.calls) == 0
    log = _log(database, IMERG)
    assert len(log) > 1 and all(added == 0 for _, _, _, added, _, _ in log)
    assert all(said.startswith("OpenAlex search not sent (RECON_OPENALEX=offline); 0 cached answer(s)") for *_, said, _ in log[1:])
    assert rows(database, "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'openalex_search_cache'") == [(0,)]
    assert rows(database, "SELECT count(*) FROM openalex_usage WHERE asset LIKE 'question%'") == [(0,)]
    assert _materialization(result, "question_verdicts").metadata["openalex_requests"].value == 0


def _timeout(request):
    raise requests.exceptions.ReadTimeout(f"read timed out: {request.url.split('?', 1)[0]}")


@pytest.mark.parametrize("failure", ["HTTP 500", "timeout"])
def test_a_failed_search_in_a_rewrite_round_leaves_the_round_judged_over_the_pool_it_had_and_says_why(graph_lacking_two, tmp_path, failure):
    database, instance = graph_lacking_two
    fake = FakeOpenAlex(real_works())
    planned = 1 + 3  # question_evidence's searches: the question and its offline plan's 3 sub-questions; every later one fails

    failed = []

    def callback(request):
        if len(fake.requests) < planned:
            return fake.responses_callback(request)
        failed.append(request.url)
        if failure == "timeout":
            _timeout(request)
        return 500, {"Content-Type": "application/json"}, '{"error": "Internal Server Error"}'

    online = OpenAlexResource(offline=False, api_key=KEY, retries=0)
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mocked:
        mocked.add_callback(responses.GET, API, callback=callback)
        result = answer(_defs(database, tmp_path, online), instance, IMERG)
    assert result.success  # not a crashed partition
    assert _searched_texts(fake)[:planned] == _plan_queries(database, IMERG)  # (3 sub-questions indeed)
    assert len(fake.requests) == planned and failed  # (retries=0: each rewrite query once a round; none of them cached)
    log = _log(database, IMERG)
    assert len(log) > 1
    # the rewrite rounds added nothing: their evidence is the KG's and question_evidence's searched works (cached)
    cached = {work["doi"].rsplit("doi.org/", 1)[1].lower()
              for (works,) in rows(database, "SELECT works FROM openalex_search_cache") for work in json.loads(works)}
    known = {publication_id for (publication_id,) in rows(database, "SELECT publication_id FROM publications")} | cached
    for _, _, _, added, said, ids in log[1:]:
        assert added == 0 and "failed" in said and set(ids) <= known
    assert "failed" in _materialization(result, "question_verdicts").metadata["openalex_search_by_round"].value
    # nothing failed was cached: only question_evidence's answers are
    assert rows(database, "SELECT count(*), min(asked_by), max(asked_by) FROM openalex_search_cache") == [(planned, "question_evidence", "question_evidence")]
    assert rows(database, "SELECT count(*) FROM research_briefs WHERE question_id = ?", [IMERG]) == [(1,)]

