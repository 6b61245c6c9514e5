"""Tests for the OpenAlex client: real pyalex code over a faked transport (`responses`) answering with the
real recorded works, and over a loopback HTTP server for OPENALEX_URL."""

from __future__ import annotations

import json
import logging
import re
import time
from datetime import datetime, timedelta, timezone

import pyalex
import pytest
import requests
import responses

from recon_assets.enrichment import openalex_client
from recon_assets.enrichment.openalex_batches import MAX_FILTER_VALUES, MAX_URL_CHARS
from recon_assets.enrichment.openalex_client import (
    ERROR,
    FOUND,
    NOT_FOUND,
    OFFLINE_MISSING,
    OpenAlexClient,
    OpenAlexSession,
    budget_spent,
    cache_rows,
    recorded_report,
    short_work_id,
    stale_dois,
)
from recon_assets.enrichment.resources import OpenAlexResource
from recon_assets.enrichment.retries import RetryPolicy
from recon_assets.kg.doi import canonical_doi

from recon_assets_tests.fake_openalex import FakeOpenAlex, real_works, serve_on_loopback

API = re.compile(r"https://api\.openalex\.org/works.*")
WORKS = real_works()
DOIS = [canonical_doi(work["doi"]) for work in WORKS]
SECRET = "oa-test-key-7f3a9c"
# The examples of DOIs with URL-special characters, carried by real works re-keyed to them.
AMPERSAND_DOI = "10.1207/s15327809jls0703&4_2"
COMMA_DOI = "10.1001/jama.251.19.2504,2509"


def _rekeyed(work: dict, doi: str) -> dict:
    return {**work, "doi": f"https://doi.org/{doi}"}


def _client(sleeps: list[float] | None = None, *, retries: int = 3, max_retry_after: float = 60.0, **kwargs) -> OpenAlexClient:
    sleep = sleeps.append if sleeps is not None else lambda _: None
    retry = RetryPolicy(retries=retries, backoff=0.5, max_retry_after=max_retry_after, sleep=sleep)
    return OpenAlexClient(api_key=SECRET, mailto="recon@example.org", retry=retry, **kwargs)


def _status(fake: FakeOpenAlex, queue: list[tuple[int, dict]]):
    """A callback answering with `queue` (status, headers) first, then with the fake."""

    def callback(request):
        if queue:
            status, headers = queue.pop(0)
            return status, headers, json.dumps({"error": "fault", "message": "injected"})
        return fake.responses_callback(request)

    return callback


@responses.activate
def test_all_real_works_come_back_in_one_batch_with_select_and_per_page():
    fake = FakeOpenAlex(WORKS)
    responses.add_callback(responses.GET, API, callback=fake.responses_callback)
    report = _client().fetch(DOIS)
    assert [(result.doi, result.status) for result in report.results] == [(doi, FOUND) for doi in DOIS]
    assert report.requests == 1 and len(responses.calls) == 1
    url = responses.calls[0].request.url
    assert "per-page=100" in url and "select=id,doi,title,type,publication_year,cited_by_count" in url
    assert report.results[4].work["cited_by_count"] == 159
    assert report.budget_spent is None and report.unfetched == []


@responses.activate
def test_results_join_back_by_canonical_doi_whatever_the_case_openalex_returns():
    upper = _rekeyed(WORKS[4], "10.3390/RS12081239")
    fake = FakeOpenAlex([upper])
    responses.add_callback(responses.GET, API, callback=fake.responses_callback)
    report = _client().fetch(["10.3390/rs12081239"])
    assert [(result.doi, result.status) for result in report.results] == [("10.3390/rs12081239", FOUND)]
    assert report.requests == 1  # matched in the batch, not by a single lookup


@responses.activate
def test_batches_keep_to_100_values_and_4000_url_characters_with_sici_dois():
    sici = [f"10.1002/(sici)1521-396x(199910){volume}:2<637::aid-pssa637>3.0.co;2-7" for volume in range(150)]
    plain = [f"10.3390/rs{index:08d}" for index in range(230)]
    fake = FakeOpenAlex([_rekeyed(WORKS[index % len(WORKS)], doi) for index, doi in enumerate(sici + plain)])
    responses.add_callback(responses.GET, API, callback=fake.responses_callback)
    report = _client().fetch(sici + plain)
    assert {result.status for result in report.results} == {FOUND} and len(report.results) == 380
    urls = [call.request.url for call in responses.calls]
    assert max(len(url) for url in urls) <= MAX_URL_CHARS
    values = [url.split("filter=doi:", 1)[1].split("&", 1)[0].split("%7C") for url in urls]
    assert max(len(batch) for batch in values) <= MAX_FILTER_VALUES
    # 150 SICI DOIs (89 URL characters each) and 230 plain ones (23) need 18,640 characters: 5 URLs of 4,000,
    # where 100-value batches alone would be 4
    assert len(urls) == report.requests == 5


