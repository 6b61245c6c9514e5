"""Tests for Crossref retraction notices: the real Lancet records (fixtures/crossref/PROVENANCE.md) served
through httpx's transport by respx, in the documented work-list envelope."""

from __future__ import annotations

import json
import logging
from datetime import datetime, timezone
from pathlib import Path

import duckdb
import httpx
import pandas as pd
import pytest
import respx

from recon_assets.enrichment import crossref
from recon_assets.enrichment.crossref import (
    CHECKED,
    DOIS_PER_REQUEST,
    ERROR,
    FOUND,
    NOT_FOUND,
    OFFLINE,
    CrossrefClient,
    RetractionCheck,
    UpdateNotice,
    cache_rows,
    notice_year,
    record_cache_rows,
    retraction_notices,
)
from recon_assets.enrichment.resources import CrossrefResource
from recon_assets.enrichment.retries import RetryPolicy
from recon_assets.shared.sql_files import load_sql
from recon_assets.shared.table_docs import declared_columns
from recon_assets.kg.doi import canonical_doi

from recon_assets_tests.fake_crossref import FakeCrossref, fixture_works

RECORDS = json.loads((Path(__file__).parent / "fixtures" / "crossref" / "lancet_retraction_works.json").read_text())["works"]
PAPER, NOTICE = "10.1016/s0140-6736(20)31180-6", "10.1016/s0140-6736(20)31324-6"
BASE = "https://api.crossref.org"


def work_list(items: list[dict]) -> dict:
    """The Crossref REST API list envelope (documented schema) around real items."""
    return {
        "status": "ok", "message-type": "work-list", "message-version": "1.0.0",
        "message": {"facets": {}, "total-results": len(items), "items": items, "items-per-page": 1000,
                    "query": {"start-index": 0, "search-terms": None}},
    }


def updates_of(records: list[dict]):
    """A respx side effect answering `filter=updates:A,updates:B` as Crossref does: the works updating A or B."""

    def answer(request: httpx.Request) -> httpx.Response:
        targets = {canonical_doi(part.removeprefix("updates:")) for part in request.url.params["filter"].split(",updates:")}
        items = [r for r in records if any(canonical_doi(u["DOI"]) in targets for u in r.get("update-to", []))]
        return httpx.Response(200, json=work_list(items))

    return answer


def _client(*, retries: int = 3, **kwargs) -> CrossrefClient:
    return CrossrefClient(mailto="recon@example.org", retry=RetryPolicy(retries=retries, backoff=0.0, sleep=lambda _: None), **kwargs)


@pytest.mark.parametrize(
    ("dois", "expected"),
    [
        # the retracted paper: its notice points at it
        ([PAPER], {PAPER: (NOTICE,)}),
        # the notice alone: the paper's record claims to retract it, but also says the notice retracted it
        # (contested) and does not read as a notice: no retraction
        ([NOTICE], {NOTICE: ()}),
        # both at once: the contested pair is read in the direction of the record titled "Retraction—..."
        ([PAPER, NOTICE], {PAPER: (NOTICE,), NOTICE: ()}),
        (["10.1016/s0140-6736(20)31174-0"], {"10.1016/s0140-6736(20)31174-0": ()}),
    ],
)
def test_retraction_notices_of_the_real_lancet_records(dois, expected):
    with respx.mock(base_url=BASE) as mock:
        route = mock.get("/works").mock(side_effect=updates_of(RECORDS))
        report = _client().check(dois)
    assert {check.doi: check.notice_dois for check in report.results} == expected
    assert {check.status for check in report.results} == {CHECKED}
    assert route.call_count == report.requests == 1
    params = route.calls[0].request.url.params
    assert params["filter"] == ",".join(f"updates:{doi}" for doi in dois)
    assert params["mailto"] == "recon@example.org" and params["rows"] == "1000"


