"""Bad settings are refused when a run is launched (issue 11): the run coordinator of this repo's dagster.yaml checks
the pydantic rules of every asset's settings before the run is queued, on a real Dagster instance."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import dagster as dg
import pytest
import yaml
from dagster._core.run_coordinator import SubmitRunContext
from dagster._daemon.types import DaemonHeartbeat

from recon_assets.cli.launch_checks import QUEUE_DAEMON, ValidatingRunCoordinator, settings_models, settings_problems
from recon_assets.cli.run import INSTANCE_SETTINGS
from recon_assets.definitions import defs as load_definitions
from recon_assets.shared.database import LockedDuckDBResource
from recon_assets.shared.paths import database_lock

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


@pytest.mark.parametrize(
    ("run_config", "tags", "problem"),
    [
        ({"resources": {"groq_judge": {"config": {"settings": {"pairs_per_request": 0}}}}}, None,
         "resource groq_judge: settings.pairs_per_request: Input should be greater than or equal to 1"),
        ({"resources": {"openalex": {"config": {"timeout_seconds": -1}}}}, None, "resource openalex: timeout_seconds: Input should be greater than 0"),
        # Hostile finding: an infinite timeout passed at launch and failed mid-run with OverflowError.
        ({"resources": {"openalex": {"config": {"timeout_seconds": float("inf")}}}}, None, "resource openalex: timeout_seconds: Input should be a finite number"),
        (None, {"recon/as_of": "2026-02-30"}, "as_of: as_of '2026-02-30' from the run tag recon/as_of is not a calendar date (day is out of range for month)"),
        ({"resources": {"as_of": {"config": {"as_of": "yesterday"}}}}, None,
         "resource as_of: as_of: Value error, as_of must be a date YYYY-MM-DD, got 'yesterday' from RECON_AS_OF"),
        # a UI run as of year 1: refused at launch as `recon run --as-of 0001-01-01` is (test_rerun)
        (None, {"recon/as_of": "0001-01-01"}, "as_of: as_of 0001-01-01 from the run tag recon/as_of is before 1950-01-01, the "
         "earliest as_of scored (no NASA Earth-observation dataset existed before the satellite era): give a later date"),
    ],
    ids=["groq-batch-0", "openalex-negative-timeout", "openalex-infinite-timeout", "as-of-tag-not-a-date", "as-of-resource-config",
         "as-of-tag-before-the-earliest"],
)
def test_a_broken_resource_setting_or_as_of_tag_is_named(run_config, tags, problem):
    assert settings_problems(run_config, tags) == [problem]


def test_a_resource_setting_from_the_environment_is_judged_at_launch_without_its_secret(monkeypatch):
    monkeypatch.setenv("RECON_AS_OF", "1 Dec 2026")
    monkeypatch.setenv("GROQ_API_KEY", "gsk_launch_check_secret")
    assert settings_problems(None) == ["resource as_of: as_of: Value error, as_of must be a date YYYY-MM-DD, got '1 Dec 2026' from RECON_AS_OF"]
    monkeypatch.setenv("RECON_AS_OF", "2026-12-01")
    assert settings_problems(None, {"recon/as_of": "2026-11-29"}) == []
    # A setting the run config gives overrides the environment's; the key is never part of a message.
    problems = settings_problems({"resources": {"groq_judge": {"config": {"settings": {"retries": 99}}}}})
    assert problems == ["resource groq_judge: settings.retries: Input should be less than or equal to 10"]


def test_a_secret_typed_into_the_run_config_is_refused_without_echoing_it(monkeypatch):
    """Hostile finding: an api_key given in the run config passed, and Dagster stores a run's config with the run.
    Secrets come from the environment only; Dagster's {env: NAME} form still passes."""
    monkeypatch.setenv("MY_GROQ_KEY", "gsk_from_the_environment")
    problems = settings_problems({"resources": {"groq_judge": {"config": {"api_key": "gsk_typed_in_the_launchpad"}}}})
    assert problems == [
        "resource groq_judge: api_key: a secret is read from the environment only (OPENALEX_API_KEY or GROQ_API_KEY, or {env: NAME}), "
        "never typed into the run config, which Dagster stores with the run"
    ]
    assert settings_problems({"resources": {"groq_judge": {"config": {"api_key": {"env": "MY_GROQ_KEY"}}}}}) == []


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


