"""Bad settings are refused before a run starts (issue 11): `recon run` checks the pydantic rules of every asset's
settings and of the resources before it launches a run; the instance settings it gives DAGSTER_HOME launch runs at
once (no queue a daemon must empty) and enable Dagster's run monitoring."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import dagster as dg
import pytest
import yaml
from recon_assets.cli import launch_checks
from recon_assets.cli import run as run_module
from recon_assets.cli.main import main as recon
from recon_assets.cli.launch_checks import settings_models, settings_problems
from recon_assets.cli.launched_runs import WORKSPACE
from recon_assets.cli.launched_runs import INSTANCE_SETTINGS, open_instance
from recon_assets.shared.paths import database_lock
from recon_assets.storage.duckdb_store import TableStore

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
         "resource as_of: as_of: as_of must be a date YYYY-MM-DD, got 'yesterday' from RECON_AS_OF"),
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
    assert settings_problems(None) == ["resource as_of: as_of: as_of must be a date YYYY-MM-DD, got '1 Dec 2026' from RECON_AS_OF"]
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


def test_the_instance_launches_runs_at_once_and_monitors_them(tmp_path):
    """No custom run coordinator: Dagster's DefaultRunCoordinator (a queued run would wait for ever for the daemon
    `recon run` does not start) and Dagster's run monitoring for `dagster dev`'s daemon."""
    # The checkout's dagster.yaml and workspace.yaml (what `dagster dev` reads there) are the packaged ones `recon run` uses.
    assert (REPO_ROOT / "dagster.yaml").resolve() == INSTANCE_SETTINGS
    assert (REPO_ROOT / "workspace.yaml").resolve() == WORKSPACE
    settings = yaml.safe_load(INSTANCE_SETTINGS.read_text())
    assert settings["run_coordinator"] == {"module": "dagster.core.run_coordinator", "class": "DefaultRunCoordinator"}
    assert settings["run_monitoring"]["enabled"] is True
    shutil.copy(INSTANCE_SETTINGS, tmp_path / "dagster.yaml")
    with dg.DagsterInstance.from_config(str(tmp_path)) as instance:
        # Dagster's own coordinator (DefaultRunCoordinator is its name for SyncInMemoryRunCoordinator), not the queue.
        assert type(instance.run_coordinator).__module__.startswith("dagster.")
        assert not isinstance(instance.run_coordinator, dg.QueuedRunCoordinator)
        assert instance.run_monitoring_enabled


def test_recon_run_refuses_broken_settings_before_any_run(monkeypatch, tmp_path, capsys):
    """The rules Dagster checks only when a step builds its config or a run starts its resources are checked by
    `recon run` before it launches anything: exit 2, each broken rule named, no instance created."""
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("RECON_KG_PATH", raising=False)
    checked = []

    def broken(run_config, tags):
        checked.append(tags)
        return ["resource groq_judge: settings.retries: Input should be less than or equal to 10"]

    monkeypatch.setattr(launch_checks, "settings_problems", broken)
    assert run_module.run_pipeline(None, tmp_path / "r.duckdb", "2026-11-29") == 2
    assert capsys.readouterr().err == (
        "error: the settings break these rules: resource groq_judge: settings.retries: Input should be less than or equal to 10\n"
    )
    assert checked == [{"recon/as_of": "2026-11-29"}]
    assert not (tmp_path / "home").exists() and not (tmp_path / "r.duckdb").exists()


LIVE_KEY = "sk-LIVE-Zq8mW3xR7tP2kV9nB4"
PLAIN_HTTP_GROQ = ("GROQ_BASE_URL is plain http:// to 10.1.2.3, which would send GROQ_API_KEY unencrypted: use https://, "
                   "or set RECON_ALLOW_PLAIN_HTTP=1 to send it anyway")


@pytest.mark.parametrize(
    ("environ", "refused"),
    [
        ({"RECON_PAPERS_ONLINE": "yes"}, "RECON_PAPERS_ONLINE must be 'online', 'offline' or unset, got 'yes'"),
        ({"GROQ_API_KEY": LIVE_KEY, "GROQ_BASE_URL": "http://10.1.2.3:8080"}, PLAIN_HTTP_GROQ),
        ({"RECON_GROQ": "maybe"}, "RECON_GROQ must be "),
    ],
    ids=["papers-opt-in-not-a-switch-word", "groq-key-over-plain-http", "groq-switch-not-a-switch-word"],
)
@pytest.mark.parametrize("command", ["paper", "ask"])
def test_recon_paper_and_ask_refuse_what_recon_run_refuses_in_one_line_exit_2_before_any_run(monkeypatch, tmp_path, capsys, environ, refused, command):
    """Hostile pass: `recon paper` with a bad RECON_PAPERS_ONLINE ended on Dagster's "Shutting down Dagster code
    server" line (exit 1), and `recon ask` refused a Groq key over plain HTTP only after a launched run failed (exit
    1, the line starting with the exception's class path). Both now run `recon run`'s checks (`check_launch`) before
    any run: one line, exit 2, no instance created, the key never shown; and before "no database" (the setting is
    what the user must mend either way)."""
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("RECON_DB_PATH", str(tmp_path / "absent.duckdb"))  # restored after the test: `--db` sets it
    for variable in ("GROQ_API_KEY", "GROQ_BASE_URL", "RECON_GROQ", "RECON_ALLOW_PLAIN_HTTP", "RECON_PAPERS_ONLINE"):
        monkeypatch.delenv(variable, raising=False)
    for variable, value in environ.items():
        monkeypatch.setenv(variable, value)
    paper = tmp_path / "paper.pdf"
    paper.write_bytes(b"%PDF-1.7\n")
    given = [str(paper)] if command == "paper" else ["Is GPM IMERG still current?"]
    assert recon([command, *given, "--db", str(tmp_path / "absent.duckdb")]) == 2
    captured = capsys.readouterr()
    prefix = "error: recon paper: " if command == "paper" else "error: "
    assert captured.out == "" and captured.err.startswith(prefix + refused), captured.err
    assert len(captured.err.splitlines()) == 1 and LIVE_KEY[8:] not in captured.err
    assert not (tmp_path / "home").exists()


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
        resource = TableStore(database=str(database), lock_wait_seconds=0.5)
        with pytest.raises(TimeoutError, match=r"another process has been writing .*recon\.duckdb\.lock"):
            with resource.connect():
                pass
    finally:
        holder.kill()
        holder.wait()
    lock = database_lock(database)
    lock.acquire(timeout=0)  # as `recon run` does
    try:
        with TableStore(database=str(database), lock_wait_seconds=0.5).connect() as con:
            assert con.execute("SELECT 1").fetchone() == (1,)
    finally:
        lock.release()
    assert not lock.is_locked


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
        "resource as_of: as_of: as_of must be a date YYYY-MM-DD, got a value of 29 characters (not shown: it may be a key) from RECON_AS_OF",
    ]


def test_a_dagster_home_naming_the_removed_run_coordinator_gets_the_current_settings(monkeypatch, tmp_path, capsys):
    """Issue 23 removed ValidatingRunCoordinator: an instance whose dagster.yaml names it does not load. `recon run`
    replaces such a file (and only such a file) with the current settings, saying so."""
    home = tmp_path / "home"
    home.mkdir()
    (home / "dagster.yaml").write_text("run_coordinator:\n  module: recon_assets.cli.launch_checks\n  class: ValidatingRunCoordinator\n")
    monkeypatch.setenv("DAGSTER_HOME", str(home))
    opened, instance = open_instance()
    instance.dispose()
    assert opened == home
    assert (home / "dagster.yaml").read_text() == INSTANCE_SETTINGS.read_text()
    assert capsys.readouterr().out == (
        f"recon: {home / 'dagster.yaml'} named the run coordinator of an earlier recon_assets (recon_assets.cli.launch_checks): "
        "replaced by the current settings\n"
    )
    (home / "dagster.yaml").write_text("telemetry:\n  enabled: true\n")  # a user's own settings are kept
    open_instance()[1].dispose()
    assert (home / "dagster.yaml").read_text() == "telemetry:\n  enabled: true\n" and capsys.readouterr().out == ""
