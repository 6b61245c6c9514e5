"""The openalex_works and crossref_retractions assets in Dagster, over a faked transport answering with the
real recorded works: resume after a spent budget, the TTL cache, the API key kept secret and when it turns
OpenAlex on, Crossref notices kept across offline or failed runs, the checks, and a recorded retraction and an
OpenAlex year through the whole pipeline to `recon explain`."""

from __future__ import annotations

import json
import logging
import re
from datetime import datetime, timedelta, timezone
from types import SimpleNamespace

import dagster as dg
import duckdb
import httpx
import pytest
import responses
import respx

from recon_assets.enrichment.checks import (
    OpenAlexMatchConfig,
    RetractedShareConfig,
    openalex_cache_one_row_per_doi,
    openalex_match_rate,
    openalex_retracted_share,
)
from recon_assets.cli.main import _openalex_line, _reliability_line, explain_doi
from recon_assets.definitions import resources_from_environment
from recon_assets.enrichment.assets import crossref_retractions, openalex_works
from recon_assets.enrichment.resources import CrossrefResource, OpenAlexResource
from recon_assets.kg.doi import canonical_doi
from recon_assets.reliability.settings import LabelThresholds, ScoringSettings
from recon_assets.shared.as_of import AsOfDate
from recon_assets.shared.metadata import PARTITION_ROW_COUNT
from recon_assets.shared.sql_files import load_sql

from recon_assets.storage.duckdb_store import TableStore
from recon_assets_tests.fake_openalex import FakeOpenAlex, real_works
from recon_assets_tests.pipeline_runs import SAMPLE_JSONL, run_figures, run_pipeline
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
        resources={"store": TableStore(database=database), "openalex": openalex, "as_of": AsOfDate(as_of="2026-11-29")},
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
            headers = {"Retry-After": "36000", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "35990"}
            return 429, headers, json.dumps({"error": "Rate limit exceeded"})
        return fake.responses_callback(request)

    responses.add_callback(responses.GET, API, callback=budget_spent_on_second_request)
    with dg.instance_for_test() as instance:
        started = datetime.now(timezone.utc)
        first = _materialize(database, _online(), instance=instance)
        assert not first.success
        failure = next(event for event in first.all_events if event.event_type_value == "STEP_FAILURE").step_failure_data.user_failure_data
        assert "OpenAlex daily budget spent" in failure.description and "resets in about 10.0 h" in failure.description
        assert "re-materialize these partitions after the reset" in failure.description
        assert failure.metadata["retryable"].value is True and failure.metadata["reset_seconds"].value == 35990
        resets_at = datetime.fromisoformat(failure.metadata["resets_at"].value)
        assert timedelta(seconds=35990) <= resets_at - started <= timedelta(seconds=36050)
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
def test_an_openalex_outage_is_a_warning_naming_the_error_and_the_step_still_writes_error_rows(tmp_path):
    database = _database(tmp_path, SICI[:3])
    responses.add(responses.GET, API, status=503)
    with dg.instance_for_test() as instance:
        result = _materialize(database, _online(), instance=instance)
        warnings = [e.user_message for e in instance.all_logs(result.run_id) if e.level == logging.WARNING]
    assert result.success
    assert any("OpenAlex answered none of the 3 DOIs due (e.g. HTTP 503" in message for message in warnings), warnings
    assert dict(_query(database, "SELECT status, count(*) FROM openalex_works GROUP BY 1")) == {"error": 3}


@responses.activate
def test_a_second_run_within_the_ttl_makes_zero_requests_and_ttl_zero_refreshes_all(tmp_path, fake):
    database = _database(tmp_path, [*SICI, ABSENT])
    responses.add_callback(responses.GET, API, callback=fake.responses_callback)
    first = _materialize(database, _online())
    requests_first = len(responses.calls)
    assert first.success and requests_first == 3  # two batches and the absent DOI's single lookup
    second = _materialize(database, _online())
    assert second.success and len(responses.calls) == requests_first
    metadata = run_figures(second.asset_materializations_for_node("openalex_works")[0])
    assert (metadata["http_requests"], metadata["dois_due_for_refresh"]) == (0, 0)
    assert metadata["statuses"] == {"found": len(SICI), "not_found": 1, "mismatch": 0, "error": 0}
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
    assert "OpenAlex: fetching 61 DOIs" in logs and PARTITION_ROW_COUNT in logs  # the log and the metadata were read
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
    result = openalex_cache_one_row_per_doi(store=TableStore(database=database))
    assert not result.passed
    assert (result.metadata["duplicated_dois"].value, result.metadata["examples"].value) == (1, ["10.5555/a"])


