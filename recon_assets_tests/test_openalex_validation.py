"""OpenAlex records that poison or mislead (issue 14): every record is checked against a schema of the fields used
before it is cached or used, and a single lookup must return the DOI it asked for.

The works are the 44 real recorded works (fixtures/openalex/PROVENANCE.md); every malformed record here is one of
them with one field changed, and the faulty servers are `fake_openalex` serving them on loopback."""

from __future__ import annotations

import copy
import json
from datetime import datetime, timezone

import dagster as dg
import duckdb
import pytest

from recon_assets.kg.doi import canonical_doi

from recon_assets_tests.fake_openalex import FakeOpenAlex, OneWorkForEveryLookup, real_works, serve_on_loopback
from recon_assets_tests.pipeline_runs import run_pipeline
from recon_assets_tests.test_enrichment_assets import RETRACTED_DOI, _small_kg

WORKS = real_works()
BY_DOI = {canonical_doi(work["doi"]): work for work in WORKS}
SECRET = "oa-validation-key-7c1d"
# A publication of the small KG (`test_enrichment_assets._small_kg`) whose real work is served malformed.
POISONED_DOI = "10.3390/rs13030519"
DATASET_DOI = "10.5067/aqua/airs/data205"  # the small KG's dataset (AIRS2CCF), looked up by openalex_citing_works


def _with(work: dict, **fields) -> dict:
    """A deep copy of the real `work` with `fields` replaced."""
    return copy.deepcopy(work) | fields


def _online(base: str):
    from recon_assets.resources import OpenAlexResource

    return OpenAlexResource(api_key=SECRET, base_url=base, retries=0, backoff_seconds=0.0)


# --- the two cases through the whole pipeline, in a real Dagster instance ---------------------------------


def test_a_malformed_record_is_an_error_row_never_cached_and_later_runs_offline_included_succeed(tmp_path):
    """Bug row (issue 14): `counts_by_year: [{"year": "x"}]` was cached before it was parsed and failed the run, then
    every later run, offline included, for the TTL."""
    kg = tmp_path / "graph.json"
    _small_kg(kg)
    served = [_with(w, counts_by_year=[{"year": "x"}]) if canonical_doi(w["doi"]) == POISONED_DOI else w for w in WORKS]
    with dg.instance_for_test(temp_dir=str(tmp_path)) as instance:
        with serve_on_loopback(FakeOpenAlex(served)) as base:
            online = run_pipeline(kg, tmp_path, instance, _online(base))
        assert all(result.success for result in online.results)
        [(status, error)] = online.query("SELECT DISTINCT status, error FROM openalex_works WHERE doi = ?", [POISONED_DOI])
        assert status == "error" and error.startswith("invalid OpenAlex record: counts_by_year.0.year: Input should be a valid integer")
        assert online.query("SELECT count(*) FROM openalex_cache WHERE doi = ?", [POISONED_DOI]) == [(0,)]
        assert online.query("SELECT count(*) FROM openalex_cache WHERE status = 'found'")[0][0] == 6  # the other six publications
        # its edge is scored without a citation record, and says why
        [(reason,)] = online.query("SELECT reason FROM edge_reliability WHERE publication_doi = ?", [POISONED_DOI])
        assert "no citation count: OpenAlex: invalid OpenAlex record: counts_by_year.0.year" in reason

        offline = run_pipeline(kg, tmp_path, instance)  # the recording holds the real, valid record
        assert all(result.success for result in offline.results)
        assert offline.query("SELECT DISTINCT status FROM openalex_works WHERE doi = ?", [POISONED_DOI]) == [("found",)]


def test_a_server_answering_every_lookup_with_one_retracted_work_gives_mismatch_rows_and_fails_the_match_rate(tmp_path):
    """Bug row (issue 14): every lookup answered with one retracted work made every edge SUPERSEDED while the
    match-rate check passed."""
    kg = tmp_path / "graph.json"
    _small_kg(kg)
    with dg.instance_for_test(temp_dir=str(tmp_path)) as instance:
        with serve_on_loopback(OneWorkForEveryLookup(BY_DOI[RETRACTED_DOI])) as base:
            run = run_pipeline(kg, tmp_path, instance, _online(base))
        assert all(result.success for result in run.results)
        statuses = dict(run.query("SELECT doi, status FROM openalex_works"))
        assert statuses.pop(RETRACTED_DOI) == "found" and set(statuses.values()) == {"mismatch"} and len(statuses) == 6
        [error] = {e for (e,) in run.query("SELECT DISTINCT error FROM openalex_works WHERE doi = ?", [POISONED_DOI])}
        assert error == f"OpenAlex answered doi:{POISONED_DOI} with W4387949831, whose DOI is {RETRACTED_DOI}"
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
