"""The code location loads and is well described: what `dagster dev` and `dg` will show."""

import json
import os
import re
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import dagster as dg
import duckdb
import pytest

from recon_assets import definitions
from recon_assets.automation.run_inputs import RUN_INPUTS
from recon_assets.definitions import ASSET_CHECKS, ASSETS, defs as load_definitions
from recon_assets.kg.partitions import research_area_partitions
from recon_assets.reliability.assets import EDGE_RELIABILITY_LINEAGE
from recon_assets.shared.metadata import column_schema, table_description_metadata
from recon_assets.shared.sql_files import load_sql
from recon_assets.shared.table_docs import TABLE_DOCS

from recon_assets_tests.pipeline_runs import REPO_ROOT

ASSET_SPECS = [spec for asset in ASSETS for spec in asset.specs]
RUN_INPUT_KEYS = {source.key for source in RUN_INPUTS}


def test_code_location_loads():
    dg.Definitions.validate_loadable(load_definitions())


@pytest.mark.parametrize("spec", ASSET_SPECS, ids=lambda spec: spec.key.to_user_string())
def test_every_asset_is_described_grouped_owned_and_kinded(spec):
    assert spec.description and len(spec.description) > 40
    assert spec.group_name in {"kg", "lifecycle", "enrichment", "centrality", "stewardship", "judgement", "reliability", "verdicts", "evaluation", "reporting", "exports", "history", "papers", "briefs"}
    assert spec.owners == ["team:recon"]
    assert "duckdb" in spec.kinds


@pytest.mark.parametrize(
    "name", ["openalex_works", "crossref_retractions", "crossref_relations", "coherence_judgements", "recorded_disputes", "edge_reliability"]
)
def test_partitioned_assets_are_partitioned_by_the_22_research_areas(name):
    spec = next(spec for spec in ASSET_SPECS if spec.key == dg.AssetKey(name))
    assert spec.partitions_def == research_area_partitions
    assert len(research_area_partitions.get_partition_keys()) == 22


@pytest.mark.parametrize(
    "job_name",
    ["kg_tables_job", "openalex_refresh_job", "edge_reliability_job", "reliability_evaluation_job", "daily_rescoring_job", "weekly_refresh_job", "kg_refresh_job", "paper_analysis_job", "question_briefs_job"],
)
def test_every_job_resolves(job_name):
    assert load_definitions().resolve_job_def(job_name).name == job_name


@pytest.mark.parametrize(
    ("schedule_name", "job_name", "cron"),
    [
        ("edge_reliability_daily_schedule", "daily_rescoring_job", "0 6 * * *"),
        ("openalex_weekly_schedule", "weekly_refresh_job", "0 4 * * 1"),
    ],
)
def test_schedules_are_stopped_and_request_one_run_over_every_research_area_ending_with_the_evaluation(schedule_name, job_name, cron):
    defs = load_definitions()
    schedule = defs.resolve_schedule_def(schedule_name)
    assert schedule.default_status == dg.DefaultScheduleStatus.STOPPED
    assert (schedule.job_name, schedule.cron_schedule) == (job_name, cron)
    context = dg.build_schedule_context(
        repository_def=load_definitions().get_repository_def(), scheduled_execution_time=datetime(2026, 11, 30, 4)
    )
    (request,) = schedule.evaluate_tick(context).run_requests
    areas = research_area_partitions.get_partition_keys()
    assert request.partition_key_range == dg.PartitionKeyRange(areas[0], areas[-1])
    assert request.tags["recon/as_of"] == "2026-11-30"
    assets = {key.to_user_string() for key in defs.resolve_job_def(job_name).asset_layer.executable_asset_keys}
    assert {"edge_reliability", "dataset_verdicts", "reliability_evaluation", "dispute_evaluation", "kg_snapshot_diff"} <= assets


def test_kg_source_sensor_is_stopped_and_refreshes_everything_but_the_papers():
    defs = load_definitions()
    sensor = defs.resolve_sensor_def("kg_source_sensor")
    assert sensor.default_status == dg.DefaultSensorStatus.STOPPED
    assert sensor.job_name == "kg_refresh_job"
    assets = defs.resolve_job_def("kg_refresh_job").asset_layer.executable_asset_keys
    papers = defs.resolve_job_def("paper_analysis_job").asset_layer.executable_asset_keys
    assert {key.to_user_string() for key in papers} == {
        "paper_documents", "paper_datasets", "paper_claims", "paper_keywords", "paper_citation_gaps", "claim_verdicts", "paper_scores",
        "paper_reports",
    }
    # each question is its own partition too (issue 21): refreshed by its own weekly schedule, never with the KG
    briefs = defs.resolve_job_def("question_briefs_job").asset_layer.executable_asset_keys
    assert {key.to_user_string() for key in briefs} == {"question_plans", "question_evidence", "question_verdicts", "research_briefs", "question_verdict_history"}
    assert assets == set(defs.resolve_asset_graph().materializable_asset_keys) - papers - briefs


def test_openalex_refresh_job_refreshes_then_rescores():
    job = load_definitions().resolve_job_def("openalex_refresh_job")
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


