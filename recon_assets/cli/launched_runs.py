"""Launch a job through the project's code location, as the UI does, and follow its run on the instance.

`launch` starts `dagster job launch -w <the packaged workspace.yaml>`: Dagster starts the code location's code server,
creates the run with its remote origin (so it shows on the UI's timeline and its job's page) and the instance's run
launcher starts its run worker in a process of its own. `follow` then reads the run's event log through the instance
until the run ends: each asset step as it completes, the warnings of the steps, asset check evaluations,
materializations and failures. The run worker's own console (Dagster's log lines) goes to a file, shown with
`--verbose` only; the run's event log in the UI holds it all.

The launch runs in a session of its own, so Ctrl-C reaches `recon run` alone, which then terminates the run through the
instance's run launcher (`RunLauncher.terminate`), as the UI's "Terminate" does.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import dagster as dg

from recon_assets.cli.instance_health import fail_lost_run, worker_gone
from recon_assets.shared.run_tags import LAUNCH_TAG

WORKSPACE = Path(__file__).resolve().with_name("workspace.yaml")
POLL_SECONDS = 0.5
# How often the run worker's health is checked while the run goes on.
HEALTH_SECONDS = 5.0
# How long a run may stay STARTING after its launch ended (Dagster's run monitoring default start_timeout_seconds).
START_TIMEOUT_SECONDS = 180.0
# How long a terminated run may take to end after Ctrl-C before `recon run` stops waiting for it.
TERMINATE_WAIT_SECONDS = 60.0


class LaunchError(RuntimeError):
    """`dagster job launch` ended without creating the run; the message is its last line of output."""


@dataclass
class Launch:
    """A `dagster job launch` under way: its process, the tag value that finds its run, and its console output."""

    job_name: str
    process: subprocess.Popen
    token: str
    output: Path
    shown: int = 0  # bytes of `output` already shown (--verbose)
    ended: float | None = None  # when the launch process was first seen ended (time.monotonic)


@dataclass
class RunOutcome:
    """What a launched run did: the run as it ended, its asset check evaluations, the first materialization of each
    asset (by asset key, '/'-joined), the error of each failed step, and the run's own failure when it has one."""

    run: dg.DagsterRun
    seconds: float
    checks: list[dg.AssetCheckEvaluation] = field(default_factory=list)
    materializations: dict[str, dg.AssetMaterialization] = field(default_factory=dict)
    step_errors: list[tuple[str, Any]] = field(default_factory=list)  # (step key, SerializableErrorInfo)
    run_failure: str | None = None
    run_error: Any = None  # SerializableErrorInfo of the run's failure, when Dagster recorded one


def launch(job_name: str, tags: Mapping[str, str], run_config: Mapping[str, Any], output: Path) -> Launch:
    """Start `dagster job launch` for `job_name` with `tags` and `run_config` (this process's environment: the RECON_*
    settings reach the code server and the run worker), its console written to `output`."""
    token = uuid.uuid4().hex
    command = [
        sys.executable, "-m", "dagster", "job", "launch", "-w", str(WORKSPACE), "-j", job_name,
        "--tags", json.dumps({**tags, LAUNCH_TAG: token}), "--config-json", json.dumps(run_config),
    ]
    with output.open("wb") as sink:
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=sink, stderr=subprocess.STDOUT, start_new_session=True)
    return Launch(job_name, process, token, output)


def follow(
    instance: dg.DagsterInstance, launched: Launch, *, say: Callable[[str], None], warn: Callable[[str], None],
    console: IO[str] | None = None,
) -> RunOutcome:
    """Wait for the run of `launched` to end, saying each asset step as it completes (`say`) and each warning of a
    step and failed asset check (`warn`); the launch's console is copied to `console` when given (--verbose).

    A run worker that is gone while its run is unfinished (`instance_health.worker_gone`) gets its run failed here.
    On Ctrl-C the run is terminated (said with `warn`) and KeyboardInterrupt raised again once it ended.

    Raises:
        LaunchError: `dagster job launch` failed without creating the run, or without launching it.
    """
    started = time.monotonic()
    run: dg.DagsterRun | None = None
    try:
        run = _created_run(instance, launched, console)
        outcome = RunOutcome(run, 0.0)
        cursor: str | None = None
        checked = time.monotonic()
        while True:
            run = instance.get_run_by_id(run.run_id)
            cursor = _read_events(instance, run.run_id, cursor, outcome, say, warn)
            _show(launched, console)
            if run.is_finished:
                break
            if time.monotonic() - checked >= HEALTH_SECONDS:
                checked = time.monotonic()
                if (why := _never_started(instance, run, launched) or (run.status == dg.DagsterRunStatus.STARTED and worker_gone(instance, run))):
                    fail_lost_run(instance, run, why)
                    if run.status == dg.DagsterRunStatus.NOT_STARTED:
                        raise LaunchError(_last_line(launched.output) or why)
                    continue
            time.sleep(POLL_SECONDS)
    except KeyboardInterrupt:
        _terminate(instance, launched, run, warn)
        raise
    _read_events(instance, run.run_id, cursor, outcome, say, warn)  # those stored while the run ended
    _show(launched, console)
    if run.status != dg.DagsterRunStatus.SUCCESS:
        # Its steps' claims would hold the pool until the daemon frees them (a daemon `recon run` alone does not start).
        instance.event_log_storage.free_concurrency_slots_for_run(run.run_id)
    outcome.run, outcome.seconds = run, time.monotonic() - started
    return outcome


