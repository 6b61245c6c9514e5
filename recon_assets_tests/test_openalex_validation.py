"""OpenAlex records that poison or mislead (issue 14): every record is checked against a schema of the fields used
before it is cached or used, and a single lookup must return the DOI it asked for.

The works are the 44 real recorded works (fixtures/openalex/PROVENANCE.md); every malformed record here is one of
them with one field changed, and the faulty servers are `fake_openalex` serving them on loopback."""

from __future__ import annotations

import copy
import json
import re
from datetime import datetime, timezone

import dagster as dg
import duckdb
import pandas as pd
import pytest
import responses

from recon_assets.declarations import ASSET_TABLES
from recon_assets.enrichment.openalex_client import (
    ERROR,
    FOUND,
    MISMATCH,
    OpenAlexClient,
    cache_rows,
    checked_result,
    recorded_report,
)
from recon_assets.enrichment.openalex_records import (
    CITING_FIELDS,
    SELECT_FIELDS,
    OpenAlexCitingWork,
    OpenAlexWork,
    invalid_reason,
    unusable_cache_rows,
)
from recon_assets.enrichment.resources import OpenAlexResource
from recon_assets.enrichment.retries import RetryPolicy
from recon_assets.kg.doi import canonical_doi
from recon_assets.shared.sql_files import load_sql
from recon_assets.verdicts.expansion import cached_citing_works

from recon_assets_tests import test_citing_works as citing_tests
from recon_assets_tests import test_enrichment_assets as works_tests
from recon_assets_tests import test_expansion as expansion_tests
from recon_assets_tests.fake_openalex import FakeOpenAlex, OneWorkForEveryLookup, real_works, serve_on_loopback
from recon_assets_tests.pipeline_runs import RANGE_TAGS, PipelineRun, pipeline_defs, run_figures, run_pipeline
from recon_assets_tests.test_enrichment_assets import RETRACTED_DOI, _small_kg

WORKS = real_works()
BY_DOI = {canonical_doi(work["doi"]): work for work in WORKS}
SECRET = "oa-validation-key-7c1d"
# A publication of the small KG (`test_enrichment_assets._small_kg`) whose real work is served malformed.
POISONED_DOI = "10.3390/rs13030519"
REAL = BY_DOI["10.3390/rs12081239"]  # W3015860713: abstract, both percentiles, counts_by_year, a primary topic
API = re.compile(r"https://openalex\.test/works.*")  # the base URL of works_tests._online
DATASET_DOI = "10.5067/aqua/airs/data205"  # the small KG's dataset (AIRS2CCF), looked up by openalex_citing_works


def _with(work: dict, **fields) -> dict:
    """A deep copy of the real `work` with `fields` replaced."""
    return copy.deepcopy(work) | fields


def _online(base: str) -> OpenAlexResource:
    return OpenAlexResource(api_key=SECRET, base_url=base, retries=0, backoff_seconds=0.0)


# The assets that read openalex_cache (openalex_works, openalex_citing_works, dataset_verdicts) are all in
# openalex_refresh_job; kg_tables_job reads no OpenAlex record and reliability_evaluation_job reads openalex_works,
# not the cache. A later run that must get past a cache entry runs that job alone, on the tables the first run wrote
# (issue 23: suite time; a whole run of the three jobs costs about 30 CPU-seconds, this job about a third of it).
REFRESH = ("openalex_refresh_job",)
UP_TO_SCORING = ("kg_tables_job", "openalex_refresh_job")


def _run_jobs(kg, workdir, instance, jobs, openalex: OpenAlexResource | None = None) -> PipelineRun:
    """The `jobs` of `recon run` (in its order, named as in `run_pipeline`), on `workdir`/recon.duckdb, offline unless
    `openalex` is given."""
    database = workdir / "recon.duckdb"
    defs = pipeline_defs(kg, database, openalex=openalex)
    tags = {"openalex_refresh_job": RANGE_TAGS}
    results = [defs.resolve_job_def(job).execute_in_process(instance=instance, tags=tags.get(job)) for job in jobs]
    return PipelineRun(instance, defs, database, results)


