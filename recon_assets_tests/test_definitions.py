"""The code location loads and is well described: what `dagster dev` and `dg` will show."""

from datetime import datetime

import dagster as dg
import pytest

from recon_assets.definitions import ASSET_CHECKS, ASSETS, defs
from recon_assets.kg.partitions import research_area_partitions

ASSET_SPECS = [spec for asset in ASSETS for spec in asset.specs]


def test_code_location_loads():
    dg.Definitions.validate_loadable(defs)


@pytest.mark.parametrize("spec", ASSET_SPECS, ids=lambda spec: spec.key.to_user_string())
def test_every_asset_is_described_grouped_owned_and_kinded(spec):
    assert spec.description and len(spec.description) > 40
    assert spec.group_name in {"kg", "lifecycle", "enrichment", "centrality", "stewardship", "judgement", "reliability", "verdicts", "evaluation"}
    assert spec.owners == ["team:recon"]
    assert "duckdb" in spec.kinds


@pytest.mark.parametrize(
    "name", ["openalex_works", "crossref_retractions", "crossref_relations", "coherence_judgements", "recorded_disputes", "edge_reliability"]
)
def test_partitioned_assets_are_partitioned_by_the_22_research_areas(name):
    spec = next(spec for spec in ASSET_SPECS if spec.key == dg.AssetKey(name))
    assert spec.partitions_def == research_area_partitions
    assert len(research_area_partitions.get_partition_keys()) == 22


@pytest.mark.parametrize("job_name", ["kg_tables_job", "openalex_refresh_job", "edge_reliability_job", "reliability_evaluation_job"])
def test_every_job_resolves(job_name):
    assert defs.resolve_job_def(job_name).name == job_name


@pytest.mark.parametrize(
    ("schedule_name", "job_name", "cron"),
    [
        ("edge_reliability_daily_schedule", "edge_reliability_job", "0 6 * * *"),
        ("openalex_weekly_schedule", "openalex_refresh_job", "0 4 * * 1"),
    ],
)
def test_schedules_are_stopped_and_request_one_run_per_research_area(schedule_name, job_name, cron):
    schedule = defs.resolve_schedule_def(schedule_name)
    assert schedule.default_status == dg.DefaultScheduleStatus.STOPPED
    assert (schedule.job_name, schedule.cron_schedule) == (job_name, cron)
    context = dg.build_schedule_context(
        repository_def=defs.get_repository_def(), scheduled_execution_time=datetime(2026, 11, 30, 4)
    )
    requests = list(schedule.evaluate_tick(context).run_requests)
    assert sorted(r.partition_key for r in requests) == sorted(research_area_partitions.get_partition_keys())
    assert len({r.run_key for r in requests}) == len(requests)


def test_openalex_refresh_job_refreshes_then_rescores():
    job = defs.resolve_job_def("openalex_refresh_job")
    assets = {key.to_user_string() for key in job.asset_layer.executable_asset_keys}
    assert assets == {
        "openalex_works", "openalex_citing_works", "crossref_retractions", "crossref_relations", "coherence_judgements",
        "recorded_disputes", "edge_reliability",
        "dataset_verdicts",
    }


def test_blocking_checks_guard_publications_and_the_openalex_cache():
    checks = {spec.name: spec for check in ASSET_CHECKS for spec in check.check_specs}
    assert checks["publication_year_coverage"].blocking and checks["publication_doi_coverage"].blocking
    assert checks["kg_lines_conserved"].blocking and checks["openalex_cache_one_row_per_doi"].blocking
    assert not checks["edge_reliability_values_valid"].blocking
    assert not checks["openalex_match_rate"].blocking and not checks["openalex_retracted_share"].blocking
