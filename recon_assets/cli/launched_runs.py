"""Launch a job through the project's code location, as the UI does, and follow its run on the instance: what `recon
run`, `recon paper` and `recon ask` share. `open_instance` opens the instance in DAGSTER_HOME they launch on,
`run_failures` says in one line each why a run did not succeed (`disk_full_message` / `disk_full_text`: a full disk
named by its path).

A command starts the code location's code server once (`CodeServer`: `dagster api grpc` on a socket of its own, under
the location name of the packaged workspace.yaml the UI loads, on the code of the `recon_assets` this process imported)
and `launch` starts `dagster job launch` through it for each run: Dagster creates the run with its remote origin (so
it shows on the UI's timeline and its job's page) and the instance's run launcher starts its run worker in a process
of its own (one code server per launch loaded the definitions each time: about 6 CPU-s each, issue 23). `follow` then reads the run's event log through the instance
until the run ends: each asset step as it completes, the warnings of the steps, asset check evaluations,
materializations and failures. The run worker's own console (Dagster's log lines) goes to a file, shown with
`--verbose` only; the run's event log in the UI holds it all.

The launch runs in a session of its own, so Ctrl-C reaches the `recon` command alone, which then terminates the run
through the instance's run launcher (`RunLauncher.terminate`), as the UI's "Terminate" does, and waits
`terminate_wait_seconds()` for it to end. A run that has not ended by then (its worker stopped, hung or gone, or its code
server unreachable) would stay CANCELING for ever without a daemon (Dagster's run monitoring ends such a run after its
cancel timeout, with `dagster dev` only): its worker, when still alive, is stopped and the run marked CANCELED
(`report_run_canceled`). The command then ends with `interrupts.interrupted`: one line, exit status 130, no stack trace.
"""

from __future__ import annotations

import ctypes
import errno
import json
import logging
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import dagster as dg
from filelock import FileLock, Timeout

from recon_assets.cli.instance_health import fail_lost_run, stop_worker, worker_gone
from recon_assets.cli.progress import RunDisplay
from recon_assets.shared.credentials import redact
from recon_assets.shared.display import first_line, terminal_text
from recon_assets.shared.run_tags import LAUNCH_TAG
from recon_assets.shared.validation import positive_seconds

# The code location the UI loads (the checkout's workspace.yaml links here); `CodeServer` serves it under its name.
WORKSPACE = Path(__file__).resolve().with_name("workspace.yaml")
# The folder holding the `recon_assets` package this process imported (a checkout, site-packages, or a PYTHONPATH
# entry): the code server's working directory, so that it and its run workers import the same code as the command.
CODE_ROOT = Path(__file__).resolve().parents[2]
# The run config of every launched run: its worker's console (shown with --verbose) at INFO shows each asset's own
# lines; Dagster's per-event DEBUG lines would bury them.
RUN_CONFIG = {"loggers": {"console": {"config": {"log_level": "INFO"}}}}
DEFAULT_DAGSTER_HOME = Path(".dagster_home")
# The instance settings `open_instance` gives a DAGSTER_HOME that has none (package data; the checkout's dagster.yaml links here).
INSTANCE_SETTINGS = Path(__file__).resolve().with_name("dagster.yaml")
# Held in DAGSTER_HOME while `open_instance` gives it its settings and creates or opens its storage, at most this long
# (seconds): creating the storage of a new instance takes a few seconds.
INSTANCE_LOCK = "recon_instance.lock"
INSTANCE_LOCK_WAIT_SECONDS = 300.0
# How often a followed run's status and new events are read (each read opens the run storage and the event log: about
# 10 ms of CPU; at 0.5 s, several CPU-seconds of a `recon run`, issue 23).
POLL_SECONDS = 1.0
# How often the run worker's health is checked while the run goes on.
HEALTH_SECONDS = 5.0
# How long a run may stay STARTING after its launch ended (Dagster's run monitoring default start_timeout_seconds).
START_TIMEOUT_SECONDS = 180.0
# How long a terminated run may take to end after Ctrl-C before `recon run` stops its worker and marks it CANCELED,
# unless TERMINATE_WAIT_SETTING says otherwise (`terminate_wait_seconds`): a run of the sample ends within a few
# seconds of being asked; a machine under heavy load may want longer, a script that must not hang shorter.
DEFAULT_TERMINATE_WAIT_SECONDS = 30.0
TERMINATE_WAIT_SETTING = "RECON_TERMINATE_WAIT_SECONDS"
# The engine event Dagster's code server stores when a run worker it started exits with its run unfinished
# (dagster._utils.get_run_crash_explanation, after the name of the reporting class): "[DagsterApiServer] Run execution
# process for <run id> was terminated by signal 9 (SIGKILL). ..." or "... unexpectedly exited with code 1."
_WORKER_EXIT = re.compile(r"Run execution process for \S+ (?:was terminated by signal (?P<signal>\d+) \((?P<name>\w+)\)|unexpectedly exited with code (?P<code>-?\d+))")