def test_the_later_runs_here_run_every_asset_that_reads_the_cache(tmp_path):
    """What lets the tests below run REFRESH alone as the later run: every asset reading openalex_cache is in it."""
    readers = {name for name, table in ASSET_TABLES.items() if "openalex_cache" in table.reads}
    job = pipeline_defs(tmp_path / "graph.json", tmp_path / "recon.duckdb").resolve_job_def(*REFRESH)
    assert readers == {"openalex_works", "openalex_citing_works", "dataset_verdicts"}
    assert readers <= {key.to_user_string() for key in job.asset_layer.executable_asset_keys}


# --- the two cases through the whole pipeline, in a real Dagster instance ---------------------------------


def test_a_malformed_record_is_an_error_row_never_cached_and_later_runs_offline_included_succeed(tmp_path):
    """Bug row (issue 14): `counts_by_year: [{"year": "x"}]` was cached before it was parsed and failed the run, then
    every later run, offline included, for the TTL."""
    kg = tmp_path / "graph.json"
    _small_kg(kg)
    served = [_with(w, counts_by_year=[{"year": "x"}]) if canonical_doi(w["doi"]) == POISONED_DOI else w for w in WORKS]
    with dg.instance_for_test(temp_dir=str(tmp_path)) as instance:
        with serve_on_loopback(FakeOpenAlex(served)) as base:
            online = run_pipeline(kg, tmp_path, instance, openalex=_online(base))
        assert all(result.success for result in online.results)
        [(status, error)] = online.query("SELECT DISTINCT status, error FROM openalex_works WHERE doi = ?", [POISONED_DOI])
        assert status == "error" and error.startswith("invalid OpenAlex record: counts_by_year.0.year: Input should be a valid integer")
        assert online.query("SELECT count(*) FROM openalex_cache WHERE doi = ?", [POISONED_DOI]) == [(0,)]
        assert online.query("SELECT count(*) FROM openalex_cache WHERE status = 'found'")[0][0] == 6  # the other six publications
        # its edge is scored without a citation record, and says why
        [(reason,)] = online.query("SELECT reason FROM edge_reliability WHERE publication_doi = ?", [POISONED_DOI])
        assert "no citation count: OpenAlex: invalid OpenAlex record: counts_by_year.0.year" in reason

        # the recording holds the real, valid record; a later run of the job reading the cache
        offline = _run_jobs(kg, tmp_path, instance, REFRESH)
        assert all(result.success for result in offline.results)
        assert offline.query("SELECT DISTINCT status FROM openalex_works WHERE doi = ?", [POISONED_DOI]) == [("found",)]


