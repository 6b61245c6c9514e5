"""A run whose process is gone must not block later runs: find such runs on the local Dagster instance, mark them
failed and free their concurrency-pool slots; wait for a live holder of the `duckdb` pool a bounded time only.

Every step that writes DuckDB is in pool `duckdb` (limit 1, dagster.yaml). Dagster frees a run's slots when the run
ends, but a run killed with SIGKILL (or by the OOM killer, or a power cut) never ends: it stays STARTED and keeps its
slot, and every later run's step waits for that slot for ever (Dagster's in-process executor polls it without a
bound and without honouring SIGINT). Run monitoring would catch it, but only in the Dagster daemon, which `recon run`
does not start, and `free_slots_after_run_end_seconds` frees slots of runs that *ended* only
(https://docs.dagster.io/deployment/execution/run-monitoring).

So `recon run` checks before each of its runs (`reclaim_dead_runs`): a run that is not finished, or holds pool slots,
whose run-worker process is gone is marked FAILURE (`DagsterInstance.report_run_failed`) and its slots freed
(`event_log_storage.free_concurrency_slots_for_run`, what the UI's "free slots" does). The process is known from
the run's `recon/pid` and `recon/host` tags (set by `recon run`), else from the pid Dagster records in the run's
first engine event ("Executing steps in process (pid: N)", "Started process for run (pid: N)"). A pid is alive
only when a process with it exists and was created before the run started (a reused pid is not the run's worker).
A run on another host, or whose pid Dagster never recorded, is never touched.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import dagster as dg
import psutil
from dagster._core.events import DagsterEventType

POOL = "duckdb"
PID_TAG = "recon/pid"
HOST_TAG = "recon/host"
# Not finished: a run in one of these states is expected to have a live worker.
UNFINISHED = [
    dg.DagsterRunStatus.NOT_STARTED,
    dg.DagsterRunStatus.STARTING,
    dg.DagsterRunStatus.STARTED,
    dg.DagsterRunStatus.CANCELING,
]
# A process created up to this many seconds after its run's start time is still taken for the run's worker:
# Dagster stamps the start time from the worker itself, so the two can differ by clock resolution only.
_CREATE_TIME_SLACK_SECONDS = 2.0


class PoolWaitTimeout(RuntimeError):
    """A live run held the pool longer than `recon run` may wait; the message names the run, its job and pid."""


def run_tags() -> dict[str, str]:
    """The tags that let a later `recon run` tell whether this process is still alive."""
    return {PID_TAG: str(os.getpid()), HOST_TAG: socket.gethostname()}


@dataclass(frozen=True)
class RunWorker:
    """Who runs a Dagster run: its pid (None when unknown), whether it is on this host, and whether it is alive."""

    run_id: str
    job_name: str
    pid: int | None
    on_this_host: bool
    alive: bool

    def describe(self) -> str:
        pid = f"pid {self.pid}" if self.pid is not None else "pid unknown"
        where = "" if self.on_this_host else ", on another host"
        return f"run {self.run_id} ({self.job_name}, {pid}{where}, {'alive' if self.alive else 'gone'})"


def run_worker(instance: dg.DagsterInstance, run_id: str) -> RunWorker | None:
    """The worker of run `run_id`, or None when the instance does not know the run."""
    record = instance.get_run_record_by_id(run_id)
    if record is None:
        return None
    run = record.dagster_run
    on_this_host = run.tags.get(HOST_TAG, socket.gethostname()) == socket.gethostname()
    pid = _tagged_pid(run.tags.get(PID_TAG)) or _recorded_pid(instance, run_id)
    started = record.start_time or record.create_timestamp.timestamp()
    alive = (not on_this_host) or pid is None or _alive(pid, started_at=started)
    return RunWorker(run_id, run.job_name, pid, on_this_host, alive)


def reclaim_dead_runs(instance: dg.DagsterInstance, *, exclude: Iterable[str] = ()) -> list[str]:
    """Mark every unfinished run of this host whose worker is gone as failed, and free the pool slots of those
    runs and of finished runs that still hold some.

    Args:
        exclude: run ids never touched (the caller's own run).

    Returns:
        One line per run reclaimed, saying what was done and why.
    """
    excluded = set(exclude)
    unfinished = {record.dagster_run.run_id for record in instance.get_run_records(dg.RunsFilter(statuses=UNFINISHED))}
    holding = set(instance.event_log_storage.get_concurrency_run_ids())
    said = []
    for run_id in sorted((unfinished | holding) - excluded):
        worker = run_worker(instance, run_id)
        if worker is None:  # slots of a run the instance no longer knows (deleted): nobody can free them otherwise
            instance.event_log_storage.free_concurrency_slots_for_run(run_id)
            said.append(f"freed the pool slots of run {run_id}, which this instance no longer knows")
            continue
        if run_id in unfinished and worker.alive:
            continue
        if run_id in unfinished:
            run = instance.get_run_by_id(run_id)
            instance.report_run_failed(
                run, message=f"Marked failed by `recon run`: its process (pid {worker.pid}) is gone (killed, or the machine stopped)."
            )
            instance.event_log_storage.free_concurrency_slots_for_run(run_id)
            said.append(f"run {run_id} ({worker.job_name}) was left unfinished by a process that is gone (pid {worker.pid}): "
                        "marked FAILURE and freed its pool slots")
        else:
            instance.event_log_storage.free_concurrency_slots_for_run(run_id)
            said.append(f"run {run_id} ({worker.job_name}) had ended holding pool slots: freed them")
    return said


def pool_holders(instance: dg.DagsterInstance, pool: str = POOL, *, exclude: Iterable[str] = ()) -> list[RunWorker]:
    """The workers of the runs holding slots of `pool` (or assigned one), other than `exclude`."""
    info = instance.event_log_storage.get_concurrency_info(pool)
    run_ids = ({slot.run_id for slot in info.claimed_slots} | info.assigned_run_ids) - set(exclude)
    workers = [run_worker(instance, run_id) for run_id in sorted(run_ids)]
    return [worker for worker in workers if worker is not None]


def wait_for_pool(
    instance: dg.DagsterInstance,
    *,
    timeout_seconds: float,
    say: Callable[[str], None],
    pool: str = POOL,
    exclude: Iterable[str] = (),
    poll_seconds: float = 2.0,
) -> None:
    """Return once no other run holds `pool`, reclaiming dead holders on the way; say what it waits for.

    Raises:
        PoolWaitTimeout: a live run still holds the pool after `timeout_seconds`.
    """
    deadline = time.monotonic() + timeout_seconds
    waiting_for: str | None = None
    while True:
        for line in reclaim_dead_runs(instance, exclude=exclude):
            say(line)
        holders = pool_holders(instance, pool, exclude=exclude)
        if not holders:
            return
        described = "; ".join(holder.describe() for holder in holders)
        if described != waiting_for:
            say(f"waiting up to {timeout_seconds:.0f}s for pool '{pool}' (one DuckDB writer at a time), held by {described}")
            waiting_for = described
        if time.monotonic() >= deadline:
            raise PoolWaitTimeout(
                f"gave up after {timeout_seconds:.0f}s waiting for pool '{pool}', held by {described}: let that run finish "
                f"(or stop it) and run again; RECON_POOL_WAIT_SECONDS sets how long to wait"
            )
        time.sleep(poll_seconds)


def _tagged_pid(value: str | None) -> int | None:
    return int(value) if value and value.isdigit() else None


def _recorded_pid(instance: dg.DagsterInstance, run_id: str) -> int | None:
    """The pid of the run's first engine event that records one (Dagster's `EngineEventData.in_process`)."""
    for entry in instance.all_logs(run_id, of_type=DagsterEventType.ENGINE_EVENT):
        metadata = entry.dagster_event.engine_event_data.metadata if entry.dagster_event else {}
        pid = metadata.get("pid")
        if pid is not None and str(pid.value).isdigit():
            return int(pid.value)
    return None


def _alive(pid: int, *, started_at: float) -> bool:
    """A process `pid` exists, is not a zombie, and was created before the run started (else the pid was reused)."""
    try:
        process = psutil.Process(pid)
        if process.status() == psutil.STATUS_ZOMBIE:
            return False
        return process.create_time() <= started_at + _CREATE_TIME_SLACK_SECONDS
    except (psutil.NoSuchProcess, psutil.ZombieProcess):
        return False
    except psutil.AccessDenied:  # exists, owned by someone else: alive
        return True



class PoolWatchdog:
    """While run `run_id` executes, watch its steps waiting for `pool`: reclaim dead holders, say what it waits
    for, and after `timeout_seconds` give up: the run is marked failed, its pending claims freed, and `give_up` is
    called with the message (`recon run` exits there: Dagster's in-process executor cannot be interrupted while it
    waits for a slot). Use as a context manager around the execution."""

    def __init__(
        self, instance: dg.DagsterInstance, run_id: str, *, timeout_seconds: float, say: Callable[[str], None],
        give_up: Callable[[str], None], pool: str = POOL, poll_seconds: float = 2.0,
    ) -> None:
        self._instance, self._run_id, self._pool = instance, run_id, pool
        self._timeout, self._say, self._give_up, self._poll = timeout_seconds, say, give_up, poll_seconds
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name=f"pool-watchdog-{run_id}", daemon=True)

    def __enter__(self) -> PoolWatchdog:
        self._thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._stop.set()
        self._thread.join()

    def _watch(self) -> None:
        waiting_since: float | None = None
        said: str | None = None
        while not self._stop.wait(self._poll):
            info = self._instance.event_log_storage.get_concurrency_info(self._pool)
            if self._run_id not in info.pending_run_ids:
                waiting_since, said = None, None
                continue
            waiting_since = waiting_since or time.monotonic()
            for line in reclaim_dead_runs(self._instance, exclude=[self._run_id]):
                self._say(line)
            holders = "; ".join(holder.describe() for holder in pool_holders(self._instance, self._pool, exclude=[self._run_id]))
            if holders and holders != said:
                self._say(f"waiting up to {self._timeout:.0f}s for pool '{self._pool}' (one DuckDB writer at a time), held by {holders}")
                said = holders
            if time.monotonic() - waiting_since >= self._timeout:
                message = (
                    f"gave up after {self._timeout:.0f}s waiting for pool '{self._pool}', held by {holders or 'no run (Dagster did not assign it)'}: "
                    "let that run finish (or stop it) and run again; RECON_POOL_WAIT_SECONDS sets how long to wait"
                )
                run = self._instance.get_run_by_id(self._run_id)
                self._instance.report_run_failed(run, message=message)
                self._instance.event_log_storage.free_concurrency_slots_for_run(self._run_id)
                self._give_up(message)
                return