class LaunchError(RuntimeError):
    """`dagster job launch` ended without creating the run; the message is its last line of output."""


@dataclass
class Launch:
    """A `dagster job launch` under way: its process, the tag value that finds its run, its console output, and its
    `CodeServer`'s console (its run worker writes there), from `server_from` bytes on (what it held when the launch
    started)."""

    job_name: str
    process: subprocess.Popen
    token: str
    output: Path
    server_output: Path
    shown: int = 0  # bytes of `output` already shown (--verbose)
    ended: float | None = None  # when the launch process was first seen ended (time.monotonic)
    server_from: int = 0
    server_shown: int = 0  # bytes of `server_output` after `server_from` already shown (--verbose)

    def console_text(self) -> str:
        """All the launch and its run worker wrote so far: the launch's console, then its code server's since the
        launch started."""
        text = self.output.read_text(errors="replace") if self.output.is_file() else ""
        if self.server_output.is_file():
            with self.server_output.open("rb") as source:
                source.seek(self.server_from)
                text += source.read().decode(errors="replace")
        return text


class CodeServer:
    """The code location's code server, started once for all the runs one command launches (`recon run`: up to three
    jobs, and more launches when partitions are stale in several ranges), instead of one per `dagster job launch`.

    `workspace()` starts `dagster api grpc` (Dagster's documented command for a code server a workspace points at)
    on first use, on a Unix socket in `folder`, under the location name of the packaged workspace (so the runs carry
    the same location name and show on the UI's pages as before), with CODE_ROOT as the location's working directory
    (Dagster puts it first on sys.path where the server and each run worker import the module; by default it is the
    current folder, whose `recon_assets/` folder, if any, would be the code the runs ran; and it drops sys.path[0],
    which under PYTHONSAFEPATH is the first PYTHONPATH entry: hostile passes, 2026-12-04 and 12-05), with this
    process's environment (the RECON_*
    settings reach it and its run workers), in a session of its own (Ctrl-C reaches the `recon` command alone, which
    then terminates its run through it); it writes a workspace file pointing at it, the `-w` of each `launch`. The
    server's console (and its run workers', which it starts) goes to `output`.

    `close()` (or leaving the `with` block) asks it to stop as Dagster's own code servers stop: SIGINT, after which it
    ends once no run it started is under way, waited for at most STOP_WAIT_SECONDS. On Linux the server gets the
    same SIGINT when this process dies without closing it (killed): it never outlives its runs, as the code server
    `dagster job launch` starts did.

    Raises (from `workspace()`):
        LaunchError: the code server ended before it served (its last line of output: the definitions do not load, ...)
            or did not serve within START_TIMEOUT_SECONDS.
    """

    LOCATION_NAME = "recon_assets"
    MODULE_NAME = "recon_assets.definitions"
    STOP_WAIT_SECONDS = 10.0
    # The longest path a Unix socket can bind: sockaddr_un.sun_path holds 108 bytes with its NUL on Linux (unix(7)),
    # 104 on macOS; a longer one (a long TMPDIR) fails "Failed to bind to address".
    SOCKET_PATH_MAX = 103

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.socket = self.folder / "code_server.sock"
        self.output = self.folder / "code_server.log"
        self.process: subprocess.Popen | None = None
        self._workspace = self.folder / "workspace.yaml"
        self._socket_folder: Path | None = None  # made in /tmp when `folder`'s path is too long for a socket

    def __enter__(self) -> CodeServer:
        return self

    def __exit__(self, *_) -> None:
        self.close()

    def console_text(self) -> str:
        """All the code server (and its run workers) wrote so far; '' before it started."""
        return self.output.read_text(errors="replace") if self.output.is_file() else ""

    def workspace(self) -> Path:
        """The workspace file of the running code server, started (and waited for) on first use."""
        if self.process is None:
            self._start()
        elif self.process.poll() is not None:
            raise LaunchError(_last_line(self.output) or f"the code server exited with status {self.process.returncode}")
        return self._workspace

    def _start(self) -> None:
        if len(os.fsencode(self.socket)) > self.SOCKET_PATH_MAX:
            self._socket_folder = Path(tempfile.mkdtemp(prefix="recon-", dir="/tmp"))
            self.socket = self._socket_folder / "code_server.sock"
        command = [
            sys.executable, "-m", "dagster", "api", "grpc", "--socket", str(self.socket), "--module-name", self.MODULE_NAME,
            "--location-name", self.LOCATION_NAME, "--working-directory", str(CODE_ROOT), "--inject-env-vars-from-instance",
            "--log-level", "INFO",
        ]
        with self.output.open("ab") as sink:
            self.process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=sink, stderr=subprocess.STDOUT, start_new_session=True,
                preexec_fn=_interrupt_when_parent_dies(),
            )
        self._workspace.write_text(json.dumps({"load_from": [{"grpc_server": {
            "host": "localhost", "socket": str(self.socket), "location_name": self.LOCATION_NAME,
        }}]}))  # JSON is YAML
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while not _accepts(self.socket):
            if self.process.poll() is not None:
                raise LaunchError(_last_line(self.output) or f"the code server exited with status {self.process.returncode}")
            if time.monotonic() > deadline:
                self.close()
                raise LaunchError(f"the code server did not serve within {START_TIMEOUT_SECONDS:.0f}s")
            time.sleep(0.1)

    def close(self) -> None:
        """Ask the code server to stop (SIGINT: it ends once its runs have ended) and wait STOP_WAIT_SECONDS at most;
        remove the folder made for its socket, if one was."""
        try:
            if self.process is not None and self.process.poll() is None:
                self.process.send_signal(signal.SIGINT)
                self.process.wait(timeout=self.STOP_WAIT_SECONDS)
        except subprocess.TimeoutExpired:  # a run of it still under way: it stops once that run ends
            pass
        finally:
            if self._socket_folder is not None:
                shutil.rmtree(self._socket_folder, ignore_errors=True)


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
    job_name: str, tags: Mapping[str, str], run_config: Mapping[str, Any], output: Path, server: CodeServer, ops: Sequence[str] = (),
) -> Launch:
    """Start `dagster job launch` for `job_name` with `tags` and `run_config` through `server` (started here when not
    yet; this process's environment: the RECON_* settings reach the code server and the run worker), its console
    written to `output`; only the steps `ops` (asset and asset check op names: the CLI's --op-selection) when given,
    else the whole job.

    Raises:
        LaunchError: `server` could not be started.
    """
    token = uuid.uuid4().hex
    workspace = server.workspace()
    server_from = server.output.stat().st_size if server.output.is_file() else 0
    command = [
        sys.executable, "-m", "dagster", "job", "launch", "-w", str(workspace), "-j", job_name,
        "--tags", json.dumps({**tags, LAUNCH_TAG: token}), "--config-json", json.dumps(run_config),
        *(["--op-selection", ",".join(ops)] if ops else []),
    ]
    with output.open("wb") as sink:
        process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=sink, stderr=subprocess.STDOUT, start_new_session=True,
        )
    return Launch(job_name, process, token, output, server.output, server_from=server_from)


