"""OpenAlex search (`enrichment.openalex_search`): the real pyalex request path over a faked transport (`responses`)
answering with the recorded real works (fixtures/openalex; the search envelope is assembled by
`fake_openalex.FakeOpenAlex.search_page` around them), cached in DuckDB, charged to the shared daily budget."""

from __future__ import annotations

import json
import re
from datetime import date, datetime, timedelta, timezone
from urllib.parse import parse_qs

import duckdb
import pytest
import responses

from recon_assets.enrichment.openalex_client import OpenAlexClient
from recon_assets.enrichment.openalex_records import CITING_FIELDS
from recon_assets.enrichment.openalex_search import (
    CACHED, FAILED, QUESTION_SEARCHES, MAX_QUERY_CHARS, NOT_SENT, SEARCHED, STALE_CACHE, SearchQuery, search_query, search_works, table_exists, works_as_of,
)
from recon_assets.enrichment.openalex_usage import spent_on
from recon_assets.enrichment.retries import RetryPolicy

from recon_assets_tests.fake_openalex import FakeOpenAlex, real_works

API = re.compile(r"https://api\.openalex\.org/works.*")
NOW = datetime(2026, 12, 3, 9, 0, tzinfo=timezone.utc)
SECRET = "oa-search-key-5c1d"


def _client() -> OpenAlexClient:
    return OpenAlexClient(api_key=SECRET, retry=RetryPolicy(retries=1, backoff=0, sleep=lambda _: None))


def _search(con, queries, client, *, now=NOW, daily=10_000, run_cap=None, why_not=None, asset="question_evidence"):
    return search_works(con, queries, client=client, asset=asset, run_id="run-1", now=now, daily_list_calls=daily,
                        run_cap=run_cap, why_not=why_not, cache=QUESTION_SEARCHES)


@pytest.fixture
def con():
    with duckdb.connect() as connection:
        yield connection


@pytest.fixture
def fake():
    fake = FakeOpenAlex(real_works())
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mocked:
        mocked.add_callback(responses.GET, API, callback=fake.responses_callback)
        fake.mocked = mocked
        yield fake


@pytest.mark.parametrize(("text", "sent"), [
    ("  ASTER   mineral\nmapping ", "ASTER mineral mapping"),
    ('"gold deposits', "gold deposits"),  # an unbalanced phrase quote is dropped
    ("word " * 100, ("word " * 60).strip()),  # cut at a word boundary within MAX_QUERY_CHARS
])
def test_query_text_is_normalised(text, sent):
    query = search_query(text)
    assert query.text == sent and len(query.text) <= MAX_QUERY_CHARS


@pytest.mark.parametrize(("text", "per_page"), [("", 25), ('  "" ', 25), ("gold", 0), ("gold", 201)])
def test_an_empty_query_or_a_page_size_out_of_range_is_refused(text, per_page):
    with pytest.raises(ValueError):
        search_query(text, per_page)


def test_the_cache_key_depends_on_text_and_page_size():
    assert search_query("gold").key == search_query(" gold ").key != search_query("gold", 10).key != search_query("golds").key


def test_a_search_sends_pyalex_search_with_the_citing_fields_counts_ten_list_calls_and_caches(con, fake):
    query = search_query("ASTER Landsat mineral mapping orogenic gold", per_page=5)
    report = _search(con, [query], _client())
    (result,) = report.results
    assert result.status == SEARCHED and len(result.works) == 5 and result.invalid == 0
    assert [work["doi"] for work in result.works][:1] == ["https://doi.org/10.3390/rs11182122"]
    (path, query_string), = fake.requests
    sent = parse_qs(query_string)
    assert path == "/works" and sent["search"] == [query.text] and sent["per-page"] == ["5"]
    assert sent["select"] == [",".join(CITING_FIELDS)]
    assert SECRET not in query_string  # the key goes as a header, never in the URL
    assert report.requests == 1 and report.list_calls == 10 and report.sent == [query.text]
    assert spent_on(con, NOW.date()) == {"question_evidence": 10}
    (stored, per_page, works, count, asked_by), = con.execute(
        "SELECT query, per_page, works, result_count, asked_by FROM openalex_search_cache").fetchall()
    assert (stored, per_page, asked_by) == (query.text, 5, "question_evidence")
    assert [work["id"] for work in json.loads(works)] == [work["id"] for work in result.works]
    assert set(json.loads(works)[0]) == set(CITING_FIELDS) and count > 5


def test_the_same_query_again_within_the_ttl_is_a_cache_hit_with_no_request(con, fake):
    query = search_query("polymer flooding viscoelastic")
    first = _search(con, [query], _client())
    second = _search(con, [query, query], _client(), now=NOW + timedelta(days=3))
    assert len(fake.requests) == 1
    assert [r.status for r in second.results] == [CACHED, CACHED] and second.requests == 0 and second.list_calls == 0
    assert second.results[0].works == first.results[0].works
    assert spent_on(con, NOW.date()) == {"question_evidence": 10}  # nothing more charged
    third = _search(con, [query], _client(), now=NOW + timedelta(days=31))  # older than the TTL: asked again
    assert third.results[0].status == SEARCHED and len(fake.requests) == 2


