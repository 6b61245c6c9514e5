"""Issue 14: a killed run wedged the instance (`recon run & sleep 12; kill -9 $!`, then another `recon run` with the
same DAGSTER_HOME spun for ever: the dead run kept the `duckdb` pool slot). Issue 23: `recon run` launches its runs
through the code location, so a run's worker is a process of its own, failed by its code server when it dies; a run
whose worker died with its code server is failed by `recon run`, which frees the slots a failed run's steps kept.

The first test does it for real, on the shipped sample: a run worker killed under a live `recon run`, then a run left
STARTED by a `recon run` killed with its code server and worker, then a `recon run` that must finish. The others build
the instance's state directly (a run record, its worker's engine event, a claimed slot) with Dagster's storage API and
real processes for the pids."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import dagster as dg
import psutil
import pytest
from dagster._core.events import EngineEventData

from recon_assets.cli.instance_health import POOL, pool_holders, reclaim_lost_runs, wait_for_pool, worker_pid
from recon_assets.cli.launched_runs import INSTANCE_SETTINGS, CodeServer
from recon_assets.shared.run_tags import HOST_TAG

from recon_assets_tests.pipeline_runs import AS_OF
from recon_assets_tests.tiny_kg import TINY_KG

# A guard, not a timed assertion: each `recon run` of the sample takes a few minutes on 2 loaded cores; a run that
# never ends (the wedge) turns into a failure here.
HANG_GUARD_SECONDS = 900


def _home(tmp_path: Path) -> Path:
    home = tmp_path / "dagster_home"
    home.mkdir()
    shutil.copy(INSTANCE_SETTINGS, home / "dagster.yaml")
    return home


def _env(home: Path, **extra: str) -> dict[str, str]:
    """The environment of a `recon` these tests run, in a process of its own or, set with monkeypatch, in the test's:
    RECON_DB_PATH is named (empty: --db decides) so that monkeypatch undoes the `recon run --db` that sets it."""
    return {**os.environ, "DAGSTER_HOME": str(home), "RECON_KG_PATH": "", "RECON_AS_OF": "", "RECON_DB_PATH": "", **extra}


def sigint_as_at_a_terminal() -> None:
    """What a `recon` these tests start runs before it starts (`preexec_fn`): SIGINT back to its default, as a command
    run in the foreground of a terminal has it, so that the tests' Ctrl-C (SIGINT) reaches it. A test run started in
    the background by a script (`pytest ... &`, nohup: no job control) has SIGINT ignored, inherited by every process it
    starts, and Python keeps an inherited ignored SIGINT: the tests' Ctrl-C was then lost (a `recon run` finished its
    runs and exited 0, a `recon ask` held by the test waited for ever)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _recon_run(database: Path, env: dict[str, str], **popen) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "recon_assets.cli.main", "run", "--db", str(database), "--as-of", AS_OF],
        env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=sigint_as_at_a_terminal, **popen,
    )