def _interrupt_when_parent_dies() -> Callable[[], None]:
    """What a code server runs before it starts (`CodeServer`): SIGINT back to its default, so that Python turns it into
    KeyboardInterrupt (a `recon` started in the background, by nohup or `&` in a script, has SIGINT ignored, and the
    server would inherit that and ignore `CodeServer.close`), and, on Linux, SIGINT sent to it when the process that
    started it dies (prctl PR_SET_PDEATHSIG), as `CodeServer.close` would."""
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl  # resolved here, before the fork
    except (OSError, AttributeError):  # no prctl: not Linux
        prctl = None

    def before_start() -> None:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        if prctl is not None:
            prctl(_PR_SET_PDEATHSIG, signal.SIGINT, 0, 0, 0)

    return before_start


_PR_SET_PDEATHSIG = 1


def _accepts(path: Path) -> bool:
    """Whether a server listens on the Unix socket `path`."""
    if not path.exists():
        return False
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(str(path))
        except OSError:
            return False
    return True


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
        if not evaluation.passed:  # a WARN check's failure is a warning (exit 0), an ERROR one's a failure (exit 1)
            said = "FAILED" if evaluation.severity == dg.AssetCheckSeverity.ERROR else "warned (severity WARN, not a failure)"
            display.warn(f"[{job}] asset check {said}: {evaluation.check_name}: {evaluation.description}")
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
    """Ctrl-C: stop the launch (a run it created before it was stopped is found by its LAUNCH_TAG), terminate the run
    through the run launcher and wait `terminate_wait_seconds()` (said) for it to end; a run still unfinished then (or at
    a second Ctrl-C, whenever it comes: during the wait or before it) has its worker stopped when alive
    (`instance_health.stop_worker`) and is marked CANCELED, so no run stays CANCELING. `say` how it ended. Ctrl-C
    and SIGTERM are held back while the run is marked (`_interrupts_held`: at most the 10 s `stop_worker` waits), so
    a third one cannot leave it unmarked; it returns, and the command ends, after that."""
    unanswered: str | None = None
    wait = terminate_wait_seconds()
    try:
        _stop_launch(launched)
        run = run or _launched_run(instance, launched)
        if run is not None and not instance.get_run_by_id(run.run_id).is_finished:
            say(f"recon: terminating run {run.run_id} ({run.job_name}): waiting up to {wait:g}s for it to end")
            unanswered = _terminated(instance, run.run_id, wait)
    except KeyboardInterrupt:  # a second Ctrl-C before the wait began (a quick double Ctrl-C): as one during it
        unanswered = _SECOND_INTERRUPT
    with _interrupts_held():
        _stop_launch(launched)
        run = run or _launched_run(instance, launched)
        if run is None:  # the launch was stopped before it created the run
            return
        described = f"run {run.run_id} ({run.job_name})"
        ended = instance.get_run_by_id(run.run_id)
        if not ended.is_finished:
            unanswered = unanswered or f"did not end within {wait:g}s"
            stopped = stop_worker(instance, ended)
            instance.report_run_canceled(ended, message=f"Marked canceled by `recon run` after Ctrl-C: {unanswered}.")
            worker = f"its run worker (pid {stopped}) was stopped and " if stopped is not None else ""
            say(f"recon: {described} {unanswered}: {worker}the run is marked CANCELED")
        else:
            say(f"recon: {described} terminated: {ended.status.value}")
        instance.event_log_storage.free_concurrency_slots_for_run(run.run_id)