def test_match_rate_and_retracted_share_checks_read_the_recorded_sample(tmp_path):
    unknown = "10.5555/openalex-does-not-know-it"
    database = _database(tmp_path, [*(canonical_doi(work["doi"]) for work in WORKS), ABSENT, unknown])
    with duckdb.connect(database) as con:  # OpenAlex answered earlier that it does not know `unknown`
        con.execute(load_sql("openalex_cache"))
        con.execute("INSERT INTO openalex_cache VALUES (?, 'not_found', NULL, now())", [unknown])
    assert _materialize(database, OpenAlexResource(offline=True)).success
    resource = TableStore(database=database)
    match = openalex_match_rate(config=OpenAlexMatchConfig(min_match_rate=0.99), store=resource)
    # the offline DOI without an answer (error) is counted beside the rate, not against it
    assert not match.passed and match.metadata["match_rate"].value == pytest.approx(44 / 45)
    assert match.metadata["per_research_area"].value[AREA] == {
        "found": 44, "not_found": 1, "mismatch": 0, "error": 1, "answered": 45, "match_rate": 44 / 45
    }
    assert openalex_match_rate(config=OpenAlexMatchConfig(min_match_rate=0.97), store=resource).passed
    share = openalex_retracted_share(config=RetractedShareConfig(max_retracted_share=0.1), store=resource)
    # W4387949831 and W4313494105 are retracted; their notices W4405247386 and W4381149761 are not counted
    assert share.passed and share.metadata["retracted"].value == 2 and share.metadata["found"].value == 44
    assert share.metadata["per_research_area"].value[AREA] == {"retracted": 2, "found": 44, "retracted_share": 2 / 44}
    strict = openalex_retracted_share(config=RetractedShareConfig(max_retracted_share=0.01), store=resource)
    assert not strict.passed and strict.metadata["retracted_share"].value == pytest.approx(2 / 44)


def test_match_rate_and_retracted_share_are_not_measured_when_nothing_was_answered(tmp_path):
    """Bug row: offline, with no DOI of the recording, every lookup is an error row and the match rate read 1.000
    (and the retracted share 0.000): a made-up figure that read as a measure."""
    database = _database(tmp_path, ["10.5555/not-recorded-1", "10.5555/not-recorded-2"])
    assert _materialize(database, OpenAlexResource(offline=True)).success
    resource = TableStore(database=database)
    match = openalex_match_rate(config=OpenAlexMatchConfig(min_match_rate=0.99), store=resource)
    assert match.passed and match.description == "match_rate not measured: no answered rows (found 0, not_found 0, mismatch 0, error 2, answered 0)"
    assert "match_rate" not in match.metadata and match.metadata["error"].value == 2
    assert match.metadata["per_research_area"].value[AREA] == {"found": 0, "not_found": 0, "mismatch": 0, "error": 2, "answered": 0}
    share = openalex_retracted_share(config=RetractedShareConfig(max_retracted_share=0.0), store=resource)
    assert share.passed and share.description == "retracted_share not measured: no found rows (retracted 0, found 0)"
    assert "retracted_share" not in share.metadata


def _crossref(database: str, resource: CrossrefResource):
    return dg.materialize(
        [crossref_retractions], partition_key=AREA, resources={"store": TableStore(database=database), "crossref": resource},
    )


COMMA_DOI_ERROR = "a DOI with ',' cannot be written in a Crossref filter"