def test_a_server_answering_every_lookup_with_one_retracted_work_gives_mismatch_rows_and_fails_the_match_rate(tmp_path):
    """Bug row (issue 14): every lookup answered with one retracted work made every edge SUPERSEDED while the
    match-rate check passed."""
    kg = tmp_path / "graph.json"
    _small_kg(kg)
    with dg.instance_for_test(temp_dir=str(tmp_path)) as instance:
        with serve_on_loopback(OneWorkForEveryLookup(BY_DOI[RETRACTED_DOI])) as base:
            run = run_pipeline(kg, tmp_path, instance, openalex=_online(base))
        assert all(result.success for result in run.results)
        statuses = dict(run.query("SELECT doi, status FROM openalex_works"))
        assert statuses.pop(RETRACTED_DOI) == "found" and set(statuses.values()) == {"mismatch"} and len(statuses) == 6
        [error] = {e for (e,) in run.query("SELECT DISTINCT error FROM openalex_works WHERE doi = ?", [POISONED_DOI])}
        assert error == f"OpenAlex answered doi:{POISONED_DOI} with W4387949831, whose DOI is {RETRACTED_DOI}"
        [(reason,)] = run.query("SELECT reason FROM edge_reliability WHERE publication_doi = ?", [POISONED_DOI])
        assert f"no citation count: {error})" in reason
        labels = dict(run.query("SELECT publication_doi, label FROM edge_reliability"))
        assert labels.pop(RETRACTED_DOI) == "SUPERSEDED" and "SUPERSEDED" not in labels.values()
        assert run.query("SELECT doi, status FROM openalex_cache") == [(RETRACTED_DOI, "found")]  # a mismatch is not cached
        # the dataset DOI's lookup (openalex_citing_works) got the same work: its citing works are not asked, and why
        assert run.query("SELECT DISTINCT status, note FROM openalex_citing_works WHERE cited_doi = ?", [DATASET_DOI]) == [
            ("not_asked", f"OpenAlex answered doi:{DATASET_DOI} with W4387949831, whose DOI is {RETRACTED_DOI}")
        ]
        [check] = [e for result in run.results for e in result.get_asset_check_evaluations() if e.check_name == "openalex_match_rate"]
    assert not check.passed
    assert check.description == "match_rate 0.143 (found 1, not_found 0, mismatch 6, error 0, answered 7)"


def test_a_cached_record_of_an_older_version_that_no_longer_validates_never_breaks_a_later_offline_run(tmp_path):
    """Bug row (issue 14): the exact `{"year": "x"}` already in openalex_cache (fetched now, within the TTL) failed
    every later run, offline included. It is dropped, and the recording's valid record answers for the DOI."""
    kg = tmp_path / "graph.json"
    _small_kg(kg)
    with dg.instance_for_test(temp_dir=str(tmp_path)) as instance:
        assert all(result.success for result in _run_jobs(kg, tmp_path, instance, UP_TO_SCORING).results)  # the cache filled
        with duckdb.connect(str(tmp_path / "recon.duckdb")) as con:
            con.execute(
                "UPDATE openalex_cache SET work = ?, fetched_at = now() WHERE doi = ?",
                [json.dumps(_with(BY_DOI[POISONED_DOI], counts_by_year=[{"year": "x"}])), POISONED_DOI],
            )
        again = _run_jobs(kg, tmp_path, instance, REFRESH)  # the later run: the job reading the cache
    assert all(result.success for result in again.results)
    assert again.query("SELECT DISTINCT status, cited_by_count FROM openalex_works WHERE doi = ?", [POISONED_DOI]) == [
        ("found", BY_DOI[POISONED_DOI]["cited_by_count"])
    ]
    [(cached,)] = again.query("SELECT work FROM openalex_cache WHERE doi = ?", [POISONED_DOI])
    assert json.loads(cached)["counts_by_year"] == BY_DOI[POISONED_DOI]["counts_by_year"]


# --- the schema of the fields used -----------------------------------------------------------------------------


def test_the_schemas_hold_exactly_the_fields_requested():
    assert set(OpenAlexWork.model_fields) == set(SELECT_FIELDS)
    assert set(OpenAlexCitingWork.model_fields) == set(CITING_FIELDS)


@pytest.mark.parametrize("work", WORKS, ids=[work["id"].rsplit("/", 1)[1] for work in WORKS])
def test_every_real_recorded_work_meets_both_schemas(work):
    assert invalid_reason(work) is None and invalid_reason(work, OpenAlexCitingWork) is None