_SECOND_INTERRUPT = "was still ending at a second Ctrl-C"


def _stop_launch(launched: Launch) -> None:
    """Kill `dagster job launch` when still running: nothing more to start."""
    if launched.process.poll() is None:
        launched.process.kill()
        launched.process.wait()


def _launched_run(instance: dg.DagsterInstance, launched: Launch) -> dg.DagsterRun | None:
    """The run `launched` created (its LAUNCH_TAG), None when it created none."""
    runs = instance.get_runs(dg.RunsFilter(tags={LAUNCH_TAG: launched.token}), limit=1)
    return runs[0] if runs else None


@contextmanager
def _interrupts_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM are taken and dropped for the block (the command is already ending on one), on the main
    thread; an ignored SIGINT (a command started in the background) stays ignored."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    saved = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    for number, handler in saved.items():
        if handler is not signal.SIG_IGN:
            signal.signal(number, lambda *_: None)
    try:
        yield
    finally:
        for number, handler in saved.items():
            signal.signal(number, handler if handler is not None else signal.SIG_DFL)


def _terminated(instance: dg.DagsterInstance, run_id: str, wait: float) -> str | None:
    """Ask the run launcher to terminate run `run_id` and wait `wait` seconds for the run to end: None when it did,
    else why not ('did not end within 30s', 'could not be asked to stop (...)'). The request is sent from a thread
    of its own: the code server of a worker that does not answer may hold it for Dagster's gRPC timeout (60 s)."""
    answers: list[bool | Exception] = []

    def ask() -> None:
        try:
            answers.append(instance.run_launcher.terminate(run_id))
        except Exception as error:  # the code server does not answer (DagsterUserCodeUnreachableError, a gRPC error)
            answers.append(error)

    threading.Thread(target=ask, daemon=True).start()
    deadline = time.monotonic() + wait
    try:
        while not instance.get_run_by_id(run_id).is_finished:
            if answers and answers[0] is False:
                return "could not be asked to stop (its code server is gone)"
            if answers and isinstance(answers[0], Exception):
                return f"could not be asked to stop (its code server did not answer: {type(answers[0]).__name__})"
            if time.monotonic() >= deadline:
                return f"did not end within {wait:g}s" + ("" if answers else " (its code server did not answer)")
            time.sleep(POLL_SECONDS)
    except KeyboardInterrupt:
        return _SECOND_INTERRUPT
    return None


