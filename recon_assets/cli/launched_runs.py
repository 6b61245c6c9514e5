"""Launch a job through the project's code location, as the UI does, and follow its run on the instance.

`launch` starts `dagster job launch -w <the packaged workspace.yaml>`: Dagster starts the code location's code server,
creates the run with its remote origin (so it shows on the UI's timeline and its job's page) and the instance's run
launcher starts its run worker in a process of its own. `follow` then reads the run's event log through the instance
until the run ends: each asset step as it completes, the warnings of the steps, asset check evaluations,
materializations and failures. The run worker's own console (Dagster's log lines) goes to a file, shown with
`--verbose` only; the run's event log in the UI holds it all.

The launch runs in a session of its own, so Ctrl-C reaches `recon run` alone, which then terminates the run through the
instance's run launcher (`RunLauncher.terminate`), as the UI's "Terminate" does, and waits TERMINATE_WAIT_SECONDS for
it to end. A run that has not ended by then (its worker stopped, hung or gone, or its code server unreachable) would
stay CANCELING for ever without a daemon (Dagster's run monitoring ends such a run after its cancel timeout, with
`dagster dev` only): its worker, when still alive, is stopped and the run marked CANCELED (`report_run_canceled`).
"""

from __future__ import annotations

import json
import logging
import re
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import dagster as dg

from recon_assets.cli.instance_health import fail_lost_run, stop_worker, worker_gone
from recon_assets.cli.progress import RunDisplay
from recon_assets.shared.run_tags import LAUNCH_TAG

WORKSPACE = Path(__file__).resolve().with_name("workspace.yaml")
POLL_SECONDS = 0.5
# How often the run worker's health is checked while the run goes on.
HEALTH_SECONDS = 5.0
# How long a run may stay STARTING after its launch ended (Dagster's run monitoring default start_timeout_seconds).
START_TIMEOUT_SECONDS = 180.0
# How long a terminated run may take to end after Ctrl-C before `recon run` stops its worker and marks it CANCELED.
TERMINATE_WAIT_SECONDS = 30.0
# The engine event Dagster's code server stores when a run worker it started exits with its run unfinished
# (dagster._utils.get_run_crash_explanation, after the name of the reporting class): "[DagsterApiServer] Run execution
# process for <run id> was terminated by signal 9 (SIGKILL). ..." or "... unexpectedly exited with code 1."
_WORKER_EXIT = re.compile(r"Run execution process for \S+ (?:was terminated by signal (?P<signal>\d+) \((?P<name>\w+)\)|unexpectedly exited with code (?P<code>-?\d+))")


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
    worker_lost: str | None = None  # why the run's worker is gone ("its run worker process was killed by signal 9 (SIGKILL)")


def launch(
    job_name: str, tags: Mapping[str, str], run_config: Mapping[str, Any], output: Path, ops: Sequence[str] = ()
) -> Launch:
    """Start `dagster job launch` for `job_name` with `tags` and `run_config` (this process's environment: the RECON_*
    settings reach the code server and the run worker), its console written to `output`; only the steps `ops` (asset
    and asset check op names: the CLI's --op-selection) when given, else the whole job."""
    token = uuid.uuid4().hex
    command = [
        sys.executable, "-m", "dagster", "job", "launch", "-w", str(WORKSPACE), "-j", job_name,
        "--tags", json.dumps({**tags, LAUNCH_TAG: token}), "--config-json", json.dumps(run_config),
        *(["--op-selection", ",".join(ops)] if ops else []),
    ]
    with output.open("wb") as sink:
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=sink, stderr=subprocess.STDOUT, start_new_session=True)
    return Launch(job_name, process, token, output)


def follow(
    instance: dg.DagsterInstance, launched: Launch, *, display: RunDisplay, console: IO[str] | None = None,
) -> RunOutcome:
    """Wait for the run of `launched` to end, showing on `display` how many steps it plans, each asset step as it
    completes and each warning of a step and failed asset check; the launch's console is copied to `console` when
    given (--verbose).

    A run worker that is gone while its run is unfinished (`instance_health.worker_gone`) gets its run failed here.
    On Ctrl-C the run is terminated (`_terminate`, said with `display.warn`) and KeyboardInterrupt raised again.

    Raises:
        LaunchError: `dagster job launch` failed without creating the run, or without launching it.
    """
    started = time.monotonic()
    run: dg.DagsterRun | None = None
    try:
        run = _created_run(instance, launched, console)
        if run.execution_plan_snapshot_id:  # the steps the run will execute, as its page's timeline shows them
            display.planned(len(instance.get_execution_plan_snapshot(run.execution_plan_snapshot_id).step_keys_to_execute))
        outcome = RunOutcome(run, 0.0)
        cursor: str | None = None
        checked = time.monotonic()
        while True:
            run = instance.get_run_by_id(run.run_id)
            cursor = _read_events(instance, run.run_id, cursor, outcome, display)
            _show(launched, console)
            if run.is_finished:
                break
            if time.monotonic() - checked >= HEALTH_SECONDS:
                checked = time.monotonic()
                if (why := _never_started(instance, run, launched) or (run.status == dg.DagsterRunStatus.STARTED and worker_gone(instance, run))):
                    if fail_lost_run(instance, run, why) and run.status != dg.DagsterRunStatus.NOT_STARTED:
                        outcome.worker_lost = outcome.worker_lost or why
                    if run.status == dg.DagsterRunStatus.NOT_STARTED:
                        raise LaunchError(_last_line(launched.output) or why)
                    continue
            time.sleep(POLL_SECONDS)
    except KeyboardInterrupt:
        _terminate(instance, launched, run, display.warn)
        raise
    _read_events(instance, run.run_id, cursor, outcome, display)  # those stored while the run ended
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
    instance: dg.DagsterInstance, run_id: str, cursor: str | None, outcome: RunOutcome, display: RunDisplay,
) -> str | None:
    """Read the run's events after `cursor` into `outcome`, showing what happened on `display`; the new cursor."""
    while True:
        connection = instance.get_records_for_run(run_id, cursor=cursor)
        for record in connection.records:
            _take(record.event_log_entry, outcome, display)
        cursor = connection.cursor
        if not connection.has_more:
            return cursor