@pytest.mark.parametrize(
    ("offline", "later_error"),
    [(True, "offline: Crossref not checked"), (False, COMMA_DOI_ERROR)],
    ids=["offline", "crossref-answers-503"],
)
def test_crossref_notices_survive_a_later_offline_or_failed_run(tmp_path, offline, later_error):
    paper, notice, comma = "10.1016/s0140-6736(20)31180-6", "10.1016/s0140-6736(20)31324-6", "10.1001/jama.251.19.2504,2509"
    database = _database(tmp_path, [paper, notice, comma])
    online = CrossrefResource(base_url="https://crossref.test", retries=0)
    with respx.mock(base_url="https://crossref.test") as mock:
        mock.get("/works").mock(side_effect=updates_of(RECORDS))
        assert _crossref(database, online).success
    checked = _query(database, "SELECT doi, status, notice_dois, error, checked_at IS NULL FROM crossref_retractions ORDER BY doi")
    assert checked == [
        (comma, "error", [], COMMA_DOI_ERROR, True),
        (paper, "checked", [notice], None, False),
        (notice, "checked", [], None, False),
    ]
    first_checked_at = _query(database, "SELECT doi, checked_at FROM crossref_cache ORDER BY doi")
    with respx.mock(base_url="https://crossref.test", assert_all_called=False) as mock:
        route = mock.get("/works").mock(return_value=httpx.Response(503))
        assert _crossref(database, CrossrefResource(offline=True) if offline else online).success
        assert route.called is not offline
    # the earlier check stands: the paper is still retracted, its checked_at unchanged; the never-checked DOI says why
    assert _query(database, "SELECT doi, status, notice_dois, error, checked_at IS NULL FROM crossref_retractions ORDER BY doi") == [
        (comma, "error", [], later_error, True),
        *checked[1:],
    ]
    assert _query(database, "SELECT doi, checked_at FROM crossref_cache ORDER BY doi") == first_checked_at
    assert _query(database, "SELECT count(*), count(DISTINCT doi) FROM crossref_cache")[0] == (2, 2)


def test_crossref_never_checked_is_an_error_row_without_a_check_time(tmp_path):
    database = _database(tmp_path, ["10.5555/a", "10.5555/b"])
    assert _crossref(database, CrossrefResource(offline=True)).success
    assert _query(database, "SELECT doi, status, notice_dois, error, checked_at FROM crossref_retractions ORDER BY doi") == [
        ("10.5555/a", "error", [], "offline: Crossref not checked", None),
        ("10.5555/b", "error", [], "offline: Crossref not checked", None),
    ]
    assert _query(database, "SELECT count(*) FROM crossref_cache") == [(0,)]


@pytest.mark.parametrize(
    ("env", "offline", "base_url", "keyed"),
    [
        ({}, True, "https://api.openalex.org", False),
        ({"OPENALEX_API_KEY": SECRET}, False, "https://api.openalex.org", True),
        ({"OPENALEX_API_KEY": SECRET, "RECON_OPENALEX": "offline"}, True, "https://api.openalex.org", True),
        ({"RECON_OPENALEX": "online", "OPENALEX_API_KEY": SECRET, "OPENALEX_URL": "http://127.0.0.1:8080"}, False, "http://127.0.0.1:8080", True),
        ({"RECON_OPENALEX": "online", "OPENALEX_API_KEY": ""}, False, "https://api.openalex.org", False),
    ],
)
def test_openalex_is_online_whenever_a_key_is_set_and_the_key_stays_an_env_var_reference(
    monkeypatch, tmp_path, env, offline, base_url, keyed
):
    _environment(monkeypatch, tmp_path, env)
    resource = resources_from_environment()["openalex"]
    started = resource.process_config_and_initialize()  # what a run's resources see
    assert (started.offline, started.base_url) == (offline, base_url)
    # the configured value is a reference to the variable, resolved only when a run starts
    assert (resource.api_key == dg.EnvVar("OPENALEX_API_KEY")) is keyed and (resource.api_key is None) is not keyed
    assert SECRET not in repr(resource)