@pytest.mark.parametrize(
    ("items", "dois", "expected"),
    [
        # retracted in place: the record's own update-to names itself
        ([{"DOI": "10.1109/icetce.2011.5774727", "update-to": [{"DOI": "10.1109/ICETCE.2011.5774727", "type": "retraction"}]}],
         ["10.1109/icetce.2011.5774727"], {"10.1109/icetce.2011.5774727": ("10.1109/icetce.2011.5774727",)}),
        # a correction or an erratum is not a retraction
        ([{"DOI": "10.5555/n", "update-to": [{"DOI": "10.5555/p", "type": "correction"}, {"DOI": "10.5555/p", "type": "erratum"}]}],
         ["10.5555/p"], {"10.5555/p": ()}),
        # a notice retracting two checked papers; DOIs joined back in canonical form
        ([{"DOI": "10.5555/N", "update-to": [{"DOI": "https://doi.org/10.5555/P", "type": "retraction"}, {"DOI": "10.5555/q", "type": "retraction"}]}],
         ["10.5555/p", "10.5555/q", "10.5555/n"], {"10.5555/p": ("10.5555/n",), "10.5555/q": ("10.5555/n",), "10.5555/n": ()}),
        ([], ["10.5555/p"], {"10.5555/p": ()}),
        # a notice that also lists itself as retracted (a deposit quirk): the notice of another checked DOI
        # gets none ...
        ([{"DOI": "10.5555/n", "update-to": [{"DOI": "10.5555/p", "type": "retraction"}, {"DOI": "10.5555/n", "type": "retraction"}]}],
         ["10.5555/p", "10.5555/n"], {"10.5555/p": ("10.5555/n",), "10.5555/n": ()}),
        # ... but checked without the paper it retracts, it is read as retracted in place
        ([{"DOI": "10.5555/n", "update-to": [{"DOI": "10.5555/p", "type": "retraction"}, {"DOI": "10.5555/n", "type": "retraction"}]}],
         ["10.5555/n"], {"10.5555/n": ("10.5555/n",)}),
    ],
)
def test_retraction_notices_rules(items, dois, expected):
    assert retraction_notices(items, dois) == expected


def test_dois_are_checked_in_batches_and_a_comma_doi_is_reported_not_sent():
    dois = [f"10.5555/{index}" for index in range(DOIS_PER_REQUEST * 2 + 7)] + ["10.1001/jama.251.19.2504,2509"]
    with respx.mock(base_url=BASE) as mock:
        route = mock.get("/works").mock(side_effect=updates_of(RECORDS))
        report = _client().check(dois)
    assert route.call_count == report.requests == 3
    statuses = {check.doi: (check.status, check.error) for check in report.results}
    assert statuses.pop("10.1001/jama.251.19.2504,2509") == (ERROR, "a DOI with ',' cannot be written in a Crossref filter")
    assert set(statuses.values()) == {(CHECKED, None)} and len(statuses) == len(dois) - 1


@pytest.mark.parametrize(
    ("responses_", "status", "requests"),
    [
        ([httpx.Response(503), httpx.Response(502), None], CHECKED, 3),
        ([httpx.Response(503)] * 4, ERROR, 4),
        ([httpx.ConnectTimeout("connect timed out")] * 4, ERROR, 4),
        ([httpx.Response(404)], ERROR, 1),
    ],
)
def test_transient_failures_are_retried_then_reported(responses_, status, requests):
    answer = updates_of(RECORDS)
    queue = list(responses_)

    def side_effect(request):
        outcome = queue.pop(0) if queue else None
        if isinstance(outcome, Exception):
            raise outcome
        return outcome or answer(request)

    with respx.mock(base_url=BASE) as mock:
        mock.get("/works").mock(side_effect=side_effect)
        report = _client(retries=3).check([PAPER])
    assert [check.status for check in report.results] == [status] and report.requests == requests
    if status == CHECKED:
        assert report.results[0].notice_dois == (NOTICE,)
    else:
        assert report.results[0].error