@pytest.mark.parametrize(
    "fields",
    [
        {"abstract_inverted_index": None}, {"publication_year": None}, {"doi": None}, {"title": None}, {"type": None},
        {"primary_topic": None}, {"citation_normalized_percentile": None}, {"cited_by_percentile_year": None},
        {"citation_normalized_percentile": {"value": None, "is_in_top_1_percent": False, "is_in_top_10_percent": False}},
        {"citation_normalized_percentile": {"value": 1, "is_in_top_1_percent": True, "is_in_top_10_percent": True}},
        {"counts_by_year": [], "referenced_works": [], "cited_by_count": 0},
        {"doi": "https://doi.org/10.1002/(SICI)1521-396X(199910)176:2%3C637::AID-PSSA637%3E3.0.CO;2-7"},
        {"referenced_works": ["W2883746869"]},
    ],
    ids=lambda fields: ",".join(f"{key}={str(value)[:20]}" for key, value in fields.items()),
)
def test_values_openalex_really_sends_stay_valid(fields):
    assert invalid_reason(_with(REAL, **fields)) is None


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"counts_by_year": [{"year": "x", "cited_by_count": 3}]}, "counts_by_year.0.year: Input should be a valid integer (got 'x')"),
        ({"counts_by_year": [{"year": 2024, "cited_by_count": -1}]}, "counts_by_year.0.cited_by_count: Input should be greater than or equal to 0"),
        ({"counts_by_year": [{"year": 2024, "cited_by_count": 1}, {"year": 2024, "cited_by_count": 2}]},
         "counts_by_year: year 2024 given more than once"),
        ({"counts_by_year": None}, "counts_by_year: Input should be a valid list"),
        ({"cited_by_count": "159"}, "cited_by_count: Input should be a valid integer (got '159')"),
        ({"cited_by_count": -3}, "cited_by_count: Input should be greater than or equal to 0"),
        ({"cited_by_count": 1.5}, "cited_by_count: Input should be a valid integer"),
        ({"cited_by_count": None}, "cited_by_count: Input should be a valid integer (got None)"),
        ({"publication_year": "2020"}, "publication_year: Input should be a valid integer (got '2020')"),
        ({"is_retracted": "false"}, "is_retracted: Input should be a valid boolean (got 'false')"),
        ({"is_retracted": 0}, "is_retracted: Input should be a valid boolean (got 0)"),
        ({"referenced_works": ["https://openalex.org/W1", 5]}, "referenced_works.1: Input should be a valid string"),
        ({"referenced_works": ["https://example.org/W1"]}, "referenced_works.0: String should match pattern"),
        ({"id": "https://openalex.org/A5010513143"}, "id: String should match pattern"),
        ({"doi": "not a doi"}, "doi: not a DOI (got 'not a doi')"),
        ({"doi": 10}, "doi: Input should be a valid string (got 10)"),
        ({"abstract_inverted_index": {"Data": ["0"]}}, "abstract_inverted_index.Data.0: Input should be a valid integer"),
        ({"abstract_inverted_index": {"Data": [-1]}}, "abstract_inverted_index.Data.0: Input should be greater than or equal to 0"),
        ({"abstract_inverted_index": ["Data"]}, "abstract_inverted_index: Input should be a valid dictionary"),
        ({"citation_normalized_percentile": {"value": 1.5}}, "citation_normalized_percentile.value: Input should be less than or equal to 1"),
        ({"citation_normalized_percentile": {"value": "0.9"}}, "citation_normalized_percentile.value: Input should be a valid number"),
        ({"cited_by_percentile_year": {"min": 96, "max": 101}}, "cited_by_percentile_year.max: Input should be less than or equal to 100"),
        ({"cited_by_percentile_year": {"min": 99, "max": 96}}, "cited_by_percentile_year: min 99 is above max 96"),
        ({"cited_by_percentile_year": {"min": "96", "max": 99}}, "cited_by_percentile_year.min: Input should be a valid integer"),
        ({"primary_topic": "Geochemistry"}, "primary_topic: Input should be a valid dictionary"),
        ({"title": 5}, "title: Input should be a valid string (got 5)"),
    ],
    ids=lambda value: str(value)[:50] if isinstance(value, dict) else "",
)
def test_a_record_out_of_type_or_range_is_invalid_and_the_reason_names_the_field(fields, reason):
    found = invalid_reason(_with(REAL, **fields))
    assert found is not None and found.startswith(f"invalid OpenAlex record: {reason}"), found


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"publication_date": "2023-13-45"}, "publication_date: month must be in 1..12"),
        ({"publication_date": 20231025}, "publication_date: Input should be a valid string"),
        ({"authorships": [{"author": "Chen"}]}, "authorships.0.author: Input should be a valid dictionary"),
        ({"authorships": [{"author": {"display_name": 5}}]}, "authorships.0.author.display_name: Input should be a valid string"),
        ({"authorships": None}, "authorships: Input should be a valid list"),
    ],
)
def test_a_citing_work_is_checked_on_its_own_fields_too(fields, reason):
    work = _with(REAL, **fields)
    assert invalid_reason(work) is None  # not fields of a publication's work
    assert invalid_reason(work, OpenAlexCitingWork).startswith(f"invalid OpenAlex record: {reason}")