@responses.activate
def test_reserved_and_url_special_characters_are_encoded_exactly_once():
    fake = FakeOpenAlex([_rekeyed(WORKS[0], AMPERSAND_DOI), _rekeyed(WORKS[1], COMMA_DOI), WORKS[4]])
    responses.add_callback(responses.GET, API, callback=fake.responses_callback)
    report = _client().fetch([AMPERSAND_DOI, COMMA_DOI, "10.3390/rs12081239"])
    assert {result.doi: result.status for result in report.results} == {
        AMPERSAND_DOI: FOUND, COMMA_DOI: FOUND, "10.3390/rs12081239": FOUND
    }
    paths = [(path, query) for path, query in fake.requests]
    batch_query = next(query for path, query in paths if path == "/works")
    assert "filter=doi:10.1207%2Fs15327809jls0703%264_2%7C10.3390%2Frs12081239" in batch_query
    # the ',' DOI cannot be a filter value: it is looked up singly, encoded once
    assert ("/works/doi%3A10.1001%2Fjama.251.19.2504%2C2509", "") in paths
    assert not any("%25" in path + query for path, query in paths)


@responses.activate
def test_a_doi_the_batch_omits_is_looked_up_singly_and_never_lost():
    absent = "10.9999/not-in-openalex"
    fake = FakeOpenAlex(WORKS[:3], omit_from_batches=[DOIS[1]])
    responses.add_callback(responses.GET, API, callback=fake.responses_callback)
    report = _client().fetch([*DOIS[:3], absent])
    assert {result.doi: result.status for result in report.results} == {
        DOIS[0]: FOUND, DOIS[1]: FOUND, DOIS[2]: FOUND, absent: NOT_FOUND
    }
    assert report.requests == 3  # one batch, then the two DOIs it did not return
    assert [path for path, _ in fake.requests[1:]] == [
        f"/works/doi%3A{DOIS[1].replace('/', '%2F')}", "/works/doi%3A10.9999%2Fnot-in-openalex"
    ]


@responses.activate
def test_429_with_retry_after_waits_and_retries():
    sleeps: list[float] = []
    fake = FakeOpenAlex(WORKS)
    queue = [(429, {"Retry-After": "2", "X-RateLimit-Remaining": "99000"})]
    responses.add_callback(responses.GET, API, callback=_status(fake, queue))
    report = _client(sleeps).fetch(DOIS[:5])
    assert [result.status for result in report.results] == [FOUND] * 5
    assert sleeps == [2.0] and report.requests == 2 and report.budget_spent is None