def _show(launched: Launch, console: IO[str] | None) -> None:
    """Copy what the launch, and its code server (`CodeServer`: its run worker's lines), wrote since last
    time to `console` (--verbose)."""
    if console is None:
        return
    with launched.output.open("rb") as source:
        source.seek(launched.shown)
        new = source.read()
    launched.shown += len(new)
    if launched.server_output.is_file():
        with launched.server_output.open("rb") as source:
            source.seek(launched.server_from + launched.server_shown)
            served = source.read()
        launched.server_shown += len(served)
        new += served
    if new:
        console.write(new.decode(errors="replace"))
        console.flush()


def _last_line(path: Path) -> str:
    lines = [line.strip() for line in path.read_text(errors="replace").splitlines() if line.strip()]
    return lines[-1] if lines else ""


# The instance the runs are launched on.


def dagster_home() -> Path:
    """The Dagster instance's folder: DAGSTER_HOME, else ./.dagster_home (DEFAULT_DAGSTER_HOME), made absolute."""
    return Path(os.environ.get("DAGSTER_HOME") or DEFAULT_DAGSTER_HOME).resolve()


# The run coordinator earlier versions put in DAGSTER_HOME's dagster.yaml: it is gone, and an instance naming it does not load.
_REMOVED_COORDINATOR = "recon_assets.cli.launch_checks"


class InstanceLockTimeout(RuntimeError):
    """Another process held the instance lock of DAGSTER_HOME longer than INSTANCE_LOCK_WAIT_SECONDS; the message names it."""


# The daemon that takes runs off a QueuedRunCoordinator's queue (its type among Dagster's daemons).
QUEUE_DAEMON = "QUEUED_RUN_COORDINATOR"


class InstanceUnusable(RuntimeError):
    """The instance in DAGSTER_HOME cannot run recon's runs; the message says why and what to do (exit status 2)."""


class RunsWouldWait(InstanceUnusable):
    """The instance queues launched runs for a Dagster daemon and none is running."""


class TerminateWaitRefused(InstanceUnusable):
    """RECON_TERMINATE_WAIT_SECONDS is not a positive number of seconds: a run launched now could not be stopped as set."""