def _take(entry: dg.EventLogEntry, outcome: RunOutcome, display: RunDisplay) -> None:
    job = outcome.run.job_name
    event = entry.dagster_event
    if event is None:  # a message logged in a step: its warnings are shown (errors, Dagster's "Not executing" lines
        # included, end in the failure's one line)
        if entry.level == logging.WARNING:
            display.warn(f"[{job}] {entry.step_key or 'run'}: {entry.user_message}")
        return
    if event.is_step_success:
        display.step_done(event.step_key, event.event_specific_data.duration_ms / 1000)
    elif event.is_step_failure:
        outcome.step_errors.append((event.step_key, event.step_failure_data.error))
    elif event.event_type == dg.DagsterEventType.ASSET_CHECK_EVALUATION:
        evaluation = entry.asset_check_evaluation
        outcome.checks.append(evaluation)
        if not evaluation.passed:
            display.warn(f"[{job}] asset check FAILED: {evaluation.check_name}: {evaluation.description}")
    elif event.event_type == dg.DagsterEventType.ASSET_MATERIALIZATION:
        materialization = entry.asset_materialization
        outcome.materializations.setdefault("/".join(materialization.asset_key.path), materialization)
    elif event.event_type == dg.DagsterEventType.RUN_FAILURE:
        outcome.run_failure = event.message
        outcome.run_error = event.job_failure_data.error if event.job_failure_data else None
    elif event.is_engine_event and (exited := _WORKER_EXIT.search(event.message or "")):
        # The code server found the run worker gone; the run's failure it stores next says only "marked as failed
        # from outside the execution context".
        outcome.worker_lost = (
            f"its run worker process was killed by signal {exited['signal']} ({exited['name']})" if exited["signal"]
            else f"its run worker process exited with code {exited['code']}"
        )


def _terminate(instance: dg.DagsterInstance, launched: Launch, run: dg.DagsterRun | None, say: Callable[[str], None]) -> None:
    """Ctrl-C: stop the launch, terminate the run through the run launcher and wait TERMINATE_WAIT_SECONDS (said) for
    it to end; a run still unfinished then (or at a second Ctrl-C) has its worker stopped when alive
    (`instance_health.stop_worker`) and is marked CANCELED, so no run stays CANCELING. `say` how it ended."""
    if launched.process.poll() is None:
        launched.process.kill()  # the launch itself: nothing more to start
    if run is None:
        return
    described = f"run {run.run_id} ({run.job_name})"
    unanswered = None
    if not instance.get_run_by_id(run.run_id).is_finished:
        say(f"recon: terminating {described}: waiting up to {TERMINATE_WAIT_SECONDS:.0f}s for it to end")
        unanswered = _terminated(instance, run.run_id)
    ended = instance.get_run_by_id(run.run_id)
    if not ended.is_finished:
        stopped = stop_worker(instance, ended)
        instance.report_run_canceled(ended, message=f"Marked canceled by `recon run` after Ctrl-C: {unanswered}.")
        worker = f"its run worker (pid {stopped}) was stopped and " if stopped is not None else ""
        say(f"recon: {described} {unanswered}: {worker}the run is marked CANCELED")
    else:
        say(f"recon: {described} terminated: {ended.status.value}")
    instance.event_log_storage.free_concurrency_slots_for_run(run.run_id)


def _terminated(instance: dg.DagsterInstance, run_id: str) -> str | None:
    """Ask the run launcher to terminate run `run_id` and wait TERMINATE_WAIT_SECONDS for the run to end: None when it
    did, else why not ('did not end within 30s', 'could not be asked to stop (...)'). The request is sent from a thread
    of its own: the code server of a worker that does not answer may hold it for Dagster's gRPC timeout (60 s)."""
    answers: list[bool | Exception] = []

    def ask() -> None:
        try:
            answers.append(instance.run_launcher.terminate(run_id))
        except Exception as error:  # the code server does not answer (DagsterUserCodeUnreachableError, a gRPC error)
            answers.append(error)

    threading.Thread(target=ask, daemon=True).start()
    deadline = time.monotonic() + TERMINATE_WAIT_SECONDS
    try:
        while not instance.get_run_by_id(run_id).is_finished:
            if answers and answers[0] is False:
                return "could not be asked to stop (its code server is gone)"
            if answers and isinstance(answers[0], Exception):
                return f"could not be asked to stop (its code server did not answer: {type(answers[0]).__name__})"
            if time.monotonic() >= deadline:
                return f"did not end within {TERMINATE_WAIT_SECONDS:.0f}s" + ("" if answers else " (its code server did not answer)")
            time.sleep(POLL_SECONDS)
    except KeyboardInterrupt:
        return "was still ending at a second Ctrl-C"
    return None


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