def test_a_citing_work_with_an_author_openalex_could_not_name_is_valid():
    work = _with(REAL, authorships=[{"author": None, "raw_author_name": "J. Chen"}], publication_date=None)
    assert invalid_reason(work, OpenAlexCitingWork) is None


@pytest.mark.parametrize("record", [None, [], "W3015860713"])
def test_a_record_that_is_not_an_object_is_invalid(record):
    assert invalid_reason(record).startswith("invalid OpenAlex record: the record: Input should be a valid dictionary")


def test_the_reason_names_at_most_three_fields_then_how_many_more():
    work = _with(REAL, cited_by_count="1", publication_year="2020", is_retracted="no", title=1, type=2)
    assert invalid_reason(work).endswith("; and 2 more")


def test_unusable_cache_rows_are_found_with_why():
    poisoned = json.dumps(_with(REAL, counts_by_year=[{"year": "x"}]))
    cache = pd.DataFrame(
        [("10.1/valid", "found", json.dumps(REAL)), ("10.1/absent", "not_found", None), ("10.1/poisoned", "found", poisoned),
         ("10.1/empty", "found", None), ("10.1/cut", "found", '{"id": "W1", "doi'), ("10.1/odd", "mismatch", None)],
        columns=["doi", "status", "work"],
    )
    unusable = unusable_cache_rows(cache)
    assert set(unusable) == {"10.1/poisoned", "10.1/empty", "10.1/cut", "10.1/odd"}
    assert unusable["10.1/poisoned"].startswith(
        "the cached record was dropped: invalid OpenAlex record: counts_by_year.0.year: Input should be a valid integer (got 'x')"
    )
    assert unusable["10.1/empty"] == (
        "the cached record was dropped: invalid OpenAlex record: the record: Input should be a valid dictionary or instance "
        "of OpenAlexWork (got None)"
    )
    assert unusable["10.1/cut"].startswith("the cached record was dropped: not JSON (")
    assert unusable["10.1/odd"] == "the cached record was dropped: unknown status 'mismatch'"


# --- the client: a lookup's answer must carry the DOI asked for and meet the schema ----------------------------


@pytest.mark.parametrize(
    ("returned", "status"),
    [
        ("https://doi.org/10.3390/rs12081239", FOUND),
        ("https://doi.org/10.3390/RS12081239", FOUND),  # OpenAlex's case differs from the KG's
        ("http://dx.doi.org/10.3390/rs12081239", FOUND),
        ("doi:10.3390/RS12081239", FOUND),
        ("https://doi.org/10.3390%2Frs12081239", FOUND),  # percent-encoded once
        ("https://doi.org/10.3390/rs12081240", MISMATCH),
        ("https://doi.org/10.1038/s41598-023-45776-y", MISMATCH),
        (None, MISMATCH),
    ],
)
def test_a_lookup_is_found_only_when_the_work_carries_the_doi_asked_for_in_any_spelling(returned, status):
    result = checked_result("10.3390/rs12081239", _with(REAL, doi=returned))
    assert result.status == status
    if status == MISMATCH:
        assert result.work is None and result.error == (
            f"OpenAlex answered doi:10.3390/rs12081239 with W3015860713, whose DOI is {canonical_doi(returned) or 'missing'}"
        )