def terminate_wait_seconds() -> float:
    """How long (seconds) a run terminated on Ctrl-C may take to end before its worker is stopped and the run marked
    CANCELED (`_terminate`): TERMINATE_WAIT_SETTING when set (a positive, finite number), else
    DEFAULT_TERMINATE_WAIT_SECONDS.

    Raises:
        TerminateWaitRefused: anything else, in one line quoting the value (`validation.positive_seconds`).
    """
    try:
        return positive_seconds(TERMINATE_WAIT_SETTING, DEFAULT_TERMINATE_WAIT_SECONDS)
    except ValueError as error:
        raise TerminateWaitRefused(str(error)) from error


def check_runs_start(home: Path, instance: dg.DagsterInstance) -> None:
    """Before `recon run`, `recon paper` or `recon ask` launches a run on `instance` (in the folder `home`): an instance
    whose run coordinator queues runs (Dagster's default when a dagster.yaml names none, as in a DAGSTER_HOME shared
    with other projects) starts them only from a running daemon's QUEUED_RUN_COORDINATOR loop; without one a launched
    run waits QUEUED for ever (hostile pass, 2026-12-04: `recon run` hung silently). The project's own dagster.yaml
    (INSTANCE_SETTINGS) starts runs at once, with or without a daemon. The wait for a run stopped on Ctrl-C
    (`terminate_wait_seconds`) is read here too, so that a bad value is refused before a run, not at the Ctrl-C.

    Raises:
        TerminateWaitRefused: RECON_TERMINATE_WAIT_SECONDS is not a positive number of seconds.
        RunsWouldWait: the coordinator queues and no daemon has a healthy heartbeat (`DagsterInstance.get_daemon_statuses`).
    """
    terminate_wait_seconds()
    if not isinstance(instance.run_coordinator, dg.QueuedRunCoordinator):
        return
    status = instance.get_daemon_statuses([QUEUE_DAEMON]).get(QUEUE_DAEMON)
    if status is not None and status.healthy:
        return
    raise RunsWouldWait(
        f"the Dagster instance in {home} queues runs for a Dagster daemon (its dagster.yaml names no run coordinator, "
        f"or QueuedRunCoordinator) and no daemon is running: a run launched now would wait QUEUED for ever. Start "
        f"`dagster dev` (or `dagster-daemon run`) with DAGSTER_HOME={home}, or give recon a DAGSTER_HOME of its own "
        f"(it writes its dagster.yaml there)"
    )


def instance_for_launches() -> tuple[Path, dg.DagsterInstance]:
    """`open_instance`, then `check_runs_start`: the instance `recon run`, `recon paper` and `recon ask` launch their
    runs on, refused before any launch when it could not start or stop them as set (`recon brief --remove`, which
    launches nothing, uses `open_instance` alone).

    Raises:
        InstanceLockTimeout: see `open_instance`.
        InstanceUnusable: see `open_instance` and `check_runs_start` (RunsWouldWait, TerminateWaitRefused).
    """
    home, instance = open_instance()
    check_runs_start(home, instance)
    return home, instance