def test_more_notices_than_one_page_is_an_error_not_a_silent_cut():
    with respx.mock(base_url=BASE) as mock:
        body = work_list(RECORDS[1:])
        body["message"]["total-results"] = 1500
        mock.get("/works").mock(return_value=httpx.Response(200, json=body))
        report = _client().check([PAPER])
    assert report.results[0].status == ERROR and "more than 1000 notices" in report.results[0].error


@pytest.mark.parametrize(
    "body",
    [{"status": "ok", "message-type": "work-list"}, {"status": "ok", "message": None}, ["not", "an", "object"]],
    ids=["no-message", "null-message", "a-list"],
)
def test_a_body_without_a_message_is_an_error_row(body):
    with respx.mock(base_url=BASE) as mock:
        mock.get("/works").mock(return_value=httpx.Response(200, json=body))
        report = _client().check([PAPER, NOTICE])
    assert [(check.status, check.error) for check in report.results] == [
        (ERROR, "ValueError: Crossref answered without a 'message' object")
    ] * 2


def test_the_client_closes_its_connections():
    with _client() as client:
        assert not client.client.is_closed
    assert client.client.is_closed


def test_no_doi_builds_no_client(monkeypatch):
    def no_client(**kwargs):
        raise AssertionError("a client was built")

    monkeypatch.setattr(crossref, "CrossrefClient", no_client)
    report = CrossrefResource().check([], logging.getLogger("test"))
    assert (report.results, report.requests) == ([], 0)


CHECKED_AT = datetime(2026, 3, 1, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    ("cache", "errors", "expected"),
    [
        # checked earlier, not now (offline or Crossref failed): the earlier check stands
        ([(PAPER, [NOTICE], CHECKED_AT)], {PAPER: OFFLINE}, [("floods", PAPER, CHECKED, [NOTICE], None, CHECKED_AT)]),
        ([(PAPER, [], CHECKED_AT)], {}, [("floods", PAPER, CHECKED, [], None, CHECKED_AT)]),
        # never checked: an error row with this run's reason and no check time, never "no notice"
        ([], {PAPER: OFFLINE}, [("floods", PAPER, ERROR, [], OFFLINE, None)]),
        ([], {}, [("floods", PAPER, ERROR, [], "not checked", None)]),
    ],
)
def test_retraction_rows_come_from_the_cache(cache, errors, expected):
    with duckdb.connect() as con:
        con.execute(load_sql("crossref_cache"))
        if cache:  # executemany refuses an empty list
            con.executemany("INSERT INTO crossref_cache VALUES (?, ?, ?, NULL)", cache)
        cursor = con.execute(load_sql("crossref_retraction_rows"), [["floods"], [PAPER], list(errors), list(errors.values())])
        assert [column for column, *_ in cursor.description] == list(declared_columns("crossref_retractions"))
        assert cursor.fetchall() == expected


def test_cache_rows_keep_only_successful_checks_with_their_update_notices():
    correction = UpdateNotice("10.5555/c", "correction", 2021, "Correction: a title")
    results = [RetractionCheck(PAPER, CHECKED, (NOTICE,), updates=(correction,)), RetractionCheck(NOTICE, ERROR, error="HTTP 503")]
    rows = cache_rows(results, checked_at=CHECKED_AT)
    assert rows.values.tolist() == [[
        PAPER, [NOTICE], CHECKED_AT, '[{"notice_doi": "10.5555/c", "update_type": "correction", "year": 2021, "title": "Correction: a title"}]'
    ]]


# Real Crossref records (fixtures/crossref/PROVENANCE.md): Crossref's own test records in one real work-list response,
# and the research set's correction notices.
TEST_ACCOUNTS = fixture_works("crossref_test_accounts_work_list.json")
CORRECTIONS = [
    *fixture_works("records/10.1371_journal.pone.0203153.json"), *fixture_works("records/10.1111_ijal.12281.json"),
    *fixture_works("records/10.1103_physrevb.98.104436.json"),
]