def test_an_answer_with_another_doi_is_a_mismatch_even_when_malformed_and_a_malformed_own_work_is_an_error():
    other = checked_result("10.3390/rs12081239", _with(REAL, doi="https://doi.org/10.5555/other", cited_by_count="x"))
    own = checked_result("10.3390/rs12081239", _with(REAL, cited_by_count="x"))
    assert (other.status, own.status) == (MISMATCH, ERROR)
    assert own.error.startswith("invalid OpenAlex record: cited_by_count: Input should be a valid integer")


def test_only_found_and_not_found_results_are_cached():
    results = [
        checked_result("10.3390/rs12081239", REAL),
        checked_result("10.3390/rs12081239", _with(REAL, cited_by_count=-1)),
        checked_result("10.3390/rs12081239", _with(REAL, doi="https://doi.org/10.5555/other")),
    ]
    assert [result.status for result in results] == [FOUND, ERROR, MISMATCH]
    assert cache_rows(results, fetched_at=datetime.now(timezone.utc))["status"].tolist() == ["found"]


@responses.activate
def test_a_single_lookup_answered_with_another_work_is_a_mismatch_and_one_in_another_spelling_is_found():
    """Bug row (issue 14): `_single` returned whatever `/works/doi:<doi>` answered."""
    upper = _with(BY_DOI["10.3390/rs15081974"], doi="https://doi.org/10.3390/RS15081974")
    fake = FakeOpenAlex([upper, REAL], omit_from_batches=["10.3390/rs15081974", "10.3390/rs12081239"])
    fake.works["10.3390/rs12081239"] = BY_DOI[RETRACTED_DOI]  # the lookup of rs12081239 answers with the retracted work
    responses.add_callback(responses.GET, re.compile(r"https://api\.openalex\.org/works.*"), callback=fake.responses_callback)
    client = OpenAlexClient(api_key=SECRET, retry=RetryPolicy(retries=0))
    report = client.fetch(["10.3390/rs15081974", "10.3390/rs12081239"])
    assert {result.doi: result.status for result in report.results} == {"10.3390/rs15081974": FOUND, "10.3390/rs12081239": MISMATCH}
    assert report.requests == 3  # the batch, then both singly


@responses.activate
def test_a_batch_record_that_fails_its_schema_is_an_error_result_and_the_others_are_found():
    fake = FakeOpenAlex([_with(REAL, counts_by_year=[{"year": "x", "cited_by_count": 1}]), *WORKS[:3]])
    responses.add_callback(responses.GET, re.compile(r"https://api\.openalex\.org/works.*"), callback=fake.responses_callback)
    dois = ["10.3390/rs12081239", *(canonical_doi(work["doi"]) for work in WORKS[:3])]
    report = OpenAlexClient(api_key=SECRET, retry=RetryPolicy(retries=0)).fetch(dois)
    statuses = {result.doi: result.status for result in report.results}
    assert statuses.pop("10.3390/rs12081239") == ERROR and set(statuses.values()) == {FOUND}
    assert report.requests == 1  # in the batch: no second request for it


def test_a_recording_is_checked_like_an_answer():
    report = recorded_report(["10.3390/rs12081239"], [_with(REAL, is_retracted="yes")], recorded_at=datetime.now(timezone.utc))
    [result] = report.results
    assert result.status == ERROR and result.error.startswith("invalid OpenAlex record: is_retracted: Input should be a valid boolean")


# --- the assets in Dagster ---------------------------------------------------------------------------------------


def _metadata(result, asset: str) -> dict:
    [materialization] = result.asset_materializations_for_node(asset)
    return run_figures(materialization)