def _documented_graph() -> dict[str, tuple[bool, set[str]]]:
    """The map in definitions.py's docstring: asset name -> (partitioned: per research area, paper or question, the assets it reads)."""
    doc = definitions.__doc__.split("\n\n")[1]
    lines = re.sub(r"\n    ", " ", doc).splitlines()
    documented = {}
    for line in lines:
        match = re.fullmatch(r"(\w+)( \(per (?:research area|paper|question)\))?(?: <- (.+))?", line)
        assert match, f"not a map line: {line!r}"
        documented[match[1]] = (bool(match[2]), set(match[3].split(", ")) if match[3] else set())
    return documented


def test_the_docstring_map_is_the_asset_graph_in_data_flow_order():
    real = {
        spec.key.to_user_string(): (
            spec.partitions_def is not None,
            {dep.asset_key.to_user_string() for dep in spec.deps if dep.asset_key not in RUN_INPUT_KEYS},
        )
        for spec in ASSET_SPECS
    }
    documented = _documented_graph()
    assert documented == real
    order = list(documented)
    assert all(order.index(upstream) < order.index(name) for name, (_, reads) in documented.items() for upstream in reads)


# Run in a fresh interpreter: which variables recon_assets' own code reads while `recon_assets.definitions` is
# imported, then while its definitions load, and which files appear in the (empty) working directory.
SIDE_EFFECTS_PROBE = """
import json, os, sys
from pathlib import Path
import recon_assets

PACKAGE = str(Path(recon_assets.__file__).parent)
read = []
original = os._Environ.__getitem__

def recording_getitem(self, key):
    frame = sys._getframe(1)
    while frame.f_globals.get("__name__") in ("os", "_collections_abc", "collections.abc"):
        frame = frame.f_back
    if frame.f_code.co_filename.startswith(PACKAGE):
        read.append(key)
    return original(self, key)

os._Environ.__getitem__ = recording_getitem
import recon_assets.definitions
on_import, files_on_import = list(read), sorted(os.listdir("."))
recon_assets.definitions.defs()
print(json.dumps({"import": on_import, "files_on_import": files_on_import, "load": read[len(on_import):],
                  "files_on_load": sorted(os.listdir("."))}))
"""


def test_importing_the_code_location_reads_no_environment_and_loading_it_creates_no_folder(tmp_path):
    """Loading the definitions has no side effects (issue 13): importing reads no variable; Dagster's load (the
    `@dg.definitions` function) reads the environment but creates nothing, not even the default data/ folder of
    the database, which appears when a run's resources start."""
    env = {name: value for name, value in os.environ.items() if not name.startswith("RECON_")}
    env["PYTHONPATH"] = str(REPO_ROOT)  # this checkout's package, whatever the environment's install points at
    probe = subprocess.run(
        [sys.executable, "-c", SIDE_EFFECTS_PROBE], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120,
        check=True,
    )
    effects = json.loads(probe.stdout.splitlines()[-1])
    assert effects["import"] == [] and effects["files_on_import"] == []
    assert "RECON_DB_PATH" in effects["load"] and "RECON_KG_SOURCE" in effects["load"]
    assert effects["files_on_load"] == []


def test_loading_the_definitions_prints_no_warning_a_user_cannot_act_on(tmp_path):
    """`dagster definitions validate` (and so every command loading the code location) prints no BetaWarning: the
    one about `backfill_policy` is filtered where the assets are built, not only in the tests' settings."""
    env = {**os.environ, "RECON_DB_PATH": str(tmp_path / "recon.duckdb"), "PYTHONWARNINGS": "default"}
    env["PYTHONPATH"] = str(REPO_ROOT)  # this checkout's package, whatever the environment's install points at
    env.pop("DAGSTER_HOME", None)
    for command in (
        [sys.executable, "-c", "import recon_assets.definitions"],
        [str(Path(sys.executable).with_name("dagster")), "definitions", "validate", "-m", "recon_assets.definitions"],
    ):
        done = subprocess.run(command, cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        assert "BetaWarning" not in done.stderr + done.stdout, done.stderr


def test_column_descriptions_are_escaped_for_markdown(tmp_path):
    with duckdb.connect(str(tmp_path / "t.duckdb")) as con:
        con.execute(load_sql("edge_reliability"))
        schema = column_schema(con, "edge_reliability")
    reliability = next(column for column in schema.columns if column.name == "reliability")
    assert "\\*" in reliability.description and TABLE_DOCS["edge_reliability"]["reliability"].count("*") == reliability.description.count("\\*")


def test_column_lineage_is_also_a_markdown_table(tmp_path):
    with duckdb.connect(str(tmp_path / "t.duckdb")) as con:
        con.execute(load_sql("edge_reliability"))
        metadata = table_description_metadata(con, "edge_reliability", lineage=EDGE_RELIABILITY_LINEAGE)
    table = metadata["column_lineage"].value
    assert metadata["database"] == str(tmp_path / "t.duckdb")
    assert set(metadata["dagster/column_lineage"].deps_by_column) == set(EDGE_RELIABILITY_LINEAGE)
    assert "publication\\_centrality\\.centrality" in table and len(table.splitlines()) == len(EDGE_RELIABILITY_LINEAGE) + 2


def test_judge_and_scoring_assets_have_a_code_version():
    versions = {spec.key.to_user_string(): spec.code_version for spec in ASSET_SPECS}
    assert all(versions[name] for name in ("coherence_judgements", "edge_reliability", "dataset_verdicts"))