def _refused(database: Path, home: Path, capsys, monkeypatch, **extra: str) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of `recon run --db database --as-of AS_OF` refused in this process (`main`, as
    `_recon_run` runs it in a process of its own: test_rerun.recon_refusal; a run reached fails the test)."""
    from recon_assets_tests.test_rerun import recon_refusal

    variables = {"DAGSTER_HOME": str(home), "RECON_KG_PATH": "", "RECON_AS_OF": "", **extra}
    return recon_refusal(["--db", str(database), "--as-of", AS_OF], variables, capsys, monkeypatch)


def _refused_while_held(holding: str, database: Path, tmp_path: Path, capsys, monkeypatch) -> tuple[int, str, str]:
    """`_refused` while another process runs the Python statements `holding` (taking a lock) and waits."""
    holder = subprocess.Popen(
        [sys.executable, "-c", f"import sys; {holding}; print('held', flush=True); sys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout.readline() == "held\n"
        return _refused(database, _home(tmp_path), capsys, monkeypatch)
    finally:
        holder.communicate("")


def _instance(home: Path) -> dg.DagsterInstance:
    return dg.DagsterInstance.from_config(str(home))


def _holder_with_worker(instance: dg.DagsterInstance, recon: subprocess.Popen) -> tuple[str, int]:
    """(run id, worker pid) of the run holding the duckdb slot, once its worker is known (`recon` must not end first)."""
    deadline = time.monotonic() + HANG_GUARD_SECONDS
    while True:
        assert recon.poll() is None, "`recon run` ended before its run could be killed"
        assert time.monotonic() < deadline
        for slot in instance.event_log_storage.get_concurrency_info(POOL).claimed_slots:
            pid = worker_pid(instance, slot.run_id)
            if pid is not None:
                return slot.run_id, pid
        time.sleep(0.2)


def _code_servers(run: dg.DagsterRun) -> list[psutil.Process]:
    """The code server processes serving `run` (their command line names its gRPC socket)."""
    socket_path = json.loads(run.tags[".dagster/grpc_info"])["socket"]
    return [process for process in psutil.process_iter(["cmdline"]) if socket_path in " ".join(process.info["cmdline"] or [])]


def test_a_lost_run_worker_is_failed_in_one_line_and_never_wedges_the_next_run(tmp_path):
    """On the tiny KG (`tiny_kg`): what is tested is the process handling, not the science; the third run still
    passes every asset check."""
    home = _home(tmp_path)
    tiny = {"RECON_KG_PATH": str(TINY_KG)}
    instance = _instance(home)
    processes: list[subprocess.Popen] = []
    try:
        # 1. The run worker is killed under a live `recon run`: the run fails (its code server sees the worker exit),
        # `recon run` says so in one line naming the run and frees the slot.
        first = _recon_run(tmp_path / "first.duckdb", _env(home, **tiny))
        processes.append(first)
        run_id, pid = _holder_with_worker(instance, first)
        os.kill(pid, signal.SIGKILL)
        out, err = first.communicate(timeout=HANG_GUARD_SECONDS)
        assert first.returncode == 1, err[-3000:]
        # Issue 24: the one line names the cause, the run, and that the next run is not affected.
        # the cause is the code server's record of the signal, or, when recon run looks first, the worker found gone
        causes = ("its run worker process was killed by signal 9 (SIGKILL)", f"its run worker (pid {pid}) is gone")
        assert err.strip().splitlines()[-1] in {
            f"error: [kg_tables_job] run worker lost: {cause}; the run is marked FAILURE and its pool slots are freed, so "
            "the next `recon run` is not affected "
            f"(run {run_id}: its full logs with `recon run --verbose`, or in `dagster dev` with DAGSTER_HOME={home})"
            for cause in causes
        }, err[-3000:]
        assert instance.get_run_by_id(run_id).status == dg.DagsterRunStatus.FAILURE
        assert not instance.event_log_storage.get_concurrency_info(POOL).claimed_slots

        # 2. `recon run`, its code server and its run worker all killed (a power cut): the run stays STARTED and holds
        # its slot, with nobody left to fail it.
        second = _recon_run(tmp_path / "second.duckdb", _env(home, **tiny))
        processes.append(second)
        lost, lost_pid = _holder_with_worker(instance, second)
        second.kill()
        second.communicate()
        for server in _code_servers(instance.get_run_by_id(lost)):
            server.kill()
        os.kill(lost_pid, signal.SIGKILL)
        assert instance.get_run_by_id(lost).status == dg.DagsterRunStatus.STARTED

        # 3. The next `recon run` fails that run before it launches, in one line, and finishes.
        third = _recon_run(tmp_path / "third.duckdb", _env(home, **tiny))
        processes.append(third)
        out, err = third.communicate(timeout=HANG_GUARD_SECONDS)
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
    assert third.returncode == 0, err[-3000:]
    job = instance.get_run_by_id(lost).job_name
    assert (f"recon: run {lost} ({job}) was left unfinished: its run worker (pid {lost_pid}) is gone; marked FAILURE and "
            "freed its pool slots") in out.splitlines()
    assert "asset checks passed: 8/8" in out
    assert instance.get_run_by_id(lost).status == dg.DagsterRunStatus.FAILURE
    assert not instance.event_log_storage.get_concurrency_info(POOL).claimed_slots
    # Issue 23: the runs were launched through the code location, as the UI launches them: each job's page lists them.
    servers = set()
    for job_name in ("kg_tables_job", "openalex_refresh_job", "reliability_evaluation_job"):
        [latest] = instance.get_runs(dg.RunsFilter(job_name=job_name, statuses=[dg.DagsterRunStatus.SUCCESS]), limit=1)
        assert latest.remote_job_origin is not None
        assert latest.remote_job_origin.repository_origin.code_location_origin.location_name == "recon_assets"
        assert latest.tags["dagster/code_location"] == "recon_assets" and latest.tags["recon/as_of"] == AS_OF
        assert f"(run {latest.run_id})" in out
        servers.add(json.loads(latest.tags[".dagster/grpc_info"])["socket"])
        # and the code server `recon run` started for them stopped with it (launched_runs.CodeServer)
        assert not _code_servers(latest)
    # Issue 23 (suite time): one code server served the three runs of a `recon run`, not one per launch
    assert len(servers) == 1, servers


def _holding_run(instance: dg.DagsterInstance, *, pid: int | None, host: str | None = None, step: str = "kg_snapshot") -> str:
    """A STARTED run of this instance holding the duckdb slot for `step`, its worker `pid` recorded as Dagster records
    it (the run's engine event), on `host` (tag) when given."""
    run = dg.DagsterRun(job_name="kg_tables_job", run_id=str(uuid.uuid4()), status=dg.DagsterRunStatus.STARTED,
                        tags={HOST_TAG: host} if host is not None else {})
    instance.add_run(run)
    if pid is not None:
        instance.report_engine_event(f"Started process for run (pid: {pid}).", run, EngineEventData.in_process(pid))
    instance.event_log_storage.initialize_concurrency_limit_to_default(POOL)
    assert instance.event_log_storage.claim_concurrency_slot(POOL, run.run_id, step).is_claimed
    return run.run_id


@pytest.fixture
def instance(tmp_path):
    with dg.instance_for_test(temp_dir=str(tmp_path), overrides={"concurrency": {"pools": {"default_limit": 1}}}) as instance:
        yield instance


def _gone_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def test_a_run_whose_worker_is_gone_is_failed_and_its_slot_freed(instance):
    pid = _gone_pid()
    run_id = _holding_run(instance, pid=pid, host=socket.gethostname())
    assert reclaim_lost_runs(instance) == [
        f"run {run_id} (kg_tables_job) was left unfinished: its run worker (pid {pid}) is gone; marked FAILURE and freed its pool slots"
    ]
    assert instance.get_run_by_id(run_id).status == dg.DagsterRunStatus.FAILURE
    assert pool_holders(instance) == []


def test_a_reused_pid_is_not_taken_for_the_run_worker(instance):
    """The run's pid now belongs to a process created after the run started: the run's own worker is gone."""
    run_id = _holding_run(instance, pid=None)
    time.sleep(4)  # the process below must be created measurably after the run (slack 2 s; psutil create times are ~1 s coarse)
    later = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        run = instance.get_run_by_id(run_id)
        instance.report_engine_event(f"Started process for run (pid: {later.pid}).", run, EngineEventData.in_process(later.pid))
        assert reclaim_lost_runs(instance) != []
        assert instance.get_run_by_id(run_id).status == dg.DagsterRunStatus.FAILURE
    finally:
        later.communicate("")


@pytest.mark.parametrize(
    ("pid", "host"),
    [pytest.param(None, None, id="pid-never-recorded"), pytest.param("gone", "another-host.example", id="another-host"),
     pytest.param("alive", None, id="alive")],
)
def test_a_run_whose_worker_cannot_be_judged_here_or_lives_is_left_alone(instance, pid, host):
    run_id = _holding_run(instance, pid={"gone": _gone_pid, "alive": os.getpid, None: lambda: None}[pid](), host=host)
    assert reclaim_lost_runs(instance) == []
    assert instance.get_run_by_id(run_id).status == dg.DagsterRunStatus.STARTED
    assert pool_holders(instance) == [f"run {run_id} (kg_tables_job)"]


def test_a_run_that_ended_holding_a_slot_has_it_freed(instance):
    """A run failed by its code server (its worker died) or by `report_run_failed` keeps its steps' claims."""
    run_id = _holding_run(instance, pid=os.getpid(), host=socket.gethostname())
    instance.report_run_failed(instance.get_run_by_id(run_id))
    assert [slot.run_id for slot in instance.event_log_storage.get_concurrency_info(POOL).claimed_slots] == [run_id]
    assert reclaim_lost_runs(instance) == [f"run {run_id} (kg_tables_job) had ended holding pool slots: freed them"]
    assert pool_holders(instance) == [] and not instance.event_log_storage.get_concurrency_info(POOL).claimed_slots


def test_a_stopped_worker_its_code_server_does_not_reap_is_waited_for_until_it_is_a_zombie_only(instance, monkeypatch):
    """Bug row (issue 23, suite time): `stop_worker` waited its whole 10 s for a worker it had killed whose parent, the
    code server, does not reap it (blocked on that worker: the Ctrl-C of a run that does not answer): psutil.wait_procs
    takes a zombie that is not its caller's child for alive. A zombie has ended: the wait stops there."""
    from recon_assets.cli import instance_health

    monkeypatch.setattr(instance_health, "STOP_WAIT_SECONDS", 60.0)
    # a code server that never reaps its worker: a process that starts one and sleeps
    server = subprocess.Popen(
        [sys.executable, "-c", "import subprocess, sys, time; worker = subprocess.Popen([sys.executable, '-c', "
         "'import time; time.sleep(600)']); print(worker.pid, flush=True); time.sleep(600)"],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        pid = int(server.stdout.readline())
        run_id = _holding_run(instance, pid=pid, host=socket.gethostname())
        started = time.monotonic()
        assert instance_health.stop_worker(instance, instance.get_run_by_id(run_id)) == pid
        assert time.monotonic() - started < 5  # not 10 s (psutil.wait_procs), nor STOP_WAIT_SECONDS (60 s here)
        assert psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    finally:
        server.kill()
        server.wait()


def test_waiting_for_a_live_holder_says_what_it_waits_for_and_gives_up(instance):
    from recon_assets.cli.instance_health import PoolWaitTimeout

    run_id = _holding_run(instance, pid=os.getpid(), host=socket.gethostname())
    said: list[str] = []
    with pytest.raises(PoolWaitTimeout) as raised:
        wait_for_pool(instance, timeout_seconds=0.5, poll_seconds=0.1, say=said.append)
    holder = f"run {run_id} (kg_tables_job)"
    assert said == [f"waiting up to 0s for pool 'duckdb' (one DuckDB writer at a time), held by {holder}"]
    assert str(raised.value).startswith(f"gave up after 0s waiting for pool 'duckdb', held by {holder}")
    assert instance.get_run_by_id(run_id).status == dg.DagsterRunStatus.STARTED


def test_recon_run_gives_up_on_a_live_holder_with_a_clear_error(tmp_path, capsys, monkeypatch):
    """`recon run` called in this process (`main`, as the console entry point calls it: no Python and Dagster start-up
    of a process of its own, issue 23); a run launched fails the test."""
    from recon_assets.cli import run as run_module
    from recon_assets.cli.main import main

    def launched(*_args, **_kwargs):
        raise AssertionError("a run was launched while a live run held the pool")

    monkeypatch.setattr(run_module, "launch", launched)
    home = _home(tmp_path)
    for name, value in _env(home, RECON_POOL_WAIT_SECONDS="1").items():
        monkeypatch.setenv(name, value)
    holder = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        with _instance(home) as instance:
            run_id = _holding_run(instance, pid=holder.pid, host=socket.gethostname())
        code = main(["run", "--db", str(tmp_path / "r.duckdb"), "--as-of", AS_OF])
    finally:
        holder.communicate("")
    out, err = capsys.readouterr()
    described = f"run {run_id} (kg_tables_job)"
    assert code == 1, err
    assert f"recon: waiting up to 1s for pool 'duckdb' (one DuckDB writer at a time), held by {described}" in out, err
    assert err.strip().splitlines()[-1] == (
        f"error: gave up after 1s waiting for pool 'duckdb', held by {described}: let that run finish (or stop it) "
        "and run again; RECON_POOL_WAIT_SECONDS sets how long to wait"
    )


def test_a_bad_pool_wait_setting_is_refused_before_anything_runs(tmp_path, capsys, monkeypatch):
    home = _home(tmp_path)
    code, out, err = _refused(tmp_path / "r.duckdb", home, capsys, monkeypatch, RECON_POOL_WAIT_SECONDS="forever")
    assert code == 2
    assert err == "error: RECON_POOL_WAIT_SECONDS must be a positive number of seconds, got 'forever'\n"


def test_another_programs_duckdb_file_is_refused_before_anything_is_written(tmp_path, capsys, monkeypatch):
    """Hostile pass (2026-12-04): `recon run --db` on another program's DuckDB file holding `edge_reliability(x)` and
    `publications(doi)` replaced that `publications` with recon's and wrote 14 tables, then failed on a BinderException.
    It is refused in one line, exit 2, and the file keeps its two tables and rows."""
    import duckdb

    database = tmp_path / "other.duckdb"
    with duckdb.connect(str(database)) as con:
        con.execute("CREATE TABLE edge_reliability (x INTEGER); CREATE TABLE publications (doi VARCHAR); "
                    "INSERT INTO publications VALUES ('10.1/theirs')")
    code, out, err = _refused(database, _home(tmp_path), capsys, monkeypatch)
    assert code == 2
    assert err.startswith(f"error: --db {database} holds tables named as recon_assets' own that recon_assets did not write "
                          "(edge_reliability (no recon_assets mark; 0 of its ") and len(err.splitlines()) == 1, err
    assert sorted(path.name for path in tmp_path.glob("other.*")) == ["other.duckdb"]  # no lock file left (hostile pass 27)
    with duckdb.connect(str(database), read_only=True) as con:
        assert con.execute("SELECT table_name FROM duckdb_tables() ORDER BY 1").fetchall() == [("edge_reliability",), ("publications",)]
        assert con.execute("SELECT * FROM publications").fetchall() == [("10.1/theirs",)]


def test_recon_run_called_in_the_test_process_with_env_leaves_recon_db_path_as_it_was(tmp_path, monkeypatch):
    """Bug row (2026-12-04): a test calling `recon run --db` through `main` in its own process, its environment set
    from `_env` with monkeypatch, left RECON_DB_PATH (which `recon run` sets to --db) set for every test after it in
    that process; `_env` names RECON_DB_PATH, so monkeypatch undoes it."""
    from recon_assets.cli.main import main

    before = os.environ.get("RECON_DB_PATH")
    with monkeypatch.context() as patched:
        for name, value in _env(_home(tmp_path), RECON_POOL_WAIT_SECONDS="forever").items():
            patched.setenv(name, value)
        assert main(["run", "--db", str(tmp_path / "r.duckdb"), "--as-of", AS_OF]) == 2  # refused after setting it
    assert os.environ.get("RECON_DB_PATH") == before


def test_a_database_another_run_is_writing_is_named_by_its_lock_not_duckdbs_error(tmp_path, capsys, monkeypatch):
    """Hostile finding: with a step of another run writing the file, `recon run`'s pre-check opened the DuckDB file
    before taking the lock and printed DuckDB's own "Could not set lock" error; the lock is now taken first."""
    database = tmp_path / "r.duckdb"
    writer = (
        "import duckdb; from recon_assets.shared.paths import database_lock; "
        f"lock = database_lock({str(database)!r}); lock.acquire(); con = duckdb.connect({str(database)!r})"
    )
    code, out, err = _refused_while_held(writer, database, tmp_path, capsys, monkeypatch)
    assert code == 2
    assert err == (
        f"error: another run (`recon run` or one from the UI) is writing {database} (lock {database}.lock); wait for it to finish\n"
    )


def test_a_second_recon_run_on_one_database_is_refused_while_the_first_runs(tmp_path, capsys, monkeypatch):
    """Hostile finding: the steps hold the database's lock only while connected, so a second `recon run` on the same
    --db started between two steps of the first ran too; one `recon run` now holds `<db>.recon-run.lock` from its
    checks to its summary (here held by another process, as a running `recon run` holds it)."""
    database = tmp_path / "r.duckdb"
    running = f"from recon_assets.shared.paths import recon_run_lock; lock = recon_run_lock({str(database)!r}); lock.acquire()"
    code, out, err = _refused_while_held(running, database, tmp_path, capsys, monkeypatch)
    assert code == 2
    assert err == f"error: another `recon run` is running on {database} (lock {database}.recon-run.lock); wait for it to finish\n"


@pytest.mark.parametrize(
    ("where", "error"),
    [
        ("lock-is-a-folder", "error: cannot create the lock file {database}.lock beside --db (Is a directory): give --db in a folder this user can "
         "write (DuckDB writes its .wal file there too)\n"),
        ("folder-under-a-file", "error: cannot create the folder of --db {database.parent}: Not a directory\n"),
    ],
    ids=["lock-is-a-folder", "folder-under-a-file"],
)
def test_a_database_whose_lock_or_folder_cannot_be_made_is_refused_in_one_line(tmp_path, where, error, capsys, monkeypatch):
    """Hostile finding: since the lock is taken before DuckDB opens the file, a lock file that cannot be created (a
    read-only folder or file system: EROFS, EACCES; here a folder in its place, which fails for root too) ended
    `recon run` in filelock's traceback, as did a --db folder that cannot be created."""
    if where == "lock-is-a-folder":
        database = tmp_path / "r.duckdb"
        (tmp_path / "r.duckdb.lock").mkdir()
    else:
        (tmp_path / "a_file").touch()
        database = tmp_path / "a_file" / "sub" / "r.duckdb"
    code, out, err = _refused(database, _home(tmp_path), capsys, monkeypatch)
    assert code == 2
    assert err == error.format(database=database)


def test_no_private_dagster_import_in_the_product():
    """Issue 23: the product uses Dagster's public API only (tests may use what Dagster's own docs use)."""
    package = Path(__file__).resolve().parents[1] / "recon_assets"
    private = [
        f"{path.relative_to(package.parent)}:{number}: {line.strip()}"
        for path in sorted(package.rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if re.match(r"\s*(from|import)\s+dagster\._", line)
    ]
    assert private == []


def test_a_code_server_in_a_folder_too_deep_for_a_socket_serves_from_tmp_and_cleans_up(tmp_path, monkeypatch):
    """Bug row (clean-clone CI with the tests' files in /dev/shm): a code server whose folder's path left its socket
    over the 108 bytes a Unix socket path may hold failed "Failed to bind to address"; its socket now goes to a folder
    of its own in /tmp, removed when the server is closed."""
    monkeypatch.setenv("DAGSTER_HOME", str(_home(tmp_path)))
    folder = tmp_path / ("deep" * 20) / "consoles"
    folder.mkdir(parents=True)
    assert len(os.fsencode(folder / "code_server.sock")) > CodeServer.SOCKET_PATH_MAX
    with CodeServer(folder) as server:
        server.workspace()
        socket_folder = server.socket.parent
        assert socket_folder.parent == Path("/tmp") and server.process.poll() is None
    assert not socket_folder.exists()


def test_the_code_server_of_a_killed_command_ends_by_itself(tmp_path):
    """Issue 23: `recon run` starts one code server for all its runs (`launched_runs.CodeServer`), in a session of its
    own so that Ctrl-C reaches `recon` alone, and stops it when it ends. Killed (SIGKILL), it cannot: the server, with no
    run under way, must still end by itself (Linux sends it SIGINT when its parent dies), not outlive the command."""
    home = _home(tmp_path)
    holder_script = (
        "import sys, time\nfrom pathlib import Path\nfrom recon_assets.cli.launched_runs import CodeServer\n"
        "server = CodeServer(Path(sys.argv[1]))\nserver.workspace()\nprint(server.process.pid, server.socket, flush=True)\n"
        "time.sleep(600)\n"
    )
    folder = tmp_path / "consoles"
    folder.mkdir()
    socket_path = ""
    holder = subprocess.Popen([sys.executable, "-c", holder_script, str(folder)], env=_env(home), text=True, stdout=subprocess.PIPE)
    try:
        pid, _, socket_path = holder.stdout.readline().strip().partition(" ")
        assert pid.isdigit(), "the code server did not start"
        server = psutil.Process(int(pid))
        assert server.is_running() and socket_path in " ".join(server.cmdline())
        assert os.getsid(server.pid) != os.getsid(holder.pid)  # a session of its own: Ctrl-C reaches `recon` alone
    finally:
        holder.kill()
        holder.communicate()
        if socket_path and not Path(socket_path).is_relative_to(tmp_path):  # a folder deep for a socket: its own in /tmp
            shutil.rmtree(Path(socket_path).parent, ignore_errors=True)
    deadline = time.monotonic() + 60
    try:
        while _alive(server):
            assert time.monotonic() < deadline, "the code server outlived the command that started it"
            time.sleep(0.2)
    finally:
        if _alive(server):
            server.kill()


def _alive(process: psutil.Process) -> bool:
    """Running and not a zombie (an ended process whose new parent has not reaped it yet)."""
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def test_the_code_server_recon_run_starts_is_the_packaged_code_location():
    """`recon run`'s one code server (`launched_runs.CodeServer`) serves the module and location name of the packaged
    workspace that `recon paper`, `recon ask` and `dagster dev` load: its runs show on the same UI pages."""
    import yaml

    from recon_assets.cli.launched_runs import WORKSPACE, CodeServer

    [location] = yaml.safe_load(WORKSPACE.read_text())["load_from"]
    assert location == {"python_module": {"module_name": CodeServer.MODULE_NAME, "location_name": CodeServer.LOCATION_NAME}}


def test_an_instance_that_queues_runs_with_no_daemon_is_refused_before_any_launch(tmp_path, capsys, monkeypatch):
    """Hostile pass (2026-12-04): a DAGSTER_HOME whose dagster.yaml names no run coordinator (one shared with other
    projects) queues runs for a daemon, Dagster's default; `recon run` launched its first run there and waited for ever
    with nothing said. Now: one line and exit 2 before any launch; the project's own settings start runs at once."""
    from recon_assets.cli import run as run_module
    from recon_assets.cli.launched_runs import RunsWouldWait, check_runs_start
    from recon_assets.cli.main import main

    home = tmp_path / "shared_home"
    home.mkdir()
    (home / "dagster.yaml").write_text("telemetry:\n  enabled: false\n")
    with pytest.raises(RunsWouldWait, match="queues runs for a Dagster daemon .* and no daemon is running"):
        check_runs_start(home, _instance(home))
    check_runs_start(tmp_path, _instance(_home(tmp_path)))  # the project's dagster.yaml: nothing to wait for

    def launched(*_args, **_kwargs):
        raise AssertionError("a run was launched on an instance that queues runs with no daemon")

    monkeypatch.setattr(run_module, "launch", launched)
    for name, value in _env(home, RECON_KG_PATH=str(TINY_KG)).items():
        monkeypatch.setenv(name, value)
    code = main(["run", "--db", str(tmp_path / "r.duckdb"), "--as-of", AS_OF])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err == (f"error: the Dagster instance in {home} queues runs for a Dagster daemon (its dagster.yaml names no run "
                   "coordinator, or QueuedRunCoordinator) and no daemon is running: a run launched now would wait QUEUED for "
                   f"ever. Start `dagster dev` (or `dagster-daemon run`) with DAGSTER_HOME={home}, or give recon a "
                   "DAGSTER_HOME of its own (it writes its dagster.yaml there)\n")


def test_a_dagster_home_that_cannot_be_made_or_written_is_refused_in_one_line(tmp_path, capsys, monkeypatch):
    """Hostile pass (2026-12-04): a read-only DAGSTER_HOME gave "error: OSError: [Errno 30] Read-only file system:
    '.../recon_instance.lock' (...)", exit 1. Here a DAGSTER_HOME under a file (what a user reads is the same line)."""
    from recon_assets.cli.main import main

    (tmp_path / "a_file").write_text("")
    home = tmp_path / "a_file" / "dagster_home"
    for name, value in _env(home, RECON_KG_PATH=str(TINY_KG)).items():
        monkeypatch.setenv(name, value)
    code = main(["run", "--db", str(tmp_path / "r.duckdb"), "--as-of", AS_OF])
    assert code == 2
    assert capsys.readouterr().err == (
        f"error: cannot use DAGSTER_HOME {home}: Not a directory: give DAGSTER_HOME a folder this user can write\n"
    )
