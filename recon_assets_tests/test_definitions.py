"""The code location loads and is well described: what `dagster dev` and `dg` will show."""

from datetime import datetime

import dagster as dg
import pytest

from recon_assets.checks import asset_checks
from recon_assets.definitions import ASSETS, defs
from recon_assets.partitions import research_area_partitions

ASSET_SPECS = [spec for asset in ASSETS for spec in asset.specs]


def test_code_location_loads():
    dg.Definitions.validate_loadable(defs)


@pytest.mark.parametrize("spec", ASSET_SPECS, ids=lambda spec: spec.key.to_user_string())
def test_every_asset_is_described_grouped_owned_and_kinded(spec):
    assert spec.description and len(spec.description) > 40
    assert spec.group_name in {"kg", "centrality", "judgement", "reliability"}
    assert spec.owners == ["team:recon"]
    assert "duckdb" in spec.kinds


@pytest.mark.parametrize("name", ["coherence_judgements", "edge_reliability"])
def test_judgement_and_reliability_are_partitioned_by_the_22_research_areas(name):
    spec = next(spec for spec in ASSET_SPECS if spec.key == dg.AssetKey(name))
    assert spec.partitions_def == research_area_partitions
    assert len(research_area_partitions.get_partition_keys()) == 22


@pytest.mark.parametrize("job_name", ["kg_tables_job", "edge_reliability_job"])
def test_every_job_resolves(job_name):
    assert defs.resolve_job_def(job_name).name == job_name


def test_daily_schedule_is_stopped_and_requests_one_run_per_research_area():
    schedule = defs.resolve_schedule_def("edge_reliability_daily_schedule")
    assert schedule.default_status == dg.DefaultScheduleStatus.STOPPED
    context = dg.build_schedule_context(
        repository_def=defs.get_repository_def(), scheduled_execution_time=datetime(2026, 11, 29, 6)
    )
    requests = list(schedule.evaluate_tick(context).run_requests)
    assert sorted(r.partition_key for r in requests) == sorted(research_area_partitions.get_partition_keys())


def test_blocking_checks_guard_publications():
    checks = {spec.name: spec for check in asset_checks for spec in check.check_specs}
    assert checks["publication_year_coverage"].blocking and checks["publication_doi_coverage"].blocking
    assert checks["kg_lines_conserved"].blocking
    assert not checks["edge_reliability_values_valid"].blocking
