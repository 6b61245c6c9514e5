"""Tests for Crossref retraction notices: the real Lancet records (fixtures/crossref/PROVENANCE.md) served
through httpx's transport by respx, in the documented work-list envelope."""

from __future__ import annotations

import json
import logging
from datetime import datetime, timezone
from pathlib import Path

import httpx
import pandas as pd
import pytest
import respx

from recon_assets.enrichment import crossref
from recon_assets.enrichment.crossref import (
    CHECKED,
    DOIS_PER_REQUEST,
    ERROR,
    OFFLINE,
    RETRACTION_COLUMNS,
    CrossrefClient,
    RetractionCheck,
    cache_rows,
    retraction_notices,
    retraction_rows,
)
from recon_assets.enrichment.retries import RetryPolicy
from recon_assets.kg.doi import canonical_doi
from recon_assets.resources import CrossrefResource

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
        ([], {PAPER: OFFLINE}, [("floods", PAPER, ERROR, [], OFFLINE, pd.NaT)]),
        ([], {}, [("floods", PAPER, ERROR, [], "not checked", pd.NaT)]),
    ],
)
def test_retraction_rows_come_from_the_cache(cache, errors, expected):
    requested = pd.DataFrame({"research_area": ["floods"], "doi": [PAPER]})
    rows = retraction_rows(requested, pd.DataFrame(cache, columns=["doi", "notice_dois", "checked_at"]), errors)
    assert rows.columns.tolist() == list(RETRACTION_COLUMNS)
    assert [tuple(row) for row in rows.itertuples(index=False)] == expected


def test_cache_rows_keep_only_successful_checks():
    results = [RetractionCheck(PAPER, CHECKED, (NOTICE,)), RetractionCheck(NOTICE, ERROR, error="HTTP 503")]
    rows = cache_rows(results, checked_at=CHECKED_AT)
    assert rows.values.tolist() == [[PAPER, [NOTICE], CHECKED_AT]]
