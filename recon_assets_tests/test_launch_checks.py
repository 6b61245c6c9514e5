"""Bad settings are refused when a run is launched (issue 11): the run coordinator of this repo's dagster.yaml checks
the pydantic rules of every asset's settings before the run is queued, on a real Dagster instance."""

from __future__ import annotations

from pathlib import Path

import dagster as dg
import pytest
import yaml
from dagster._core.run_coordinator import SubmitRunContext

from recon_assets.cli.launch_checks import ValidatingRunCoordinator, settings_models, settings_problems
from recon_assets.cli.run import INSTANCE_SETTINGS
from recon_assets.definitions import defs as load_definitions

REPO_ROOT = Path(__file__).resolve().parents[1]


def test_every_asset_with_settings_is_checked():
    assert set(settings_models()) == {
        "openalex_works", "openalex_citing_works", "steward_judgements", "coherence_judgements", "edge_reliability", "dataset_verdicts",
    }


@pytest.mark.parametrize(
    ("config", "problem"),
    [
        ({"edge_reliability": {"config": {"weights": {"centrality": 0.9, "recency": 0.9, "coherence": 0.9}}}}, "edge_reliability: weights: "),
        ({"edge_reliability": {"config": {"weights": {"centrality": -1.0}}}}, "edge_reliability: weights.centrality: Input should be greater than or equal to 0"),
        ({"openalex_citing_works": {"config": {"per_work": 0}}}, "openalex_citing_works: per_work: Input should be greater than or equal to 1"),
        ({"dataset_verdicts": {"config": {"expansion_rounds": -2}}}, "dataset_verdicts: expansion_rounds: "),
    ],
    ids=["weights-do-not-sum-to-1", "negative-weight", "per-work-0", "negative-rounds"],
)
def test_a_broken_rule_is_named(config, problem):
    problems = settings_problems({"ops": config})
    assert problems and problems[0].startswith(problem)


def test_defaults_and_runs_without_settings_pass():
    assert settings_problems(None) == [] and settings_problems({"ops": {}}) == []
    assert settings_problems({"ops": {"edge_reliability": {"config": {}}, "unknown_op": {"config": {"x": 1}}}}) == []


def test_the_repos_instance_uses_the_validating_coordinator():
    # The checkout's dagster.yaml (what `dagster dev` reads without DAGSTER_HOME) is the packaged one `recon run` copies.
    assert (REPO_ROOT / "dagster.yaml").resolve() == INSTANCE_SETTINGS
    settings = yaml.safe_load(INSTANCE_SETTINGS.read_text())
    assert settings["run_coordinator"] == {
        "module": "recon_assets.cli.launch_checks", "class": "ValidatingRunCoordinator", "config": {"max_concurrent_runs": 4},
    }


def test_a_run_with_bad_settings_fails_at_launch_before_any_step(tmp_path):
    overrides = {"run_coordinator": {"module": "recon_assets.cli.launch_checks", "class": "ValidatingRunCoordinator"}}
    bad = {"ops": {"edge_reliability": {"config": {"weights": {"centrality": 0.9, "recency": 0.9, "coherence": 0.9}}}}}
    with dg.instance_for_test(temp_dir=str(tmp_path), overrides=overrides) as instance:
        assert isinstance(instance.run_coordinator, ValidatingRunCoordinator)
        run = instance.create_run_for_job(load_definitions().resolve_job_def("edge_reliability_job"), run_config=bad)
        submitted = instance.run_coordinator.submit_run(SubmitRunContext(run, workspace=None))
        assert submitted.status == dg.DagsterRunStatus.FAILURE
        messages = [entry.dagster_event.message for entry in instance.all_logs(run.run_id) if entry.dagster_event]
        assert any("refused at launch, the settings break these rules: edge_reliability: weights: Value error, weights must sum to 1"
                   in (message or "") for message in messages)
        assert not [entry for entry in instance.all_logs(run.run_id) if entry.dagster_event and entry.dagster_event.event_type_value == "STEP_START"]
