"""The openalex_works and crossref_retractions assets in Dagster, over a faked transport answering with the
real recorded works: resume after a spent budget, the TTL cache, the API key kept secret, the checks."""

from __future__ import annotations

import json
import logging
import re

import dagster as dg
import duckdb
import pytest
import responses
import respx
from dagster_duckdb import DuckDBResource

from recon_assets.checks import (
    OpenAlexMatchConfig,
    RetractedShareConfig,
    openalex_cache_one_row_per_doi,
    openalex_match_rate,
    openalex_retracted_share,
)
from recon_assets.enrichment.assets import crossref_retractions, openalex_works
from recon_assets.kg.doi import canonical_doi
from recon_assets.resources import AsOfDate, CrossrefResource, OpenAlexResource, resources_from_environment

from recon_assets_tests.fake_openalex import FakeOpenAlex, real_works
from recon_assets_tests.test_crossref import RECORDS, updates_of

BASE = "https://openalex.test"
API = re.compile(r"https://openalex\.test/works.*")
SECRET = "oa-test-key-2b71e0"
AREA = "land_surface_agriculture_indicators"
WORKS = real_works()
# 60 SICI DOIs (two batches at 4,000 URL characters), carried by real works re-keyed to them, plus one DOI
# OpenAlex does not know.
SICI = [f"10.1002/(sici)1521-396x(199910){volume}:2<637::aid-pssa637>3.0.co;2-7" for volume in range(60)]
ABSENT = "10.5555/not-in-openalex"


def _database(tmp_path, dois) -> str:
    """A DuckDB file with the two tables the enrichment assets read: publications and their research areas."""
    path = str(tmp_path / "recon.duckdb")
    with duckdb.connect(path) as con:
        con.execute("CREATE TABLE publications AS SELECT unnest(?) AS publication_id, unnest(?) AS doi", [dois, dois])
        con.execute("CREATE TABLE publication_research_areas AS SELECT publication_id, ? AS research_area FROM publications", [AREA])
    return path


def _materialize(database: str, openalex: OpenAlexResource, *, ttl_days: float = 30, instance=None):
    return dg.materialize(
        [openalex_works],
        partition_key=AREA,
        resources={"duckdb": DuckDBResource(database=database), "openalex": openalex, "as_of": AsOfDate(as_of="2026-11-29")},
        run_config={"ops": {"openalex_works": {"config": {"ttl_days": ttl_days}}}},
        instance=instance,
        raise_on_error=False,
    )


def _online(**kwargs) -> OpenAlexResource:
    return OpenAlexResource(**({"api_key": SECRET, "base_url": BASE, "retries": 0, "backoff_seconds": 0.0} | kwargs))


def _query(database: str, sql: str):
    with duckdb.connect(database, read_only=True) as con:
        return con.execute(sql).fetchall()


@pytest.fixture
def fake():
    works = [{**WORKS[index % len(WORKS)], "doi": f"https://doi.org/{doi}"} for index, doi in enumerate(SICI)]
    return FakeOpenAlex(works)


@responses.activate
def test_a_spent_budget_keeps_what_was_fetched_fails_retryable_and_the_rerun_completes_without_duplicates(tmp_path, fake):
    database = _database(tmp_path, [*SICI, ABSENT])
    calls = []

    def budget_spent_on_second_request(request):
        calls.append(request.url)
        if len(calls) == 2:
            return 429, {"Retry-After": "36000", "X-RateLimit-Remaining": "0"}, json.dumps({"error": "Rate limit exceeded"})
        return fake.responses_callback(request)

    responses.add_callback(responses.GET, API, callback=budget_spent_on_second_request)
    with dg.instance_for_test() as instance:
        first = _materialize(database, _online(), instance=instance)
        assert not first.success
        failure = next(event for event in first.all_events if event.event_type_value == "STEP_FAILURE")
        assert "OpenAlex daily budget spent" in failure.step_failure_data.user_failure_data.description
        assert failure.step_failure_data.user_failure_data.metadata["retryable"].value is True
        fetched = _query(database, "SELECT count(*) FROM openalex_cache")[0][0]
        statuses = dict(_query(database, "SELECT status, count(*) FROM openalex_works GROUP BY 1"))
        assert 0 < fetched < len(SICI) and statuses == {"found": fetched, "error": len(SICI) + 1 - fetched}
        assert _query(database, "SELECT DISTINCT error FROM openalex_works WHERE status = 'error'")[0][0].startswith(
            "not fetched: OpenAlex daily budget spent"
        )

        second = _materialize(database, _online(), instance=instance)
    assert second.success
    # only the DOIs not fetched the first time are requested: one batch, and the absent DOI's single lookup
    assert len(calls) == 2 + 2
    assert dict(_query(database, "SELECT status, count(*) FROM openalex_works GROUP BY 1")) == {"found": len(SICI), "not_found": 1}
    assert _query(database, "SELECT count(*), count(DISTINCT doi) FROM openalex_works")[0] == (len(SICI) + 1, len(SICI) + 1)
    assert _query(database, "SELECT count(*), count(DISTINCT doi) FROM openalex_cache")[0] == (len(SICI) + 1, len(SICI) + 1)


