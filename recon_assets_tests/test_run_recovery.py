"""Issue 14: a killed run wedged the instance. `recon run & sleep 12; kill -9 $!`, then `recon run --db other.duckdb`
with the same DAGSTER_HOME spun for ever: the dead run kept the `duckdb` pool slot. Now a run whose process is gone is
marked failed and its slot freed, and a live holder is waited for a bounded time, saying what it waits for.

The first test does it for real: a `recon run` subprocess on the shipped sample, SIGKILLed while it holds the pool
slot, then a second `recon run` that must finish. The others build the instance's state directly (a run record, a
claimed slot) with Dagster's own storage API and real processes for the pids."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import dagster as dg
import pytest
from dagster._core.instance.ref import InstanceRef
from dagster._core.storage.dagster_run import DagsterRun
from dagster._core.utils import make_new_run_id

from recon_assets.cli.instance_health import HOST_TAG, PID_TAG, POOL, pool_holders, reclaim_dead_runs, wait_for_pool
from recon_assets.cli.run import INSTANCE_SETTINGS

from recon_assets_tests.pipeline_runs import AS_OF

# A guard, not a timed assertion: each `recon run` of the sample takes about 20 s here; without the fix the second
# one never ends and this turns the hang into a failure.
HANG_GUARD_SECONDS = 300


def _home(tmp_path: Path) -> Path:
    home = tmp_path / "dagster_home"
    home.mkdir()
    shutil.copy(INSTANCE_SETTINGS, home / "dagster.yaml")
    return home


def _env(home: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "DAGSTER_HOME": str(home), "RECON_KG_PATH": "", "RECON_AS_OF": "", **extra}


def _recon_run(database: Path, env: dict[str, str], **popen) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "recon_assets.cli.main", "run", "--db", str(database), "--as-of", AS_OF],
        env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **popen,
    )


def _instance(home: Path) -> dg.DagsterInstance:
    return dg.DagsterInstance.from_ref(InstanceRef.from_dir(str(home)))


def test_a_killed_run_does_not_wedge_the_instance(tmp_path):
    home = _home(tmp_path)
    first = _recon_run(tmp_path / "first.duckdb", _env(home))
    instance = _instance(home)
    try:
        # Kill it while it holds the pool slot (the issue's `sleep 12` lands there; polling makes it certain).
        # The slot is read once and the run killed at once: a step ending in between frees it (a race seen under load).
        deadline = time.monotonic() + HANG_GUARD_SECONDS
        while not (claimed := instance.event_log_storage.get_concurrency_info(POOL).claimed_slots):
            assert first.poll() is None, "the first run ended before it could be killed"
            assert time.monotonic() < deadline
            time.sleep(0.2)
        first.send_signal(signal.SIGKILL)
        [slot] = claimed
        first.communicate()
        assert instance.get_run_by_id(slot.run_id).status == dg.DagsterRunStatus.STARTED  # left behind, slot held

        second = _recon_run(tmp_path / "other.duckdb", _env(home))
        out, err = second.communicate(timeout=HANG_GUARD_SECONDS)
    finally:
        for process in (first, locals().get("second")):
            if process is not None and process.poll() is None:
                process.kill()

    assert second.returncode == 0, err[-3000:]
    assert (
        f"recon: run {slot.run_id} ({instance.get_run_by_id(slot.run_id).job_name}) was left unfinished by a process "
        f"that is gone (pid {first.pid}): marked FAILURE and freed its pool slots"
    ) in out
    assert "asset checks passed: 8/8" in out
    assert instance.get_run_by_id(slot.run_id).status == dg.DagsterRunStatus.FAILURE
    assert not instance.event_log_storage.get_concurrency_info(POOL).claimed_slots


def _holding_run(instance: dg.DagsterInstance, *, pid: int | None, host: str | None = None, step: str = "kg_snapshot") -> str:
    """A STARTED run of this instance holding the duckdb slot for `step`, with `pid` (and `host`) tags."""
    run_id = make_new_run_id()
    tags = {PID_TAG: str(pid)} if pid is not None else {}
    if host is not None:
        tags[HOST_TAG] = host
    instance.add_run(DagsterRun(job_name="kg_tables_job", run_id=run_id, status=dg.DagsterRunStatus.STARTED, tags=tags))
    instance.event_log_storage.initialize_concurrency_limit_to_default(POOL)
    assert instance.event_log_storage.claim_concurrency_slot(POOL, run_id, step).is_claimed
    return run_id


@pytest.fixture
def instance(tmp_path):
    with dg.instance_for_test(temp_dir=str(tmp_path), overrides={"concurrency": {"pools": {"default_limit": 1}}}) as instance:
        yield instance


def _gone_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def test_a_holder_whose_process_is_gone_is_marked_failed_and_its_slot_freed(instance):
    run_id = _holding_run(instance, pid=_gone_pid(), host=socket.gethostname())
    said = reclaim_dead_runs(instance)
    assert len(said) == 1 and said[0].startswith(f"run {run_id} (kg_tables_job) was left unfinished by a process that is gone")
    assert instance.get_run_by_id(run_id).status == dg.DagsterRunStatus.FAILURE
    assert pool_holders(instance) == []


def test_a_reused_pid_is_not_taken_for_the_run_worker(instance):
    """The run's pid now belongs to a process created after the run started: the run's own worker is gone."""
    run_id = _holding_run(instance, pid=None)
    time.sleep(4)  # the process below must be created measurably after the run (slack 2 s; psutil create times are ~1 s coarse)
    later = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        run = instance.get_run_by_id(run_id)
        instance.add_run_tags(run_id, {PID_TAG: str(later.pid)})
        assert reclaim_dead_runs(instance) != []
        assert instance.get_run_by_id(run_id).status == dg.DagsterRunStatus.FAILURE
    finally:
        later.communicate("")
    assert run.status == dg.DagsterRunStatus.STARTED


@pytest.mark.parametrize(
    ("pid", "host"),
    [pytest.param(None, None, id="pid-never-recorded"), pytest.param("gone", "another-host.example", id="another-host")],
)
def test_a_run_whose_worker_cannot_be_judged_here_is_left_alone(instance, pid, host):
    run_id = _holding_run(instance, pid=_gone_pid() if pid == "gone" else None, host=host)
    assert reclaim_dead_runs(instance) == []
    assert instance.get_run_by_id(run_id).status == dg.DagsterRunStatus.STARTED
    assert [holder.run_id for holder in pool_holders(instance)] == [run_id]


def test_a_run_that_ended_holding_a_slot_has_it_freed(instance):
    run_id = _holding_run(instance, pid=os.getpid(), host=socket.gethostname())
    instance.report_run_failed(instance.get_run_by_id(run_id))
    assert reclaim_dead_runs(instance) == [f"run {run_id} (kg_tables_job) had ended holding pool slots: freed them"]
    assert pool_holders(instance) == []


def test_waiting_for_a_live_holder_says_what_it_waits_for_and_gives_up(instance):
    from recon_assets.cli.instance_health import PoolWaitTimeout

    run_id = _holding_run(instance, pid=os.getpid(), host=socket.gethostname())
    said: list[str] = []
    with pytest.raises(PoolWaitTimeout) as raised:
        wait_for_pool(instance, timeout_seconds=0.5, poll_seconds=0.1, say=said.append)
    holder = f"run {run_id} (kg_tables_job, pid {os.getpid()}, alive)"
    assert said == [f"waiting up to 0s for pool 'duckdb' (one DuckDB writer at a time), held by {holder}"]
    assert str(raised.value).startswith(f"gave up after 0s waiting for pool 'duckdb', held by {holder}")
    assert instance.get_run_by_id(run_id).status == dg.DagsterRunStatus.STARTED


def test_recon_run_gives_up_on_a_live_holder_with_a_clear_error(tmp_path):
    home = _home(tmp_path)
    holder = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        with _instance(home) as instance:
            run_id = _holding_run(instance, pid=holder.pid, host=socket.gethostname())
        run = _recon_run(tmp_path / "r.duckdb", _env(home, RECON_POOL_WAIT_SECONDS="3"))
        out, err = run.communicate(timeout=HANG_GUARD_SECONDS)
    finally:
        holder.communicate("")
    described = f"run {run_id} (kg_tables_job, pid {holder.pid}, alive)"
    assert run.returncode == 1
    assert f"recon: waiting up to 3s for pool 'duckdb' (one DuckDB writer at a time), held by {described}" in out
    assert err.strip().splitlines()[-1] == (
        f"error: gave up after 3s waiting for pool 'duckdb', held by {described}: let that run finish (or stop it) "
        "and run again; RECON_POOL_WAIT_SECONDS sets how long to wait"
    )


def test_a_bad_pool_wait_setting_is_refused_before_anything_runs(tmp_path):
    home = _home(tmp_path)
    run = _recon_run(tmp_path / "r.duckdb", _env(home, RECON_POOL_WAIT_SECONDS="forever"))
    out, err = run.communicate(timeout=120)
    assert run.returncode == 2
    assert err == "error: RECON_POOL_WAIT_SECONDS must be a positive number of seconds, got 'forever'\n"


def test_a_database_another_run_is_writing_is_named_by_its_lock_not_duckdbs_error(tmp_path):
    """Hostile finding: with a step of another run writing the file, `recon run`'s pre-check opened the DuckDB file
    before taking the lock and printed DuckDB's own "Could not set lock" error; the lock is now taken first."""
    database = tmp_path / "r.duckdb"
    writer = (
        "import sys, duckdb; from recon_assets.shared.paths import database_lock; "
        f"lock = database_lock({str(database)!r}); lock.acquire(); con = duckdb.connect({str(database)!r}); "
        "print('writing', flush=True); sys.stdin.read()"
    )
    holder = subprocess.Popen([sys.executable, "-c", writer], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "writing\n"
        run = _recon_run(database, _env(_home(tmp_path)))
        out, err = run.communicate(timeout=120)
    finally:
        holder.communicate("")
    assert run.returncode == 2
    assert err == (
        f"error: another run (`recon run` or one from the UI) is writing {database} (lock {database}.lock); wait for it to finish\n"
    )


@pytest.mark.parametrize(
    ("where", "error"),
    [
        ("lock-is-a-folder", "error: cannot create the lock file {database}.lock beside --db (Is a directory): give --db in a folder this user can "
         "write (DuckDB writes its .wal file there too)\n"),
        ("folder-under-a-file", "error: cannot create the folder of --db {database.parent}: Not a directory\n"),
    ],
    ids=["lock-is-a-folder", "folder-under-a-file"],
)
def test_a_database_whose_lock_or_folder_cannot_be_made_is_refused_in_one_line(tmp_path, where, error):
    """Hostile finding: since the lock is taken before DuckDB opens the file, a lock file that cannot be created (a
    read-only folder or file system: EROFS, EACCES; here a folder in its place, which fails for root too) ended
    `recon run` in filelock's traceback, as did a --db folder that cannot be created."""
    if where == "lock-is-a-folder":
        database = tmp_path / "r.duckdb"
        (tmp_path / "r.duckdb.lock").mkdir()
    else:
        (tmp_path / "a_file").touch()
        database = tmp_path / "a_file" / "sub" / "r.duckdb"
    run = _recon_run(database, _env(_home(tmp_path)))
    out, err = run.communicate(timeout=120)
    assert run.returncode == 2
    assert err == error.format(database=database)


def test_the_watchdog_bounds_dagsters_own_wait_for_a_slot(instance):
    """Dagster's in-process executor polls for a slot without a bound and ignores SIGINT: the watchdog says what
    the run waits for, reclaims dead holders, and after the bound marks the run failed and gives up."""
    from recon_assets.cli.instance_health import PoolWatchdog

    holder = _holding_run(instance, pid=os.getpid(), host=socket.gethostname())
    waiting = make_new_run_id()
    instance.add_run(DagsterRun(job_name="openalex_refresh_job", run_id=waiting, status=dg.DagsterRunStatus.STARTED))
    assert not instance.event_log_storage.claim_concurrency_slot(POOL, waiting, "openalex_works").is_claimed
    said, gave_up = [], []
    with PoolWatchdog(instance, waiting, timeout_seconds=0.5, poll_seconds=0.1, say=said.append, give_up=gave_up.append):
        deadline = time.monotonic() + HANG_GUARD_SECONDS
        while not gave_up and time.monotonic() < deadline:
            time.sleep(0.1)
    described = f"run {holder} (kg_tables_job, pid {os.getpid()}, alive)"
    assert said == [f"waiting up to 0s for pool 'duckdb' (one DuckDB writer at a time), held by {described}"]
    assert gave_up == [
        f"gave up after 0s waiting for pool 'duckdb', held by {described}: let that run finish (or stop it) and run "
        "again; RECON_POOL_WAIT_SECONDS sets how long to wait"
    ]
    assert instance.get_run_by_id(waiting).status == dg.DagsterRunStatus.FAILURE
    assert waiting not in instance.event_log_storage.get_concurrency_info(POOL).pending_run_ids


def test_the_watchdog_frees_the_slot_of_a_holder_that_dies_meanwhile(instance):
    holder = _holding_run(instance, pid=_gone_pid(), host=socket.gethostname())
    waiting = make_new_run_id()
    instance.add_run(DagsterRun(job_name="openalex_refresh_job", run_id=waiting, status=dg.DagsterRunStatus.STARTED))
    assert not instance.event_log_storage.claim_concurrency_slot(POOL, waiting, "openalex_works").is_claimed
    from recon_assets.cli.instance_health import PoolWatchdog

    said, gave_up = [], []
    with PoolWatchdog(instance, waiting, timeout_seconds=60, poll_seconds=0.1, say=said.append, give_up=gave_up.append):
        deadline = time.monotonic() + HANG_GUARD_SECONDS
        while not said and time.monotonic() < deadline:
            time.sleep(0.1)
    assert said[0].startswith(f"run {holder} (kg_tables_job) was left unfinished by a process that is gone")
    assert gave_up == [] and instance.get_run_by_id(holder).status == dg.DagsterRunStatus.FAILURE
    # Dagster assigns the freed slot to the waiting step, which claims it on its next poll.
    assert instance.event_log_storage.claim_concurrency_slot(POOL, waiting, "openalex_works").is_claimed