@pytest.mark.parametrize(
    ("records", "doi", "notices"),
    [
        # retracted by a separate notice (2009) and corrected in place in 2018 (the record was published in 2008: the
        # update's own date dates it)
        (TEST_ACCOUNTS, "10.5555/12345678", [("10.5555/24242424x", "retraction", 2009), ("10.5555/12345678", "corrigendum", 2018)]),
        (TEST_ACCOUNTS, "10.5555/12345679", [("10.5555/25252525x", "correction", 2012)]),
        # one notice, two papers, two types: each paper gets its own
        (TEST_ACCOUNTS, "10.5555/777766665555", [("10.5555/3030303030x", "correction", 2012)]),
        (TEST_ACCOUNTS, "10.5555/666655554444", [("10.5555/3030303030x", "clarification", 2012)]),
        (TEST_ACCOUNTS, "10.5555/12345680", [("10.5555/26262626x", "interesting_update", 2012)]),
        (TEST_ACCOUNTS, "10.5555/515151", []),
        (CORRECTIONS, "10.1371/journal.pone.0200549", [("10.1371/journal.pone.0203153", "correction", 2018)]),
        (CORRECTIONS, "10.1111/ijal.12157", [("10.1111/ijal.12281", "correction", 2019)]),
        # corrected in place on 2019-04-08, published in 2018: a 2018 as_of must not see the correction
        (CORRECTIONS, "10.1103/physrevb.98.104436", [("10.1103/physrevb.98.104436", "correction", 2019)]),
    ],
)
def test_update_notices_of_real_records_keep_type_and_the_year_the_update_took_effect(records, doi, notices):
    with respx.mock(base_url=BASE) as mock:
        fake = FakeCrossref(records)
        mock.get("/works").mock(side_effect=fake)
        [result] = _client().check([doi]).results
    assert [(n.notice_doi, n.update_type, n.year) for n in result.updates] == notices
    # the retraction rule reads the same answer, unchanged
    assert result.notice_dois == tuple(n for n, kind, _ in notices if kind == "retraction")


def test_the_updates_request_selects_the_fields_the_rules_read():
    with respx.mock(base_url=BASE) as mock:
        route = mock.get("/works").mock(side_effect=FakeCrossref(TEST_ACCOUNTS))
        _client().check(["10.5555/12345678"])
    assert route.calls[0].request.url.params["select"] == "DOI,type,title,update-to,updated-by,published,issued"


@pytest.mark.parametrize(
    ("item", "update", "year"),
    [
        ({"published": {"date-parts": [[2012, 10, 11]]}}, {"updated": {"date-parts": [[2012, 2, 29]]}}, 2012),
        ({"published": {"date-parts": [[2018, 9, 28]]}}, {"updated": {"date-parts": [[2019, 4, 8]]}}, 2019),
        ({"issued": {"date-parts": [[2020]]}}, {}, 2020),
        # Crossref's unknown date, and no date at all
        ({"issued": {"date-parts": [[None]]}}, {"updated": {"date-parts": [[None]]}}, None),
        ({}, {}, None),
        ({"published": {"date-parts": [["2020"]]}}, {}, None),
    ],
)
def test_notice_year(item, update, year):
    assert notice_year(item, update) == year


PRINT_DOIS = ["10.5555/12345678", "10.5555/24242424X", "10.5194/acp-2021-781", "10.5555/not-registered"]