def _cache(database: str, rows: list[tuple[str, dict]]) -> None:
    """Put `rows` (doi, work) into openalex_cache as found, fetched now: within the TTL."""
    with duckdb.connect(database) as con:
        con.execute(load_sql("openalex_cache"))
        for doi, work in rows:
            con.execute("INSERT OR REPLACE INTO openalex_cache VALUES (?, 'found', ?, now())", [doi, json.dumps(work)])


@responses.activate
def test_openalex_works_counts_an_invalid_record_as_an_error_row_and_caches_the_others(tmp_path):
    dois = [canonical_doi(work["doi"]) for work in WORKS[:4]]
    database = works_tests._database(tmp_path, dois)
    served = [_with(WORKS[0], cited_by_count=-5), *WORKS[1:4]]
    responses.add_callback(responses.GET, API, callback=FakeOpenAlex(served).responses_callback)
    with dg.instance_for_test() as instance:
        result = works_tests._materialize(database, works_tests._online(), instance=instance)
        warnings = [e.user_message for e in instance.all_logs(result.run_id) if "failed their schema" in e.user_message]
    assert result.success
    metadata = _metadata(result, "openalex_works")
    assert (metadata["invalid_records"], metadata["cached_records_dropped"], metadata["mismatched_dois"]) == (1, 0, 0)
    assert metadata["statuses"] == {"found": 3, "not_found": 0, "mismatch": 0, "error": 1}
    assert works_tests._query(database, f"SELECT status, error FROM openalex_works WHERE doi = '{dois[0]}'") == [
        ("error", "invalid OpenAlex record: cited_by_count: Input should be greater than or equal to 0 (got -5)")
    ]
    assert sorted(doi for (doi,) in works_tests._query(database, "SELECT doi FROM openalex_cache")) == sorted(dois[1:])
    assert len(warnings) == 1


@responses.activate
def test_an_invalid_cached_record_within_the_ttl_is_asked_again_online_and_replaced(tmp_path):
    database = works_tests._database(tmp_path, ["10.3390/rs12081239"])
    _cache(database, [("10.3390/rs12081239", _with(REAL, counts_by_year=[{"year": "x"}]))])
    responses.add_callback(responses.GET, API, callback=FakeOpenAlex([REAL]).responses_callback)
    result = works_tests._materialize(database, works_tests._online())
    assert result.success and len(responses.calls) == 1  # within the TTL, yet asked: the cached record was unusable
    assert _metadata(result, "openalex_works")["cached_records_dropped"] == 1
    assert works_tests._query(database, "SELECT status, cited_by_count FROM openalex_works") == [("found", 159)]
    [(work,)] = works_tests._query(database, "SELECT work FROM openalex_cache")
    assert json.loads(work)["counts_by_year"] == REAL["counts_by_year"]


def test_offline_an_invalid_cached_record_the_recording_lacks_is_an_error_row_with_both_reasons(tmp_path):
    """Bug row (issue 14), offline: the cached `{"year": "x"}` of a DOI the recording does not hold."""
    unrecorded = "10.5555/cached-by-an-older-version"
    database = works_tests._database(tmp_path, [unrecorded, "10.3390/rs12081239"])
    poisoned = _with(REAL, counts_by_year=[{"year": "x"}])
    _cache(database, [(unrecorded, _with(poisoned, doi=f"https://doi.org/{unrecorded}")), ("10.3390/rs12081239", poisoned)])
    result = works_tests._materialize(database, OpenAlexResource(offline=True))
    assert result.success
    rows = dict((doi, (status, error)) for doi, status, error in works_tests._query(database, "SELECT doi, status, error FROM openalex_works"))
    assert rows["10.3390/rs12081239"] == ("found", None)  # the recording's valid record
    status, error = rows[unrecorded]
    assert status == "error" and error.startswith(
        "offline: not in the recorded cache; the cached record was dropped: invalid OpenAlex record: counts_by_year.0.year: "
        "Input should be a valid integer (got 'x')"
    )
    assert works_tests._query(database, "SELECT doi FROM openalex_cache") == [("10.3390/rs12081239",)]