def open_instance() -> tuple[Path, dg.DagsterInstance]:
    """(the instance's folder, the instance) that `recon run`, `recon paper` and `recon ask` launch their runs on:
    DAGSTER_HOME (else ./.dagster_home, created; `dagster_home`) and its instance, with the project's dagster.yaml
    (INSTANCE_SETTINGS) given to a home that has none, or has the one of an earlier version naming its removed run
    coordinator (said in one line on stdout, 'recon: ...'). DAGSTER_HOME is set to that folder for this process and
    the processes it launches.

    One process at a time (the lock INSTANCE_LOCK in DAGSTER_HOME, waited for INSTANCE_LOCK_WAIT_SECONDS at most,
    said in one line when it is busy): Dagster's SQLite storages (runs, schedules, the event log's index) create their
    tables, then stamp their schema's revision in `alembic_version`, with no lock between processes; a second process
    opening a new instance in between found the tables unstamped, took them for an older Dagster's and stamped that
    older revision as well: two rows in `alembic_version` (or "table alembic_version already exists"), and an instance
    that no longer loads (issue 24). The processes of the runs (`dagster job launch`, its code server, the run worker)
    open the instance only after this, and find it stamped.

    Raises:
        InstanceLockTimeout: another process held the lock for INSTANCE_LOCK_WAIT_SECONDS.
        InstanceUnusable: DAGSTER_HOME cannot be created or written (a read-only folder, a file in its way), in one line.
    """
    home = dagster_home()
    os.environ["DAGSTER_HOME"] = str(home)
    lock = FileLock(home / INSTANCE_LOCK)
    try:
        home.mkdir(parents=True, exist_ok=True)
        lock.acquire(timeout=0)
    except Timeout:
        _say_instance(f"waiting for another process to finish setting up the Dagster instance in {home} (lock {lock.lock_file})")
        try:
            lock.acquire(timeout=INSTANCE_LOCK_WAIT_SECONDS)
        except Timeout as error:
            raise InstanceLockTimeout(
                f"gave up after {INSTANCE_LOCK_WAIT_SECONDS:.0f}s waiting for the lock {lock.lock_file}, held by another "
                f"process setting up the Dagster instance in {home}: run again once it is done"
            ) from error
    except OSError as error:  # after Timeout, a TimeoutError (an OSError too)
        raise InstanceUnusable(
            f"cannot use DAGSTER_HOME {home}: {error.strerror or error}: give DAGSTER_HOME a folder this user can write"
        ) from error
    try:
        settings = home / "dagster.yaml"
        if settings.exists() and _REMOVED_COORDINATOR in settings.read_text(errors="replace"):
            _say_instance(f"{settings} named the run coordinator of an earlier recon_assets ({_REMOVED_COORDINATOR}): replaced by the current settings")
            settings.unlink()
        if not settings.exists():
            shutil.copy(INSTANCE_SETTINGS, settings)
        return home, dg.DagsterInstance.get()
    finally:
        lock.release()


def _say_instance(line: str) -> None:
    print(f"recon: {line}", flush=True)


# Why a run failed, in one line each.

# The message of a run failure Dagster stores for whoever fails a run from outside it without saying why: the code
# server when the run's worker died (its exit is in an engine event before it: `RunOutcome.worker_lost`), the UI's
# "mark as failed", or run monitoring.
_FAILED_FROM_OUTSIDE_MESSAGE = "This run has been marked as failed from outside the execution context"
_FAILED_FROM_OUTSIDE = "its run was marked failed from outside it (Dagster's run monitoring, or the UI)"


def run_failures(outcome: RunOutcome, database: Path, launched: Launch) -> list[str]:
    """Why the run of `outcome` did not succeed, as lines to print: `database` is the DuckDB file it wrote (a full
    disk there is named), `launched` its launch (its console and its code server's: `Launch.console_text`).

    'step <key> failed: <root cause>' for every failed step (else the run's own failure), one line each: the
    innermost cause of each error chain, its first line, or the full disk it names (`disk_full_text`). A run that
    ended with no cause in its event log (its worker could not store one: a full disk under DAGSTER_HOME) is judged on
    the run worker's console. A run whose worker was lost (killed, crashed, gone with its code server) is that one
    line: 'run worker lost: <how>; ... the next `recon run` is not affected'. Never empty."""
    lost = outcome.worker_lost or (_FAILED_FROM_OUTSIDE if outcome.run_failure and outcome.run_failure.startswith(_FAILED_FROM_OUTSIDE_MESSAGE) else None)
    if lost:  # the steps it left unfinished failed for that reason only
        return [f"run worker lost: {lost}; the run is marked {outcome.run.status.value} and its pool slots are freed, so "
                "the next `recon run` is not affected"]
    messages = [f"step {step} failed: {_root_cause(error, database)}" for step, error in outcome.step_errors]
    if not messages and outcome.run_error is not None:
        messages.append(f"the run failed: {_root_cause(outcome.run_error, database)}")
    text = launched.console_text()
    full = disk_full_text(text, database) if text else None
    if full is not None and not any(full in message for message in messages):
        messages.insert(0, full)
    if not messages and outcome.run_failure:
        messages.append(f"the run failed: {terminal_text(redact(first_line(outcome.run_failure)))}")
    return messages or [f"the run ended {outcome.run.status.value} without a failed step"]