def test_the_shared_daily_budget_is_read_and_a_spent_one_sends_nothing(con, fake):
    spent_on(con, NOW.date())  # creates the ledger
    con.execute("INSERT INTO openalex_usage VALUES (?, 'earlier', 'openalex_citing_works', 9995, 700, ?)", [NOW.date(), NOW])
    queries = [search_query("gold"), search_query("drilling fluid")]
    report = _search(con, queries, _client())
    assert fake.requests == [] and report.requests == 0 and report.list_calls_allowed == 5
    assert [r.status for r in report.results] == [NOT_SENT, NOT_SENT]
    assert "daily OpenAlex budget of 10,000 list calls, 9,995 spent earlier" in report.results[0].reason
    assert not table_exists(con, "openalex_search_cache")  # nothing answered, nothing cached


def test_a_run_cap_lets_one_search_through_and_the_rest_wait(con, fake):
    queries = [search_query("gold"), search_query("drilling fluid"), search_query("flood susceptibility")]
    report = _search(con, queries, _client(), run_cap=15)
    assert [r.status for r in report.results] == [SEARCHED, NOT_SENT, NOT_SENT] and len(fake.requests) == 1
    assert report.list_calls == 10 and "per-run cap of 15" in report.results[1].reason
    assert spent_on(con, NOW.date()) == {"question_evidence": 10}


def test_openalex_429_daily_limit_stops_the_searches_and_a_cached_answer_is_used_as_stale(con, fake):
    old = search_query("gold")
    _search(con, [old], _client(), now=NOW - timedelta(days=40))
    fake.mocked.remove(responses.GET, API)
    fake.mocked.add(responses.GET, API, status=429, json={"error": "limit"}, headers={"X-RateLimit-Remaining": "0"})
    report = _search(con, [old, search_query("drilling fluid")], _client())
    assert [r.status for r in report.results] == [STALE_CACHE, NOT_SENT]
    assert report.results[0].works and "daily budget spent" in report.results[0].reason
    assert report.requests == 1 and report.list_calls == 10  # the refused attempt is charged, as every attempt is


def test_a_server_error_fails_that_query_only_and_is_not_cached(con, fake):
    calls = []

    def flaky(request):
        calls.append(request.url)
        if "drilling" in request.url:
            return 503, {}, json.dumps({"error": "busy"})
        return fake.responses_callback(request)

    fake.mocked.remove(responses.GET, API)
    fake.mocked.add_callback(responses.GET, API, callback=flaky)
    report = _search(con, [search_query("drilling fluid"), search_query("gold")], _client())
    assert [r.status for r in report.results] == [FAILED, SEARCHED]
    assert "HTTP 503" in report.results[0].reason and SECRET not in report.results[0].reason
    assert report.requests == 3  # the failed one retried once
    assert con.execute("SELECT query FROM openalex_search_cache").fetchall() == [("gold",)]


def test_offline_or_without_consent_nothing_is_sent_and_nothing_is_charged(con, fake):
    query = search_query("gold")
    offline = _search(con, [query], None)
    withheld = _search(con, [query], _client(), why_not="papers opt-in off")
    assert fake.requests == []
    assert offline.results[0].status == NOT_SENT and "offline" in offline.results[0].reason
    assert withheld.results[0].reason == "papers opt-in off" and withheld.list_calls_allowed == 0
    assert spent_on(con, NOW.date()) == {}


def test_an_invalid_returned_work_is_counted_and_left_out(con, fake):
    broken = {**real_works()[5], "cited_by_count": "126"}  # a string where OpenAlex sends a number

    def answer(request):
        return 200, {}, json.dumps({"meta": {"count": 2}, "results": [real_works()[4], broken], "group_by": []})

    fake.mocked.remove(responses.GET, API)
    fake.mocked.add_callback(responses.GET, API, callback=answer)
    (result,) = _search(con, [search_query("spectral imagery")], _client()).results
    assert result.invalid == 1 and [work["id"] for work in result.works] == [real_works()[4]["id"]]


def test_works_as_of_keeps_each_work_once_and_none_published_after_as_of():
    works = real_works()
    first = type("R", (), {"works": (works[4], works[0])})()
    second = type("R", (), {"works": (works[4], works[38])})()  # works[38]: 2024
    kept = works_as_of([first, second], date(2023, 6, 1))
    assert [w["id"] for w in kept] == [works[4]["id"], works[0]["id"]]


def test_search_query_is_a_value():
    assert SearchQuery("gold") == search_query("gold")
