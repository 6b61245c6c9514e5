"""A run whose run worker is gone must not block later runs: fail it and free its `duckdb` pool slots; wait for a
live holder of the pool a bounded time only.

Every step that writes DuckDB is in pool `duckdb` (limit 1, dagster.yaml). Dagster's run monitoring fails a run whose
worker crashed only through `RunLauncher.check_run_worker_health`, which the DefaultRunLauncher of a local instance
does not support (`supports_check_run_worker_health` is False; "Using run monitoring requires a run launcher other than
the DefaultRunLauncher" for crash detection: https://docs.dagster.io/deployment/execution/run-monitoring). Its code
server fails a run whose worker process exits while the server lives, but a worker killed with its code server (`kill
-9` of both, the OOM killer, a power cut) leaves its run STARTED for ever; and a run failed either way keeps the pool
slots its steps claimed until the daemon frees them (`free_slots_after_run_end_seconds`), which `recon run` alone does
not start. So `recon run` does both here, through the instance: `DagsterInstance.report_run_failed`, then
`event_log_storage.free_concurrency_slots_for_run` (what the UI's "free slots" does).

A run's worker is the process Dagster records in the run's first engine event ("Started process for run (pid: N)");
it is alive when a process with that pid exists, is not a zombie and was created before the run started (a reused pid
is not the run's worker). A run of another host (`recon/host` tag), or whose pid Dagster never recorded, is left alone.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Iterable

import dagster as dg
import psutil

from recon_assets.shared.run_tags import HOST_TAG

POOL = "duckdb"
# Not finished, and past STARTING: a run in one of these states has a worker whose pid Dagster recorded.
RUNNING = [dg.DagsterRunStatus.STARTED, dg.DagsterRunStatus.CANCELING]
# A process created up to this many seconds after its run's start time is still taken for the run's worker:
# the worker stamps the start time itself, so the two differ by clock resolution only.
_CREATE_TIME_SLACK_SECONDS = 2.0
# How long `stop_worker` waits for the processes it killed to end.
STOP_WAIT_SECONDS = 10.0


class PoolWaitTimeout(RuntimeError):
    """A live run held the pool longer than `recon run` may wait; the message names the run and its job."""


def host_tags() -> dict[str, str]:
    """The tag telling a later `recon run` on which machine a run's worker runs."""
    return {HOST_TAG: socket.gethostname()}


def worker_pid(instance: dg.DagsterInstance, run_id: str) -> int | None:
    """The pid of run `run_id`'s worker, from the first engine event recording one (None before the worker starts)."""
    for entry in instance.all_logs(run_id, of_type=dg.DagsterEventType.ENGINE_EVENT):
        pid = entry.dagster_event.engine_event_data.metadata.get("pid") if entry.dagster_event else None
        if pid is not None and str(pid.value).isdigit():
            return int(pid.value)
    return None


def worker_gone(instance: dg.DagsterInstance, run: dg.DagsterRun) -> str | None:
    """Why `run`'s worker is gone ('its run worker (pid 123) is gone'), else None: alive, not started yet, on
    another host, or never recorded. A run launcher that checks its workers' health (Dagster's run monitoring: the
    Docker, Kubernetes and ECS launchers) is asked; the DefaultRunLauncher is not able to say, so the recorded pid is
    looked up."""
    launcher = instance.run_launcher
    if launcher.supports_check_run_worker_health:
        health = launcher.check_run_worker_health(run)
        return None if health.status.value in ("RUNNING", "SUCCESS", "UNKNOWN") else f"its run worker is {health.status.value} ({health.msg})"
    recorded = _recorded_worker(instance, run)
    if recorded is None:
        return None
    pid, started = recorded
    return None if _alive(pid, started_at=started) else f"its run worker (pid {pid}) is gone"


def stop_worker(instance: dg.DagsterInstance, run: dg.DagsterRun) -> int | None:
    """Kill (SIGKILL) `run`'s worker and the processes it started (its steps'), when it is alive on this host; its pid,
    else None. For a worker that did not end its run when asked to (stopped, hung): its run is then marked ended, and
    no process of it may go on writing."""
    recorded = _recorded_worker(instance, run)
    if recorded is None or not _alive(recorded[0], started_at=recorded[1]):
        return None
    pid = recorded[0]
    try:
        worker = psutil.Process(pid)
        processes = [*worker.children(recursive=True), worker]
    except psutil.NoSuchProcess:
        return None
    for process in processes:
        try:
            process.kill()
        except psutil.NoSuchProcess:
            pass
    # Waited for until each has ended: gone, or a zombie. The worker is its code server's child, not this process's: a
    # killed worker stays a zombie until the code server reaps it, which a code server blocked on that worker does not
    # do; psutil.wait_procs takes a zombie that is not its caller's child for alive, and waited its whole 10 s.
    deadline = time.monotonic() + STOP_WAIT_SECONDS
    while any(_running(process) for process in processes) and time.monotonic() < deadline:
        time.sleep(0.05)
    return pid