def _root_cause(error, database: Path) -> str:
    """The innermost cause of a Dagster error chain (`SerializableErrorInfo`) in one line: a full disk named by its
    path, else the first line of its message (any library's text about any record: shown as data, without secrets;
    of a `dg.Failure`, its description without the class path)."""
    while error.cause is not None:
        error = error.cause
    message = error.message
    if error.cls_name == dg.Failure.__name__:  # the description an asset gave its `dg.Failure`, without the class path
        message = message.removeprefix(f"{dg.Failure.__module__}.{dg.Failure.__name__}: ")
    return disk_full_text(message, database) or terminal_text(redact(first_line(message) or error.cls_name or "no message"))


# errno values of a full device and of an exhausted disk quota (POSIX), and the texts SQLite (Dagster's run and
# event storage under DAGSTER_HOME) and DuckDB give for the same condition.
_DISK_FULL_ERRNOS = {errno.ENOSPC, errno.EDQUOT}
_SQLITE_FULL = "database or disk is full"
_DUCKDB_FULL = ("No space left on device", "disk is full")
# Python's text of an OSError of a full disk naming its file ("[Errno 28] No space left on device: '/x/run.db'"), as a
# run worker's console shows it.
_OSERROR_FULL = re.compile(rf"\[Errno (?:{'|'.join(map(str, sorted(_DISK_FULL_ERRNOS)))})\] [^:\n]*: '([^'\n]+)'")


def disk_full_message(error: BaseException, database: Path) -> str | None:
    """One line saying which path is full, when `error` (or an error in its chain: causes, contexts, SQLAlchemy's
    wrapped `orig`) is a full disk or quota; else None.

    The path is the file the error names when it names one; else DAGSTER_HOME for SQLite's "database or disk is
    full" (Dagster's run and event storage lives there) and the DuckDB file for DuckDB's.
    """
    home = dagster_home()
    seen: set[int] = set()
    pending: list[BaseException | None] = [error]
    while pending:
        current = pending.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        pending += [current.__cause__, current.__context__, getattr(current, "orig", None)]
        if isinstance(current, OSError) and current.errno in _DISK_FULL_ERRNOS:
            if not current.filename:
                return (f"no space left on a device this run writes to (DAGSTER_HOME {home}, or the DuckDB file's folder "
                        f"{database.parent}): free space there, or move them to another disk")
            return _full_line(Path(os.fsdecode(current.filename)), home, database)
        full = disk_full_text(str(current), database)
        if full is not None:
            return full
    return None


def disk_full_text(text: str, database: Path) -> str | None:
    """`disk_full_message`'s line for an error text (a step's root cause, as Dagster recorded it, or a run worker's
    console): the file a full disk's OSError names, SQLite's "database or disk is full" names DAGSTER_HOME, DuckDB's or
    the system's "No space left on device" the DuckDB file; else None."""
    home = dagster_home()
    if named := _OSERROR_FULL.search(text):
        return _full_line(Path(named.group(1)), home, database)
    if _SQLITE_FULL in text:
        return _full_line(home, home, database)
    if any(marker in text for marker in _DUCKDB_FULL):
        return _full_line(database, home, database)
    return None


def _full_line(path: Path, home: Path, database: Path) -> str:
    resolved = path.resolve()
    if resolved.is_relative_to(home):
        area, move = "under DAGSTER_HOME: Dagster's run and event storage", "set DAGSTER_HOME to a folder on another disk"
    elif resolved.is_relative_to(database.resolve().parent):
        area, move = f"the DuckDB file {database.name} and its spill folder {database.name}.tmp", "give --db on another disk"
    else:
        area, move = "written by this run", "move it to another disk"
    return f"no space left on the device holding {path} ({area}): free space there, or {move}"