def test_a_citing_work_that_fails_its_schema_is_left_out_of_the_list_and_counted(tmp_path):
    """Bug row: one citing work with an author that is not an object failed the whole openalex_citing_works step."""
    database = citing_tests._database(tmp_path)
    bad_id = sorted(citing_tests.CITED_BY[citing_tests.MOST_CITED_ID])[0]
    served = [_with(work, authorships=[{"author": "Chen"}]) if work["id"].endswith(bad_id) else work for work in WORKS]
    with serve_on_loopback(FakeOpenAlex(served)) as base, dg.instance_for_test() as instance:
        result = citing_tests._materialize(database, _online(base), instance)
        warnings = [e.user_message for e in instance.all_logs(result.run_id) if "failed their schema" in e.user_message]
    metadata = _metadata(result, "openalex_citing_works")
    assert metadata["returned_works_invalid"] >= 1 and len(warnings) == 1
    assert metadata["returned_works_invalid_examples"][0] == (
        f"{bad_id}: invalid OpenAlex record: authorships.0.author: Input should be a valid dictionary or instance of Author (got 'Chen')"
    )
    assert citing_tests._query(database, "SELECT count(*) FROM openalex_citing_works WHERE citing_openalex_id = ?", [bad_id]) == [(0,)]
    listed = citing_tests._query(database, "SELECT count(*) FROM openalex_citing_works WHERE cited_doi = ?", [citing_tests.DATASET_DOI])
    assert listed == [(len(citing_tests.CITED_BY[citing_tests.MOST_CITED_ID]) - 1,)]
    # as a publication's work it is valid (authorships is not one of its fields)
    assert citing_tests._query(database, "SELECT DISTINCT status FROM openalex_works") == [("found",)]


def test_a_dataset_doi_whose_cached_record_no_longer_validates_never_breaks_the_citing_works_step(tmp_path):
    """Bug row: `cited_by_count: "x"` in the dataset DOI's cached work failed the cast in citing_works_targets.sql."""
    database = citing_tests._database(tmp_path)
    dataset_work = BY_DOI[citing_tests.DATASET_DOI]
    _cache(database, [(citing_tests.DATASET_DOI, _with(dataset_work, cited_by_count="x"))])
    with dg.instance_for_test() as instance:
        result = citing_tests._materialize(database, OpenAlexResource(offline=True), instance)
    assert _metadata(result, "openalex_citing_works")["dataset_records_dropped_from_cache"] == 1
    [(work,)] = citing_tests._query(database, "SELECT work FROM openalex_cache WHERE doi = ?", [citing_tests.DATASET_DOI])
    assert json.loads(work)["cited_by_count"] == dataset_work["cited_by_count"]  # the recording's record replaced it


def test_evidence_expansion_leaves_out_a_cached_citing_work_that_no_longer_validates(tmp_path):
    """Bug row: a cached work citing a dataset DOI, with `counts_by_year: [{"year": "x"}]`, was taken as evidence for
    the dataset's verdict (and `reliability.citations.year_matrix` raises when its expanded edge is scored)."""
    citing = expansion_tests.CITING_IDS[0]
    database = str(tmp_path / "cache.duckdb")
    _cache(database, [(canonical_doi(work["doi"]), work) for work in WORKS])
    poisoned = next(work for work in WORKS if work["id"] == citing)
    _cache(database, [(canonical_doi(poisoned["doi"]), _with(poisoned, counts_by_year=[{"year": "x"}]))])
    with duckdb.connect(database) as con:
        found = cached_citing_works(con, [expansion_tests.CITED_DOI])[expansion_tests.CITED_DOI]
    ids = {work.columns["openalex_id"] for work in found.works}
    assert citing not in ids and ids == set(expansion_tests.CITING_IDS) - {citing}