def _recorded_worker(instance: dg.DagsterInstance, run: dg.DagsterRun) -> tuple[int, float] | None:
    """(pid, run start time in seconds since the epoch) of `run`'s worker as Dagster recorded it, when it runs on this
    host; None when on another host (`recon/host` tag) or not recorded (yet)."""
    if run.tags.get(HOST_TAG, socket.gethostname()) != socket.gethostname():
        return None
    record = instance.get_run_record_by_id(run.run_id)
    pid = worker_pid(instance, run.run_id)
    if record is None or pid is None:
        return None
    return pid, record.start_time or record.create_timestamp.timestamp()


def fail_lost_run(instance: dg.DagsterInstance, run: dg.DagsterRun, why: str) -> str | None:
    """Mark `run` FAILURE because of `why` (`worker_gone`) and free its pool slots; the line saying so. None when the
    run has ended meanwhile (a worker that ended its run, then exited, is not lost)."""
    if instance.get_run_by_id(run.run_id).is_finished:
        return None
    instance.report_run_failed(run, message=f"Marked failed by `recon run`: {why}.")
    instance.event_log_storage.free_concurrency_slots_for_run(run.run_id)
    return f"run {run.run_id} ({run.job_name}) was left unfinished: {why}; marked FAILURE and freed its pool slots"


def reclaim_lost_runs(instance: dg.DagsterInstance, *, exclude: Iterable[str] = ()) -> list[str]:
    """Fail every running run of this host whose worker is gone, and free the pool slots of runs that ended holding
    some (a worker failed by its code server, or by `fail_lost_run`, keeps its steps' claims).

    Args:
        exclude: run ids never touched.

    Returns:
        One line per run reclaimed, saying what was done and why.
    """
    excluded = set(exclude)
    said = []
    for run in instance.get_runs(dg.RunsFilter(statuses=RUNNING)):
        if run.run_id not in excluded and (why := worker_gone(instance, run)) and (line := fail_lost_run(instance, run, why)):
            said.append(line)
    for run_id in sorted(set(instance.event_log_storage.get_concurrency_run_ids()) - excluded):
        run = instance.get_run_by_id(run_id)
        if run is None or run.is_finished:
            instance.event_log_storage.free_concurrency_slots_for_run(run_id)
            said.append(f"run {run_id} ({run.job_name if run else 'no longer on this instance'}) had ended holding pool slots: freed them")
    return said


def pool_holders(instance: dg.DagsterInstance, pool: str = POOL, *, exclude: Iterable[str] = ()) -> list[str]:
    """'run <id> (<job>)' for each run holding a slot of `pool` (or assigned one), other than `exclude`."""
    info = instance.event_log_storage.get_concurrency_info(pool)
    run_ids = ({slot.run_id for slot in info.claimed_slots} | info.assigned_run_ids) - set(exclude)
    runs = [instance.get_run_by_id(run_id) for run_id in sorted(run_ids)]
    return [f"run {run.run_id} ({run.job_name})" for run in runs if run is not None]


def wait_for_pool(
    instance: dg.DagsterInstance, *, timeout_seconds: float, say: Callable[[str], None], pool: str = POOL,
    poll_seconds: float = 2.0,
) -> None:
    """Return once no run holds `pool`, reclaiming lost runs on the way; say what it waits for.

    Raises:
        PoolWaitTimeout: a live run still holds the pool after `timeout_seconds`.
    """
    deadline = time.monotonic() + timeout_seconds
    waiting_for: str | None = None
    while True:
        for line in reclaim_lost_runs(instance):
            say(line)
        described = "; ".join(pool_holders(instance, pool))
        if not described:
            return
        if described != waiting_for:
            say(f"waiting up to {timeout_seconds:.0f}s for pool '{pool}' (one DuckDB writer at a time), held by {described}")
            waiting_for = described
        if time.monotonic() >= deadline:
            raise PoolWaitTimeout(
                f"gave up after {timeout_seconds:.0f}s waiting for pool '{pool}', held by {described}: let that run finish "
                f"(or stop it) and run again; RECON_POOL_WAIT_SECONDS sets how long to wait"
            )
        time.sleep(poll_seconds)


def _running(process: psutil.Process) -> bool:
    """`process` has not ended: it exists and is no zombie (a zombie has ended; only its exit status is left to reap)."""
    try:
        return process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


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