def test_a_step_waits_for_another_process_writing_the_database_and_names_the_lock(tmp_path):
    """A run from the UI (another process) and `recon run` never write the file at once: the DuckDB resource takes
    the lock `recon run` holds for its whole run; in the process holding it, the resource re-enters it."""
    database = tmp_path / "recon.duckdb"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from pathlib import Path; from recon_assets.shared.paths import database_lock; "
         f"lock = database_lock(Path({str(database)!r})); lock.acquire(); print('held', flush=True); time.sleep(60)"],
        cwd=REPO_ROOT, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        resource = LockedDuckDBResource(database=str(database), lock_wait_seconds=0.5)
        with pytest.raises(TimeoutError, match=r"another process has been writing .*recon\.duckdb\.lock"):
            with resource.get_connection():
                pass
    finally:
        holder.kill()
        holder.wait()
    lock = database_lock(database)
    lock.acquire(timeout=0)  # as `recon run` does
    try:
        with LockedDuckDBResource(database=str(database), lock_wait_seconds=0.5).get_connection() as con:
            assert con.execute("SELECT 1").fetchone() == (1,)
    finally:
        lock.release()
    assert not lock.is_locked


def test_without_a_daemon_a_run_is_launched_not_left_queued(tmp_path):
    overrides = {"run_coordinator": {"module": "recon_assets.cli.launch_checks", "class": "ValidatingRunCoordinator"}}
    with dg.instance_for_test(temp_dir=str(tmp_path), overrides=overrides) as instance:
        coordinator = instance.run_coordinator
        assert not coordinator.daemon_is_dequeuing()
        launched = []
        instance.launch_run = lambda run_id, workspace: launched.append(run_id)  # the launcher's subprocess is Dagster's own
        run = instance.create_run_for_job(load_definitions().resolve_job_def("reliability_evaluation_job"))
        coordinator.submit_run(SubmitRunContext(run, workspace=None))
        assert launched == [run.run_id]
        messages = [entry.dagster_event.message for entry in instance.all_logs(run.run_id) if entry.dagster_event]
        assert any("no dagster-daemon is running" in (message or "") for message in messages)

        instance.add_daemon_heartbeat(DaemonHeartbeat(time.time(), QUEUE_DAEMON, None, None))
        assert coordinator.daemon_is_dequeuing()  # with a daemon beating, runs are queued as Dagster queues them
        instance.add_daemon_heartbeat(DaemonHeartbeat(time.time() - 600, QUEUE_DAEMON, None, None))
        assert not coordinator.daemon_is_dequeuing()  # a daemon silent for 10 minutes dequeues nothing


def test_a_setting_read_from_the_environment_by_run_config_is_judged_on_its_value(monkeypatch):
    """Hostile findings: Dagster's `{"env": NAME}` form (valid run config for every str, int and bool setting) was judged
    as the dict itself, refusing a valid run; a value a rule echoes (a key pasted into as_of) was shown as typed."""
    monkeypatch.setenv("LAUNCH_CHECK_DATE", "2026-11-01")
    monkeypatch.setenv("LAUNCH_CHECK_RETRIES", "99")
    monkeypatch.setenv("GROQ_API_KEY", "gsk_launchchecksecret12345678")
    assert settings_problems({"resources": {
        "as_of": {"config": {"as_of": {"env": "LAUNCH_CHECK_DATE"}}},
        "openalex": {"config": {"api_key": {"env": "GROQ_API_KEY"}}},
    }}) == []
    assert settings_problems({"resources": {"groq_judge": {"config": {"settings": {"retries": {"env": "LAUNCH_CHECK_RETRIES"}}}}}}) == [
        "resource groq_judge: settings.retries: Input should be less than or equal to 10"]
    assert settings_problems({"resources": {"as_of": {"config": {"as_of": {"env": "GROQ_API_KEY"}}}}}, {"recon/as_of": "gsk_launchchecksecret12345678"}) == [
        "as_of: as_of must be a date YYYY-MM-DD, got a value of 29 characters (not shown: it may be a key) from the run tag recon/as_of",
        "resource as_of: as_of: Value error, as_of must be a date YYYY-MM-DD, got a value of 29 characters (not shown: it may be a key) from RECON_AS_OF",
    ]