def test_records_are_asked_in_batches_with_select_and_joined_back_by_canonical_doi():
    records = [*TEST_ACCOUNTS, *fixture_works("records/10.5194_acp-2021-781.json")]
    dois = [canonical_doi(doi) for doi in PRINT_DOIS] + [f"10.5555/absent-{index}" for index in range(DOIS_PER_REQUEST)] + [
        "10.1001/jama.251.19.2504,2509"
    ]
    with respx.mock(base_url=BASE) as mock:
        route = mock.get("/works").mock(side_effect=FakeCrossref(records))
        report = _client().records(dois)
    assert route.call_count == report.requests == 2
    params = route.calls[0].request.url.params
    assert params["filter"].startswith("doi:10.5555/12345678,doi:10.5555/24242424x,doi:10.5194/acp-2021-781,")
    assert params["select"] == "DOI,type,title,relation,published,issued" and params["mailto"] == "recon@example.org"
    by_doi = {check.doi: check for check in report.results}
    assert len(by_doi) == len(dois)
    assert by_doi["10.5555/12345678"].record == {
        "DOI": "10.5555/12345678", "type": "journal-article",
        "title": "Toward a Unified Theory of High-Energy Metaphysics: Silly String Theory", "year": 2008,
        "relation": {
            "is-reply-to": [{"id-type": "doi", "id": "10.5555/24242424x", "asserted-by": "subject"}],
            "references": [{"id-type": "doi", "id": "10.5284/1000389", "asserted-by": "object"}],
            "has-translation": [{"id-type": "doi", "id": "10.5555/12345678es", "asserted-by": "object"}],
        },
    }
    assert by_doi["10.5194/acp-2021-781"].record["type"] == "posted-content"
    assert (by_doi["10.5555/not-registered"].status, by_doi["10.5555/not-registered"].record) == (NOT_FOUND, None)
    assert by_doi["10.1001/jama.251.19.2504,2509"].error == "a DOI with ',' cannot be written in a Crossref filter"
    cached = record_cache_rows(report.results, checked_at=CHECKED_AT)
    assert len(cached) == len(dois) - 1 and set(cached["status"]) == {FOUND, NOT_FOUND}
    assert pd.isna(cached.set_index("doi").at["10.5555/not-registered", "record"])


def test_a_failed_records_batch_is_an_error_for_each_of_its_dois_and_is_not_cached():
    with respx.mock(base_url=BASE) as mock:
        mock.get("/works").mock(return_value=httpx.Response(503))
        report = _client(retries=1).records(["10.5555/12345678", "10.5555/12345679"])
    assert report.requests == 2
    assert [(check.status, check.error) for check in report.results] == [(ERROR, "HTTP 503 Service Unavailable from Crossref /works")] * 2
    assert record_cache_rows(report.results, checked_at=CHECKED_AT).empty


def test_offline_records_make_no_request():
    with respx.mock(base_url=BASE, assert_all_called=False) as mock:
        route = mock.get("/works")
        report = CrossrefResource(offline=True).records(["10.5555/12345678"], logging.getLogger("test"))
    assert not route.called and report.requests == 0
    assert [(check.status, check.error) for check in report.results] == [(ERROR, OFFLINE)]


def test_sample_run_retraction_rows_are_what_the_python_merge_gave(sample_run):
    """The SQL path writes the rows the pandas merge of the requested DOIs, crossref_cache and the run's errors wrote:
    one per publication DOI of each area, checked with the cache's notices and check time when it holds the DOI,
    else error with the run's reason (the sample run is offline: Crossref is never asked)."""
    areas = [area for (area,) in sample_run.query("SELECT DISTINCT research_area FROM crossref_retractions")]
    requested = sample_run.query(load_sql("publication_dois_in_research_areas"), [areas])
    cache = {doi: (notices, checked_at) for doi, notices, checked_at in sample_run.query("SELECT doi, notice_dois, checked_at FROM crossref_cache")}
    stored = sample_run.query("SELECT * FROM crossref_retractions ORDER BY research_area, doi")

    expected = [
        (area, doi, CHECKED, cache[doi][0], None, cache[doi][1]) if doi in cache else (area, doi, ERROR, [], OFFLINE, None)
        for area, doi in requested
    ]
    assert len(areas) > 5 and len(stored) > 50
    assert stored == expected