@responses.activate
def test_a_second_run_within_the_ttl_makes_zero_requests_and_ttl_zero_refreshes_all(tmp_path, fake):
    database = _database(tmp_path, [*SICI, ABSENT])
    responses.add_callback(responses.GET, API, callback=fake.responses_callback)
    first = _materialize(database, _online())
    requests_first = len(responses.calls)
    assert first.success and requests_first == 3  # two batches and the absent DOI's single lookup
    second = _materialize(database, _online())
    assert second.success and len(responses.calls) == requests_first
    metadata = second.asset_materializations_for_node("openalex_works")[0].metadata
    assert (metadata["http_requests"].value, metadata["dois_due_for_refresh"].value) == (0, 0)
    assert metadata["statuses"].value == {"found": len(SICI), "not_found": 1, "error": 0}
    refreshed = _materialize(database, _online(), ttl_days=0)
    assert refreshed.success and len(responses.calls) == 2 * requests_first
    assert _query(database, "SELECT count(*) FROM openalex_cache")[0][0] == len(SICI) + 1


@responses.activate
def test_the_api_key_is_never_logged_nor_in_metadata_nor_in_tables(tmp_path, fake, caplog):
    database = _database(tmp_path, [*SICI, ABSENT])
    responses.add_callback(responses.GET, API, callback=fake.responses_callback)
    with dg.instance_for_test() as instance:
        result = _materialize(database, _online(), instance=instance)
        logs = " ".join(f"{entry.user_message} {entry.dagster_event}" for entry in instance.all_logs(result.run_id))
    assert result.success
    assert all(call.request.headers["Authorization"] == f"Bearer {SECRET}" for call in responses.calls)
    assert "OpenAlex: fetching 61 DOIs" in logs and "dagster/row_count" in logs  # the log and the metadata were read
    assert SECRET not in logs and SECRET not in caplog.text
    dumped = _query(database, "SELECT string_agg(CAST(t AS VARCHAR), ' ') FROM (SELECT * FROM openalex_works) AS t")[0][0]
    assert SECRET not in dumped


def test_without_an_api_key_one_loud_warning_no_request_and_only_cached_records(tmp_path):
    database = _database(tmp_path, [canonical_doi(work["doi"]) for work in WORKS[:3]])
    offline = _materialize(database, OpenAlexResource(offline=True))  # fills the cache from the recording
    assert offline.success
    with responses.RequestsMock() as mocked, dg.instance_for_test() as instance:  # any request would fail this test
        result = _materialize(database, OpenAlexResource(api_key=None, base_url=BASE), ttl_days=0, instance=instance)
        assert len(mocked.calls) == 0
        logs = instance.all_logs(result.run_id)
    assert result.success
    warnings = [entry for entry in logs if "OPENALEX_API_KEY is not set" in entry.user_message]
    assert len(warnings) == 1 and warnings[0].level == logging.WARNING
    # stale cached records are kept rather than replaced by errors
    assert _query(database, "SELECT DISTINCT status FROM openalex_works") == [("found",)]