def _environment(monkeypatch, tmp_path, env: dict[str, str]) -> None:
    for name in ("RECON_OPENALEX", "OPENALEX_API_KEY", "OPENALEX_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("RECON_DB_PATH", str(tmp_path / "env.duckdb"))
    for name, value in env.items():
        monkeypatch.setenv(name, value)


@pytest.mark.parametrize(
    ("variable", "value", "allowed"),
    [
        ("RECON_OPENALEX", "yes", "'online', 'offline'"),
        # Review finding: these two were read as "anything else is the default" (Crossref offline, the local sample).
        ("RECON_CROSSREF", "Online", "'online', 'offline'"),
        ("RECON_KG_SOURCE", "hf", "'local', 'huggingface'"),
    ],
)
def test_an_unknown_switch_setting_is_refused(monkeypatch, tmp_path, variable, value, allowed):
    _environment(monkeypatch, tmp_path, {variable: value})
    with pytest.raises(ValueError, match=f"^{variable} must be {allowed} or unset, got '{value}'$"):
        resources_from_environment()


def test_a_key_typed_into_a_switch_is_never_quoted_when_the_definitions_load(monkeypatch, tmp_path):
    """Hostile finding: `dagster definitions validate` (and `dagster dev`) printed RECON_GROQ=<the Groq key> in clear:
    only `recon run` redacted the switch's error."""
    key = "gsk_" + "A1b2C3d4" * 6
    _environment(monkeypatch, tmp_path, {"GROQ_API_KEY": key, "RECON_GROQ": key})
    with pytest.raises(ValueError) as refused:
        resources_from_environment()
    assert str(refused.value) == "RECON_GROQ must be 'online', 'offline' or unset, got a value of 52 characters (not shown: it may be a key)"


@pytest.mark.parametrize(("value", "offline"), [("", True), ("offline", True), ("online", False)])
def test_recon_crossref_online_asks_crossref_and_offline_or_unset_does_not(monkeypatch, tmp_path, value, offline):
    _environment(monkeypatch, tmp_path, {"RECON_CROSSREF": value})
    assert resources_from_environment()["crossref"].offline is offline


@pytest.mark.parametrize(
    ("env", "requested", "warnings", "absent_row"),
    [
        # a key alone turns OpenAlex on; the DOI OpenAlex does not know is looked up and not_found
        ({"OPENALEX_API_KEY": SECRET, "OPENALEX_URL": BASE}, True, 0, ("not_found", None)),
        # RECON_OPENALEX=offline opts out: the recording, no request
        ({"OPENALEX_API_KEY": SECRET, "OPENALEX_URL": BASE, "RECON_OPENALEX": "offline"}, False, 0,
         ("error", "offline: not in the recorded cache")),
        # online without a key: one loud warning, the recording and the cache, no request
        ({"RECON_OPENALEX": "online", "OPENALEX_URL": BASE}, False, 1, ("error", "not fetched: OPENALEX_API_KEY is not set")),
    ],
    ids=["key-set", "key-set-offline", "online-without-key"],
)
def test_openalex_from_the_environment_requests_only_with_a_key_and_never_shows_it(
    monkeypatch, tmp_path, env, requested, warnings, absent_row
):
    _environment(monkeypatch, tmp_path, env)
    recorded = [canonical_doi(work["doi"]) for work in WORKS[:3]]
    database = _database(tmp_path, [*recorded, ABSENT])
    openalex = resources_from_environment()["openalex"]
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mocked, dg.instance_for_test() as instance:
        mocked.add_callback(responses.GET, API, callback=FakeOpenAlex(WORKS).responses_callback)
        result = _materialize(database, openalex, instance=instance)
        calls = list(mocked.calls)
        logs = instance.all_logs(result.run_id)
    assert result.success
    assert bool(calls) is requested
    assert all(call.request.headers["Authorization"] == f"Bearer {SECRET}" for call in calls)
    loud = [entry for entry in logs if entry.level == logging.WARNING and "OPENALEX_API_KEY is not set" in entry.user_message]
    assert len(loud) == warnings
    assert dict(_query(database, "SELECT doi, status FROM openalex_works WHERE doi <> '" + ABSENT + "'")) == dict.fromkeys(recorded, "found")
    assert _query(database, f"SELECT status, error FROM openalex_works WHERE doi = '{ABSENT}'") == [absent_row]
    shown = " ".join(f"{entry.user_message} {entry.dagster_event}" for entry in logs)
    assert PARTITION_ROW_COUNT in shown and SECRET not in shown  # metadata travels in the events read here
    assert SECRET not in repr(openalex)


RETRACTED_DOI = "10.1038/s41598-023-45776-y"  # W4387949831, is_retracted in recon_assets/sample/openalex_cache.json
ROMAN_YEAR_DOI = "10.3390/rs12081239"  # W3015860713, publication_year 2020 in the recording
# Sample nodes by globalId: ENERGY PRODUCTION/USE (research area), the AIRS2CCF dataset, and recorded publications:
# the retracted one, the one given the year "XIII" (10.3390/RS12081239) and five with good years.
KEYWORD, DATASET, RETRACTED, ROMAN = (
    "e2342b8c-0762-5c64-a368-c7b063181ade", "8a9818e7-8dda-528f-b516-d3266e9b4e2f", "de784e3c-f4f1-5fb7-ace9-a286a27433dd",
    "89c7efb7-65bc-554d-a468-957f63c53472",
)
OTHERS = (
    "d205a234-b3bc-58b9-a6d8-25ab9de7649d", "9ea70d20-b594-577a-818c-a2e697f745b3", "5d27c09a-bd05-54d1-91ae-56a32d0bd5c4",
    "748811b6-9604-54d2-9430-2787ad0025fe", "8659be5f-9f89-5b5b-b2ae-8df48f3fc6ec",
)


def _small_kg(path) -> None:
    """A KG of sample lines: every publication above uses the dataset and has the research area (nodes keyed by
    globalId here, their ids kept)."""
    nodes, ids = {}, {}
    for line in SAMPLE_JSONL.read_text().splitlines():
        record = json.loads(line)
        if record["type"] == "node" and record["properties"].get("globalId") in {KEYWORD, DATASET, RETRACTED, ROMAN, *OTHERS}:
            nodes[record["properties"]["globalId"]] = record
            ids[record["properties"]["globalId"]] = record["id"]
    nodes[ROMAN]["properties"]["year"] = "XIII"
    relationships = [
        {"type": "relationship", "id": f"r{index}", "label": label, "start": {"id": ids[publication], "labels": ["Publication"]},
         "end": {"id": ids[end], "labels": [end_label]}}
        for index, (publication, label, end, end_label) in enumerate(
            (publication, label, end, end_label)
            for publication in (RETRACTED, ROMAN, *OTHERS)
            for label, end, end_label in (("USES_DATASET", DATASET, "Dataset"), ("HAS_APPLIEDRESEARCHAREA", KEYWORD, "ScienceKeyword"))
        )
    ]
    path.write_text("\n".join(json.dumps(record) for record in [*nodes.values(), *relationships]) + "\n")


def test_a_recorded_retraction_and_an_openalex_year_reach_the_score_and_explain(tmp_path, capsys):
    kg = tmp_path / "graph.json"
    _small_kg(kg)
    with dg.instance_for_test(temp_dir=str(tmp_path)) as instance:
        run = run_pipeline(kg, tmp_path, instance)
    assert all(result.success for result in run.results)
    columns = "label, dominant_signal, is_retracted, retraction_source, publication_year, year_source, reason"
    [retracted] = run.query(f"SELECT {columns} FROM edge_reliability WHERE publication_doi = ?", [RETRACTED_DOI])
    assert retracted[:4] == ("SUPERSEDED", "retraction", True, "OpenAlex is_retracted")
    assert "retracted (OpenAlex is_retracted): SUPERSEDED whatever the score" in retracted[6]
    [filled] = run.query(f"SELECT {columns} FROM edge_reliability WHERE publication_doi = ?", [ROMAN_YEAR_DOI])
    assert filled[4:6] == (2020, "openalex")
    assert "(year 2020 from OpenAlex: KG year" in filled[6] and "Crossref not checked for retraction notices" in filled[6]

    capsys.readouterr()
    assert explain_doi(RETRACTED_DOI, run.database) == 0
    out = capsys.readouterr().out
    assert "SUPERSEDED  (dominant signal: retraction; evidence: retraction" in out and "| RETRACTED (OpenAlex is_retracted)" in out
    assert explain_doi(ROMAN_YEAR_DOI, run.database) == 0
    out = capsys.readouterr().out
    assert "| year 2020 from OpenAlex" in out and "| Crossref not checked" in out


@pytest.mark.parametrize(
    ("reliability", "thresholds", "shown", "bar"),
    [
        (0.3995, {}, "0.399", "0.40"),  # bug row: shown as "0.40" beside verdict reasons counting it below 0.40
        (0.3496, {}, "0.349", "0.35"),  # just below SUPERSEDED's 0.35
        (0.35, {}, "0.35", None),
        (0.4567, {}, "0.46", None),
        (0.4567, {"superseded_reliability": 0.46}, "0.456", "0.46"),  # the bar the edge was scored with
    ],
)
def test_explain_never_shows_a_reliability_at_a_bar_it_is_below(reliability, thresholds, shown, bar):
    settings = ScoringSettings(thresholds=LabelThresholds(**thresholds)).model_dump_json()
    row = SimpleNamespace(reliability=reliability, scoring_settings=settings, label="DECLINING", dominant_signal="superseded_version",
                          evidence=["superseded_version"])
    below = f" (below the {bar} bar: three decimals, as two would round it up onto the bar)" if bar else ""
    assert _reliability_line(row) == (
        f"reliability {shown}{below}  DECLINING  (dominant signal: superseded_version; evidence: superseded_version)"
    )


@pytest.mark.parametrize("stored", ['{"weights": {"centrality": true, "recency": 0, "coherence": 0}}', "null", '{"thresholds": {"old_age": -1}}'])
def test_explain_shows_an_edge_scored_with_settings_it_cannot_read(stored):
    """Bug row: settings stored before they were checked (True as a weight) made recon explain raise."""
    row = SimpleNamespace(reliability=0.3496, scoring_settings=stored, label="DECLINING", dominant_signal="citation_decline", evidence=[])
    assert _reliability_line(row) == (  # default bars
        "reliability 0.349 (below the 0.35 bar: three decimals, as two would round it up onto the bar)  DECLINING  "
        "(dominant signal: citation_decline; evidence: none)"
    )


def _edge(**fields):
    defaults = {
        "openalex_status": "found", "citations_as_of": 159, "citation_centrality": 0.55, "centrality_source": "citations",
        "citation_trend": 0.25, "is_retracted": False, "retraction_source": None, "year_source": "kg",
        "publication_year": 2020, "crossref_status": "checked", "openalex_error": None,
    }
    return SimpleNamespace(**(defaults | fields))


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({}, "OpenAlex found | 159 citations up to as_of -> citation centrality 0.55 | centrality from citations | citation trend +0.25 | not retracted"),
        ({"is_retracted": True, "retraction_source": "OpenAlex is_retracted; Crossref notice 10.1/n"},
         "| RETRACTED (OpenAlex is_retracted; Crossref notice 10.1/n)"),
        ({"crossref_status": "error"}, "| citation trend +0.25 | Crossref not checked"),
        ({"crossref_status": None}, "| Crossref not checked"),
        ({"year_source": "openalex", "publication_year": 2013}, "| not retracted | year 2013 from OpenAlex"),
        ({"openalex_status": None}, "OpenAlex: no DOI to look up"),
        ({"openalex_status": "error", "openalex_error": "offline: not in the recorded cache"},
         "OpenAlex: no record (offline: not in the recorded cache)"),
        ({"openalex_status": "mismatch", "openalex_error": "OpenAlex answered doi:10.1/a with W1, whose DOI is 10.1/b"},
         "OpenAlex: no record (OpenAlex answered doi:10.1/a with W1, whose DOI is 10.1/b)"),
    ],
    ids=["checked", "retracted", "crossref-error", "crossref-missing", "year-from-openalex", "no-doi", "offline", "mismatch"],
)
def test_explain_openalex_line(fields, expected):
    assert _openalex_line(_edge(**fields)).endswith(expected)