def _never_started(instance: dg.DagsterInstance, run: dg.DagsterRun, launched: Launch) -> str | None:
    """Why `run` will never start, else None: `dagster job launch` failed with the run not launched (after creating
    it), or ended with the run STARTING for START_TIMEOUT_SECONDS and no worker (the timeout Dagster's run monitoring
    gives a run with a daemon)."""
    if launched.process.poll() is None:
        return None
    launched.ended = launched.ended or time.monotonic()
    run = instance.get_run_by_id(run.run_id)  # as it is now that the launch has ended
    if run.status == dg.DagsterRunStatus.NOT_STARTED and launched.process.returncode != 0:
        return f"`dagster job launch` exited with status {launched.process.returncode} without launching it"
    if run.status == dg.DagsterRunStatus.STARTING and time.monotonic() - launched.ended > START_TIMEOUT_SECONDS:
        return f"its run worker did not start within {START_TIMEOUT_SECONDS:.0f}s"
    return None


def _created_run(instance: dg.DagsterInstance, launched: Launch, console: IO[str] | None) -> dg.DagsterRun:
    """The run `dagster job launch` created (found by its LAUNCH_TAG), once it exists."""
    while True:
        runs = instance.get_runs(dg.RunsFilter(tags={LAUNCH_TAG: launched.token}), limit=1)
        if runs:
            return runs[0]
        _show(launched, console)
        if launched.process.poll() is not None:  # ended: the run may have been stored just before
            runs = instance.get_runs(dg.RunsFilter(tags={LAUNCH_TAG: launched.token}), limit=1)
            if runs:
                return runs[0]
            raise LaunchError(_last_line(launched.output) or f"`dagster job launch` exited with status {launched.process.returncode}")
        time.sleep(POLL_SECONDS)


def _read_events(
    instance: dg.DagsterInstance, run_id: str, cursor: str | None, outcome: RunOutcome, say: Callable[[str], None],
    warn: Callable[[str], None],
) -> str | None:
    """Read the run's events after `cursor` into `outcome`, saying what happened; the new cursor."""
    while True:
        connection = instance.get_records_for_run(run_id, cursor=cursor)
        for record in connection.records:
            _take(record.event_log_entry, outcome, say, warn)
        cursor = connection.cursor
        if not connection.has_more:
            return cursor


def _take(entry: dg.EventLogEntry, outcome: RunOutcome, say: Callable[[str], None], warn: Callable[[str], None]) -> None:
    job = outcome.run.job_name
    event = entry.dagster_event
    if event is None:  # a message logged in a step: its warnings are shown (errors, Dagster's "Not executing" lines
        # included, end in the failure's one line)
        if entry.level == logging.WARNING:
            warn(f"[{job}] {entry.step_key or 'run'}: {entry.user_message}")
        return
    if event.is_step_success:
        say(f"[{job}] {event.step_key} done ({event.event_specific_data.duration_ms / 1000:.1f}s)")
    elif event.is_step_failure:
        outcome.step_errors.append((event.step_key, event.step_failure_data.error))
    elif event.event_type == dg.DagsterEventType.ASSET_CHECK_EVALUATION:
        evaluation = entry.asset_check_evaluation
        outcome.checks.append(evaluation)
        if not evaluation.passed:
            warn(f"[{job}] asset check FAILED: {evaluation.check_name}: {evaluation.description}")
    elif event.event_type == dg.DagsterEventType.ASSET_MATERIALIZATION:
        materialization = entry.asset_materialization
        outcome.materializations.setdefault("/".join(materialization.asset_key.path), materialization)
    elif event.event_type == dg.DagsterEventType.RUN_FAILURE:
        outcome.run_failure = event.message
        outcome.run_error = event.job_failure_data.error if event.job_failure_data else None
    elif event.is_engine_event and (event.message or "").startswith("Run execution process for"):
        outcome.run_failure = event.message  # the code server found the run worker gone: its exit code or signal


def _terminate(instance: dg.DagsterInstance, launched: Launch, run: dg.DagsterRun | None, say: Callable[[str], None]) -> None:
    """Ctrl-C: terminate the run through the run launcher and wait, a bounded time, for it to end; `say` how it ended."""
    if run is None:
        launched.process.kill()  # no run yet: stop the launch
        return
    if instance.run_launcher.terminate(run.run_id):
        deadline = time.monotonic() + TERMINATE_WAIT_SECONDS
        while not instance.get_run_by_id(run.run_id).is_finished and time.monotonic() < deadline:
            time.sleep(POLL_SECONDS)
    ended = instance.get_run_by_id(run.run_id)
    say(f"recon: run {run.run_id} ({run.job_name}) terminated: {ended.status.value}")


def _show(launched: Launch, console: IO[str] | None) -> None:
    """Copy what the launch wrote since last time to `console` (--verbose)."""
    if console is None:
        return
    with launched.output.open("rb") as source:
        source.seek(launched.shown)
        new = source.read()
    launched.shown += len(new)
    if new:
        console.write(new.decode(errors="replace"))
        console.flush()


def _last_line(path: Path) -> str:
    lines = [line.strip() for line in path.read_text(errors="replace").splitlines() if line.strip()]
    return lines[-1] if lines else ""