def test_cache_check_fails_when_a_doi_has_two_rows(tmp_path):
    database = str(tmp_path / "cache.duckdb")
    with duckdb.connect(database) as con:
        # the table without its key, as an older or hand-made cache could be
        con.execute("CREATE TABLE openalex_cache (doi VARCHAR, status VARCHAR, work JSON, fetched_at TIMESTAMPTZ)")
        con.execute("INSERT INTO openalex_cache VALUES ('10.5555/a', 'found', NULL, now()), ('10.5555/a', 'not_found', NULL, now()), "
                    "('10.5555/b', 'found', NULL, now())")
    result = openalex_cache_one_row_per_doi(duckdb=DuckDBResource(database=database))
    assert not result.passed
    assert (result.metadata["duplicated_dois"].value, result.metadata["examples"].value) == (1, ["10.5555/a"])


def test_match_rate_and_retracted_share_checks_read_the_recorded_sample(tmp_path):
    database = _database(tmp_path, [*(canonical_doi(work["doi"]) for work in WORKS), ABSENT])
    assert _materialize(database, OpenAlexResource(offline=True)).success
    resource = DuckDBResource(database=database)
    match = openalex_match_rate(config=OpenAlexMatchConfig(min_match_rate=0.99), duckdb=resource)
    assert not match.passed and match.metadata["match_rate"].value == pytest.approx(44 / 45)
    assert match.metadata["per_research_area"].value[AREA] == {"found": 44, "not_found": 0, "error": 1, "match_rate": 44 / 45}
    share = openalex_retracted_share(config=RetractedShareConfig(max_retracted_share=0.1), duckdb=resource)
    # W4387949831 and W4313494105 are retracted; their notices W4405247386 and W4381149761 are not counted
    assert share.passed and share.metadata["retracted"].value == 2 and share.metadata["found"].value == 44


def test_crossref_retractions_asset_writes_the_notices_of_each_doi(tmp_path):
    paper, notice = "10.1016/s0140-6736(20)31180-6", "10.1016/s0140-6736(20)31324-6"
    database = _database(tmp_path, [paper, notice, "10.1001/jama.251.19.2504,2509"])
    with respx.mock(base_url="https://crossref.test") as mock:
        mock.get("/works").mock(side_effect=updates_of(RECORDS))
        result = dg.materialize(
            [crossref_retractions], partition_key=AREA,
            resources={"duckdb": DuckDBResource(database=database), "crossref": CrossrefResource(base_url="https://crossref.test")},
        )
    assert result.success
    rows = _query(database, "SELECT doi, status, notice_dois FROM crossref_retractions ORDER BY doi")
    assert rows == [
        ("10.1001/jama.251.19.2504,2509", "error", []),
        (paper, "checked", [notice]),
        (notice, "checked", []),
    ]
    with respx.mock(assert_all_called=False) as mock:
        route = mock.route()
        offline = dg.materialize(
            [crossref_retractions], partition_key=AREA,
            resources={"duckdb": DuckDBResource(database=database), "crossref": CrossrefResource(offline=True)},
        )
        assert offline.success and not route.called
    assert _query(database, "SELECT DISTINCT status, error FROM crossref_retractions") == [("error", "offline: Crossref not checked")]


@pytest.mark.parametrize(
    ("env", "offline", "base_url", "keyed"),
    [
        ({}, True, "https://api.openalex.org", False),
        ({"RECON_OPENALEX": "online", "OPENALEX_API_KEY": SECRET, "OPENALEX_URL": "http://127.0.0.1:8080"}, False, "http://127.0.0.1:8080", True),
        ({"RECON_OPENALEX": "online", "OPENALEX_API_KEY": ""}, False, "https://api.openalex.org", False),
    ],
)
def test_openalex_is_offline_unless_asked_and_the_key_stays_an_env_var_reference(monkeypatch, env, offline, base_url, keyed):
    for name in ("RECON_OPENALEX", "OPENALEX_API_KEY", "OPENALEX_URL"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    resource = resources_from_environment()["openalex"]
    assert (resource.offline, resource.base_url) == (offline, base_url)
    # the configured value is a reference to the variable, resolved only when a run starts
    assert (resource.api_key == dg.EnvVar("OPENALEX_API_KEY")) is keyed and (resource.api_key is None) is not keyed
    assert SECRET not in repr(resource)