@pytest.mark.parametrize(
    ("headers", "reset"),
    [
        ({"Retry-After": "30000", "X-RateLimit-Remaining": "0"}, 30000),
        ({"Retry-After": "43200"}, 43200),  # reset 12 h away: beyond max_retry_after
        ({"X-RateLimit-Remaining": "0"}, None),
        # fewer credits left than the request needs, although Retry-After is short
        ({"Retry-After": "5", "X-RateLimit-Remaining": "3", "X-RateLimit-Credits-Required": "10", "X-RateLimit-Reset": "41992"}, 41992),
        # no Retry-After: nothing says a wait would help
        ({"X-RateLimit-Remaining": "500", "X-RateLimit-Reset": "7200"}, 7200),
        ({}, None),
        # bug row: a negative reset read "resets in about -1.0 h"; Retry-After says when instead
        ({"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "-3600", "Retry-After": "30000"}, 30000),
    ],
    ids=["remaining-0", "long-retry-after", "remaining-0-no-retry-after", "credits-short", "no-retry-after", "bare", "negative-reset"],
)
@responses.activate
def test_429_when_the_daily_budget_is_spent_stops_and_reports_what_was_not_fetched(headers, reset):
    sleeps: list[float] = []
    sici = [f"10.1002/(sici)1521-396x(199910){volume}:2<637::aid-pssa637>3.0.co;2-7" for volume in range(60)]
    fake = FakeOpenAlex([_rekeyed(WORKS[0], doi) for doi in sici])
    answered = []

    def callback(request):
        answered.append(request.url)
        if len(answered) == 2:
            return 429, headers, json.dumps({"error": "Rate limit exceeded"})
        return fake.responses_callback(request)

    responses.add_callback(responses.GET, API, callback=callback)
    report = _client(sleeps).fetch([*sici, COMMA_DOI])
    first_batch = [result.doi for result in report.results]
    assert first_batch and all(result.status == FOUND for result in report.results)
    assert report.unfetched == [doi for doi in [*sici, COMMA_DOI] if doi not in first_batch]
    assert "OpenAlex daily budget spent (HTTP 429" in report.budget_spent
    assert report.reset_seconds == reset
    assert (f"resets in about {reset / 3600:.1f} h" if reset else "reset time not given") in report.budget_spent
    assert sleeps == [] and report.requests == 2 and len(answered) == 2


@pytest.mark.parametrize(
    ("status", "headers", "spent"),
    [
        (429, {"Retry-After": "2", "X-RateLimit-Remaining": "99000", "X-RateLimit-Credits-Required": "1"}, False),
        (429, {"Retry-After": "2", "X-RateLimit-Remaining": "1", "X-RateLimit-Credits-Required": "1"}, False),
        (429, {"Retry-After": "2", "X-RateLimit-Remaining": "0"}, True),
        (429, {"Retry-After": "2", "X-RateLimit-Remaining": "0.5", "X-RateLimit-Credits-Required": "1"}, True),
        # Bug rows: an overdrawn budget (negative remaining) is spent, and "nan" is no figure at all.
        (429, {"Retry-After": "2", "X-RateLimit-Remaining": "-3"}, True),
        (429, {"Retry-After": "2", "X-RateLimit-Remaining": "nan", "X-RateLimit-Credits-Required": "1"}, False),
        (429, {"Retry-After": "nan", "X-RateLimit-Remaining": "50"}, True),
        (429, {"Retry-After": "61"}, True),
        (429, {"Retry-After": "soon"}, True),
        (503, {}, False),
    ],
)
def test_budget_spent_rules(status, headers, spent):
    response = requests.Response()
    response.status_code, response.headers = status, requests.structures.CaseInsensitiveDict(headers)
    assert budget_spent(response, max_retry_after=60) is spent


@pytest.mark.parametrize(("retries", "expected_sleeps"), [(0, []), (2, [0.5, 1.0]), (3, [0.5, 1.0, 2.0])])
@responses.activate
def test_5xx_is_retried_with_backoff_then_becomes_an_error_row(retries, expected_sleeps):
    sleeps: list[float] = []
    fake = FakeOpenAlex(WORKS)
    queue = [(503, {})] * (retries + 1)
    responses.add_callback(responses.GET, API, callback=_status(fake, queue))
    report = _client(sleeps, retries=retries).fetch(DOIS[:3])
    assert [(result.status, result.error) for result in report.results] == [(ERROR, "HTTP 503 Service Unavailable from /works")] * 3
    assert sleeps == expected_sleeps and report.requests == retries + 1


@responses.activate
def test_5xx_then_success_recovers_within_the_retries():
    fake = FakeOpenAlex(WORKS)
    responses.add_callback(responses.GET, API, callback=_status(fake, [(500, {}), (502, {})]))
    report = _client().fetch(DOIS[:3])
    assert [result.status for result in report.results] == [FOUND] * 3 and report.requests == 3


@responses.activate
def test_a_5xx_retry_after_is_waited_for_at_most_max_retry_after():
    sleeps: list[float] = []
    fake = FakeOpenAlex(WORKS)
    responses.add_callback(responses.GET, API, callback=_status(fake, [(503, {"Retry-After": "3600"}), (503, {"Retry-After": "7"})]))
    report = _client(sleeps, max_retry_after=30).fetch(DOIS[:3])
    assert [result.status for result in report.results] == [FOUND] * 3
    assert sleeps == [30.0, 7.0] and report.requests == 3


@responses.activate
def test_pyalex_retry_config_has_no_effect_our_retries_alone_count(monkeypatch):
    """pyalex reads config.max_retries only in `_get_requests_session`, which builds its own sessions; the client
    never lets it build one (every request goes through OpenAlexSession), so whatever max_retries says, a 503
    is sent exactly retries + 1 times."""

    def pyalex_session():
        raise AssertionError("pyalex built its own session")

    monkeypatch.setattr(pyalex.api, "_get_requests_session", pyalex_session)
    monkeypatch.setitem(pyalex.config, "max_retries", 5)
    fake = FakeOpenAlex(WORKS, omit_from_batches=[DOIS[1]])
    responses.add_callback(responses.GET, API, callback=_status(fake, [(503, {})] * 2))
    report = _client(retries=1).fetch(DOIS[:3])
    assert [result.status for result in report.results] == [ERROR] * 3  # the batch failed twice: error rows
    responses.calls.reset()
    report = _client(retries=1).fetch(DOIS[:3])  # batch, then the omitted DOI's single lookup
    assert [result.status for result in report.results] == [FOUND] * 3 and report.requests == len(responses.calls) == 2


def test_a_server_slower_than_the_timeout_gives_error_rows_after_bounded_retries():
    sleeps: list[float] = []
    with serve_on_loopback(FakeOpenAlex(WORKS), delay=1.0) as base:
        started = time.monotonic()
        report = _client(sleeps, base_url=base, timeout=0.2, retries=2).fetch(DOIS[:2])
        elapsed = time.monotonic() - started
    assert [result.status for result in report.results] == [ERROR, ERROR]
    assert report.results[0].error.startswith("ReadTimeout: ")
    assert report.requests == 3 and sleeps == [0.5, 1.0]  # backoff recorded, not slept
    assert elapsed < 3 * 0.2 + 0.5


@responses.activate
def test_timeouts_are_retried_then_become_error_rows():
    sleeps: list[float] = []
    responses.add(responses.GET, API, body=requests.exceptions.ReadTimeout("read timed out"))
    report = _client(sleeps, retries=1).fetch(DOIS[:2])
    assert [result.status for result in report.results] == [ERROR, ERROR]
    assert report.results[0].error == "ReadTimeout: read timed out"
    assert sleeps == [0.5] and report.requests == 2


@responses.activate
def test_the_api_key_is_sent_as_a_bearer_token_and_never_logged_nor_in_errors(caplog):
    caplog.set_level(logging.DEBUG)
    fake = FakeOpenAlex(WORKS[:2])
    responses.add_callback(responses.GET, API, callback=_status(fake, [(503, {})] * 4))
    report = _client().fetch([*DOIS[:2], "10.9999/absent"])
    assert responses.calls[0].request.headers["Authorization"] == f"Bearer {SECRET}"
    assert responses.calls[0].request.headers["From"] == "recon@example.org"
    assert SECRET not in caplog.text and "GET request to URL" in caplog.text  # pyalex's own debug line was captured
    assert not any(SECRET in (result.error or "") for result in report.results)
    assert not any(SECRET in call.request.url for call in responses.calls)


@pytest.mark.parametrize("prefix", ["", "/openalex/v1"])
def test_openalex_url_points_pyalex_at_a_loopback_server(prefix):
    fake = FakeOpenAlex(WORKS, omit_from_batches=[DOIS[7]])
    with serve_on_loopback(fake) as base:
        assert base.startswith("http://127.0.0.1:")
        report = _client(base_url=base + prefix, timeout=5).fetch([*DOIS, "10.9999/absent"])
    statuses = {result.doi: result.status for result in report.results}
    assert statuses == {**{doi: FOUND for doi in DOIS}, "10.9999/absent": NOT_FOUND}
    assert [path for path, _ in fake.requests] == [f"{prefix}/works", f"{prefix}/works/doi%3A{DOIS[7].replace('/', '%2F')}", f"{prefix}/works/doi%3A10.9999%2Fabsent"]


@pytest.mark.parametrize(
    ("url", "base", "expected"),
    [
        ("https://api.openalex.org/works?filter=doi:10.1%2Fa", "http://127.0.0.1:8080", "http://127.0.0.1:8080/works?filter=doi:10.1%2Fa"),
        ("https://api.openalex.org/works/doi%3A10.1%2Fa", "https://proxy.example/oa/", "https://proxy.example/oa/works/doi%3A10.1%2Fa"),
        ("https://api.openalex.org/works", "https://api.openalex.org", "https://api.openalex.org/works"),
    ],
)
def test_session_rebases_urls_keeping_their_encoding(url, base, expected):
    assert OpenAlexSession(base, timeout=1).rebase(url) == expected


NOW = datetime(2026, 11, 29, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    ("fetched_at", "ttl_days", "expected"),
    [
        ({}, 30, ["10.1/a", "10.1/b"]),
        ({"10.1/a": NOW - timedelta(days=29), "10.1/b": NOW - timedelta(days=1)}, 30, []),
        ({"10.1/a": NOW - timedelta(days=31), "10.1/b": NOW - timedelta(days=1)}, 30, ["10.1/a"]),
        ({"10.1/a": NOW - timedelta(days=2)}, 30, ["10.1/b"]),
        ({"10.1/a": NOW - timedelta(seconds=1), "10.1/b": NOW}, 0, ["10.1/a"]),
    ],
)
def test_stale_dois_are_the_never_fetched_and_the_older_than_ttl(fetched_at, ttl_days, expected):
    assert stale_dois(["10.1/a", "10.1/b", "10.1/a"], fetched_at, now=NOW, ttl=timedelta(days=ttl_days)) == expected


def test_recorded_report_finds_recorded_works_and_reports_the_rest_as_offline_errors():
    recorded_at = datetime(2026, 3, 1, 8, 55, 55, tzinfo=timezone.utc)
    report = recorded_report([DOIS[0], "10.9999/absent"], WORKS, recorded_at=recorded_at)
    assert [(result.doi, result.status, result.error) for result in report.results] == [
        (DOIS[0], FOUND, None), ("10.9999/absent", ERROR, OFFLINE_MISSING)
    ]
    assert report.requests == 0 and report.fetched_at == recorded_at


def test_a_composed_record_in_a_recording_is_cached_as_of_the_day_its_count_was_seen():
    recorded_at = datetime(2026, 3, 1, 8, 55, 55, tzinfo=timezone.utc)
    composed = {
        "id": None, "doi": "https://doi.org/10.5194/gmd-8-3071-2015", "cited_by_count": 779, "counts_by_year": None,
        "_composed_from": {"page": "https://4ort.xyz/entity/ecco", "page_date": "2025-01-31", "read_on": "2026-12-02", "count_source": "OpenAlex (as the page says)"},
    }
    report = recorded_report([DOIS[0], "10.5194/gmd-8-3071-2015"], [*WORKS, composed], recorded_at=recorded_at)
    assert [(result.status, result.fetched_at) for result in report.results] == [
        (FOUND, None), (FOUND, datetime(2025, 1, 31, tzinfo=timezone.utc))
    ]
    rows = cache_rows(report.results, fetched_at=report.fetched_at)
    # the OpenAlex work at the recording's date, the page's count at the page's date, its provenance kept
    assert rows["fetched_at"].tolist() == [recorded_at, datetime(2025, 1, 31, tzinfo=timezone.utc)]
    assert json.loads(rows.loc[1, "work"])["_composed_from"]["page"] == "https://4ort.xyz/entity/ecco"


def test_no_doi_due_builds_no_client_and_sends_nothing(monkeypatch):
    def no_client(**kwargs):
        raise AssertionError("a client was built")

    monkeypatch.setattr(openalex_client, "OpenAlexClient", no_client)
    report = OpenAlexResource(api_key=SECRET).fetch([], logging.getLogger("test"))
    assert (report.results, report.requests, report.budget_spent) == ([], 0, None)


@responses.activate
def test_a_connection_error_names_the_host_not_the_whole_request_url():
    """Bug: every error row and reason held the ~2.7 KB batch URL that requests repeats in its message."""
    responses.add(responses.GET, API, body=requests.exceptions.ConnectionError("Max retries exceeded with url: /works?filter=doi:..."))
    report = _client(retries=0).fetch(DOIS[:2])
    assert {result.error for result in report.results} == {"ConnectionError: no answer from api.openalex.org"}


@pytest.mark.parametrize(
    ("work_id", "expected"),
    [("https://openalex.org/W2883746869", "W2883746869"), ("W2883746869", "W2883746869")],
    ids=["url", "short"],
)
def test_short_work_id(work_id, expected):
    assert short_work_id(work_id) == expected
