"""Issue 24: Ctrl-C during `recon run`, `recon ask` or `recon paper` terminates the launched run through the instance's
run launcher and exits 130 in one line; a run whose worker does not answer is stopped and marked CANCELED. (Apart from
test_run_recovery.py, whose helpers it uses, so that the two files' real runs can go to two test workers: with
`--dist loadfile` one file's tests run on one worker.)"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import dagster as dg
import duckdb
import psutil
import pytest

from recon_assets.cli.instance_health import POOL
from recon_assets.cli.launched_runs import TERMINATE_WAIT_SETTING, TerminateWaitRefused, terminate_wait_seconds
from recon_assets_tests.held_step import sitecustomize_line
from recon_assets.shared.paths import database_lock
from recon_assets.storage.tables import create_tables
from recon_assets_tests.pipeline_runs import AS_OF
from recon_assets_tests.test_run_recovery import (
    HANG_GUARD_SECONDS, _code_servers, _env, _holder_with_worker, _home, _instance, _recon_run,
    sigint_as_at_a_terminal,
)
from recon_assets_tests.tiny_kg import TINY_KG

# The wait for a run that does not answer, as the test below sets it (RECON_TERMINATE_WAIT_SECONDS): the product's 30 s
# is said and waited in the tests whose runs do end (issue 23: suite time; the wait is the same code either way).
UNANSWERED_WAIT_SECONDS = 3


def _held_runs(tmp_path: Path) -> dict[str, str]:
    """The environment that holds the runs of a `recon run` in their first step until the test ends (held_step.py):
    the run found holding the pool is still under way when the test signals `recon run`, however slow or fast the
    machine."""
    site, hold = tmp_path / "site", tmp_path / "hold"
    site.mkdir()
    hold.mkdir()
    (site / "sitecustomize.py").write_text(sitecustomize_line())
    tests = Path(__file__).parent
    return {"HOLD_DIR": str(hold), "PYTHONPATH": os.pathsep.join([str(site), str(tests), *filter(None, [os.environ.get("PYTHONPATH")])])}


def test_a_recon_these_tests_start_takes_sigint_even_when_the_test_run_ignores_it():
    """Bug row (full suite started in the background by a script, on a loaded machine): the Ctrl-C tests below failed,
    `recon ask` waiting for ever on its held run, `recon run` finishing its runs and exiting 0, because the test run
    had SIGINT ignored (a background job of a shell without job control) and every `recon` it started inherited that:
    Python keeps an ignored SIGINT, so the tests' SIGINT was lost. The tests' `recon` now starts with SIGINT at its
    default (`sigint_as_at_a_terminal`), as a command in the foreground of a terminal has it."""
    shown = "import signal; print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)"
    saved = signal.signal(signal.SIGINT, signal.SIG_IGN)  # as `pytest ... &` in a script has it
    try:
        inherited = subprocess.run([sys.executable, "-c", shown], capture_output=True, text=True, check=True).stdout
        started = subprocess.run([sys.executable, "-c", shown], capture_output=True, text=True, check=True,
                                 preexec_fn=sigint_as_at_a_terminal).stdout
    finally:
        signal.signal(signal.SIGINT, saved)
    assert (inherited, started) == ("False\n", "True\n")


def test_ctrl_c_terminates_the_launched_run_and_exits_130(tmp_path):
    """The run worker runs in a session of its own: Ctrl-C reaches `recon run` alone, which terminates its run through
    the instance's run launcher (as the UI's "Terminate" does), waits for it to end and exits 130."""
    home = _home(tmp_path)
    instance = _instance(home)
    recon = _recon_run(tmp_path / "r.duckdb", _env(home, **_held_runs(tmp_path)))
    try:
        run_id, pid = _holder_with_worker(instance, recon)  # held in its first step (held_step.py)
        recon.send_signal(signal.SIGINT)
        out, err = recon.communicate(timeout=HANG_GUARD_SECONDS)
    finally:
        if recon.poll() is None:
            recon.kill()
        (tmp_path / "hold" / "go").touch()  # a run left held (a failed test) goes on and ends
    assert recon.returncode == 130, err[-3000:]
    run = instance.get_run_by_id(run_id)
    assert err.splitlines()[-3:] == [
        f"recon: terminating run {run_id} ({run.job_name}): waiting up to 30s for it to end",
        f"recon: run {run_id} ({run.job_name}) terminated: CANCELED", "error: interrupted (Ctrl-C)",
    ]
    assert run.status == dg.DagsterRunStatus.CANCELED
    try:  # the worker exits once it has ended its run (raises TimeoutExpired if it does not)
        psutil.Process(pid).wait(timeout=HANG_GUARD_SECONDS)
    except psutil.NoSuchProcess:
        pass


@pytest.mark.parametrize(("command", "stop", "said", "status"), [
    ("ask", signal.SIGINT, "Ctrl-C", 130), ("paper", signal.SIGTERM, "SIGTERM", 143),
])
def test_ctrl_c_during_recon_ask_or_paper_terminates_its_run_and_exits_130_without_a_traceback(tmp_path, command, stop, said, status):
    """Ctrl-C during `recon ask` (or `recon paper`) printed a Python traceback (KeyboardInterrupt from `follow`, which
    had terminated the run), and a Ctrl-C before the run was seen left it launched: each ends as `recon run` does, the
    run terminated (one line), 'error: interrupted (Ctrl-C)', exit 130. The run is held in its first step, before it
    can end by itself, by the database's lock, which this test holds (each step takes it to connect: a run writing it).
    Bug row (hostile pass): SIGTERM killed the command silently (143) and its run went on; now it stops as Ctrl-C does,
    saying SIGTERM, exit 143."""
    home = _home(tmp_path)
    instance = _instance(home)
    database = tmp_path / "scored.duckdb"
    with duckdb.connect(str(database)) as con:  # what `recon ask` and `recon paper` check before they launch
        create_tables(con, "edge_reliability", "datasets", "publications")  # the scores; the graph's tables `recon paper` checks
    paper = tmp_path / "paper.pdf"
    paper.write_bytes(b"%PDF-1.4\n")  # never read: the run is stopped before its first step connects
    arguments, job = {
        "ask": (["ask", "Which rainfall datasets are current?"], "question_briefs_job"),
        "paper": (["paper", str(paper)], "paper_analysis_job"),
    }[command]
    lock = database_lock(database)
    lock.acquire()
    recon = subprocess.Popen(
        [sys.executable, "-m", "recon_assets.cli.main", *arguments, "--db", str(database)],
        env=_env(home, RECON_PAPERS_DIR=str(tmp_path / "papers")), text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        preexec_fn=sigint_as_at_a_terminal,
    )
    try:
        run_id, pid = _holder_with_worker(instance, recon)  # its first step holds the duckdb slot, waiting for the lock
        recon.send_signal(stop)
        out, err = recon.communicate(timeout=HANG_GUARD_SECONDS)
    finally:
        if recon.poll() is None:
            recon.kill()
        lock.release()
    assert recon.returncode == status, err[-3000:]
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err[-3000:]
    assert err.splitlines()[-3:] == [
        f"recon: terminating run {run_id} ({job}): waiting up to 30s for it to end",
        f"recon: run {run_id} ({job}) terminated: CANCELED", f"error: interrupted ({said})",
    ]
    assert instance.get_run_by_id(run_id).status == dg.DagsterRunStatus.CANCELED
    assert not instance.event_log_storage.get_concurrency_info(POOL).claimed_slots
    try:  # the worker exits once it has ended its run (raises TimeoutExpired if it does not)
        psutil.Process(pid).wait(timeout=HANG_GUARD_SECONDS)
    except psutil.NoSuchProcess:
        pass


def test_ctrl_c_on_a_run_whose_worker_does_not_answer_stops_it_and_marks_the_run_canceled(tmp_path):
    """Issue 24, hostile pass: a run whose worker does not end it when asked (here stopped with SIGSTOP: hung, or
    gone with its code server) stayed CANCELING for ever after Ctrl-C, with no daemon to end it. `recon run` waits 30 s
    (said; here RECON_TERMINATE_WAIT_SECONDS, UNANSWERED_WAIT_SECONDS), then stops the worker and the processes it
    started and marks the run CANCELED, freeing its pool slots."""
    home = _home(tmp_path)
    instance = _instance(home)
    wait = {TERMINATE_WAIT_SETTING: str(UNANSWERED_WAIT_SECONDS)}
    recon = _recon_run(tmp_path / "r.duckdb", _env(home, **_held_runs(tmp_path), **wait))
    run_id = pid = None
    try:
        run_id, pid = _holder_with_worker(instance, recon)  # held in its first step (held_step.py), then stopped
        os.kill(pid, signal.SIGSTOP)
        recon.send_signal(signal.SIGINT)
        out, err = recon.communicate(timeout=HANG_GUARD_SECONDS)
    finally:
        if recon.poll() is None:
            recon.kill()
        (tmp_path / "hold" / "go").touch()
        if pid is not None and psutil.pid_exists(pid):
            os.kill(pid, signal.SIGKILL)
        # The code server asked to cancel the run can block for good on the stopped worker (its cancel request waits
        # on a lock the worker held when stopped) and outlive the test: ended here.
        for server in _code_servers(instance.get_run_by_id(run_id)) if run_id is not None else []:
            server.kill()
    assert recon.returncode == 130, err[-3000:]
    job = instance.get_run_by_id(run_id).job_name
    waiting, ended, interrupted = err.splitlines()[-3:]
    assert waiting == f"recon: terminating run {run_id} ({job}): waiting up to {UNANSWERED_WAIT_SECONDS}s for it to end"
    # The code server answers, or not (it may block on the stopped worker): either way the run is ended here.
    assert re.fullmatch(
        rf"recon: run {run_id} \({job}\) (did not end within {UNANSWERED_WAIT_SECONDS}s( \(its code server did not answer\))?|could not be asked to "
        rf"stop \(its code server [^)]*\)): its run worker \(pid {pid}\) was stopped and the run is marked CANCELED", ended,
    ), ended
    assert interrupted == "error: interrupted (Ctrl-C)"
    assert instance.get_run_by_id(run_id).status == dg.DagsterRunStatus.CANCELED
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    assert not instance.event_log_storage.get_concurrency_info(POOL).claimed_slots


@pytest.mark.parametrize("second_at", ["saying-it-terminates", "finding-the-run"])
def test_a_second_ctrl_c_before_the_wait_still_stops_the_run_and_marks_it_canceled(tmp_path, second_at):
    """Bug row (a quick double Ctrl-C): a second Ctrl-C that came while the first was being handled but before the
    wait for the run to end (finding the run, saying 'terminating ...') left `_terminate` at once: the command ended
    with the run not asked to stop, still STARTED and writing. It now ends as a second Ctrl-C during the wait does: the
    worker stopped, the run marked CANCELED and said. The second Ctrl-C comes at a chosen point (the instance's run
    lookup, or the first line said, raise KeyboardInterrupt once), on a run record of a real instance whose worker is a
    live process (test_run_recovery's way: the run's engine event records its pid)."""
    import uuid

    from dagster._core.events import EngineEventData

    from recon_assets.cli.launched_runs import Launch, _terminate
    from recon_assets.shared.run_tags import LAUNCH_TAG

    worker = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])  # created before its run starts
    launch = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])  # `dagster job launch`, still going
    try:
        with dg.instance_for_test(temp_dir=str(tmp_path)) as instance:
            token = uuid.uuid4().hex
            run = dg.DagsterRun(job_name="kg_tables_job", run_id=str(uuid.uuid4()), status=dg.DagsterRunStatus.STARTED,
                                tags={LAUNCH_TAG: token})
            instance.add_run(run)
            instance.report_engine_event(f"Started process for run (pid: {worker.pid}).", run, EngineEventData.in_process(worker.pid))
            said: list[str] = []
            interrupted = []

            def second_ctrl_c(where: str) -> None:
                if where == second_at and not interrupted:
                    interrupted.append(where)
                    raise KeyboardInterrupt

            def say(line: str) -> None:
                second_ctrl_c("saying-it-terminates")
                said.append(line)

            real_get_runs = instance.get_runs

            def get_runs(*args, **kwargs):
                second_ctrl_c("finding-the-run")
                return real_get_runs(*args, **kwargs)

            instance.get_runs = get_runs
            _terminate(instance, Launch("kg_tables_job", launch, token, tmp_path / "launch.log", tmp_path / "server.log"), None, say)
            assert interrupted == [second_at]
            assert said[-1] == (f"recon: run {run.run_id} (kg_tables_job) was still ending at a second Ctrl-C: its run worker "
                                f"(pid {worker.pid}) was stopped and the run is marked CANCELED")
            assert instance.get_run_by_id(run.run_id).status == dg.DagsterRunStatus.CANCELED
        # ended by `stop_worker`'s SIGKILL (its 600 s sleep cut short), left for its parent, this process, to reap
        assert worker.wait(timeout=10) == -signal.SIGKILL
        assert launch.poll() is not None
    finally:
        for process in (worker, launch):
            if process.poll() is None:
                process.kill()
            process.wait()


@pytest.mark.parametrize(("value", "seconds"), [
    (None, 30.0), ("", 30.0), ("2.5", 2.5), ("600", 600.0),
    ("forever", None), ("0", None), ("-5", None), ("inf", None), ("nan", None), ("30s", None),
])
def test_the_wait_for_a_terminated_run_is_a_positive_number_of_seconds(monkeypatch, value, seconds):
    """RECON_TERMINATE_WAIT_SECONDS: how long Ctrl-C waits for the run it terminated before stopping its worker (30 s
    unset); anything but a positive, finite number is refused in one line quoting it."""
    if value is None:
        monkeypatch.delenv(TERMINATE_WAIT_SETTING, raising=False)
    else:
        monkeypatch.setenv(TERMINATE_WAIT_SETTING, value)
    if seconds is not None:
        assert terminate_wait_seconds() == seconds
        return
    with pytest.raises(TerminateWaitRefused) as refused:
        terminate_wait_seconds()
    assert str(refused.value) == f"RECON_TERMINATE_WAIT_SECONDS must be a positive number of seconds, got {value!r}"


def test_a_bad_terminate_wait_is_refused_in_one_line_before_any_launch(tmp_path, capsys, monkeypatch):
    """A bad RECON_TERMINATE_WAIT_SECONDS is refused where `recon run` (and `recon paper`, `recon ask`) check the
    instance before launching (`launched_runs.check_runs_start`), not met at the first Ctrl-C: exit 2, one line."""
    from recon_assets.cli import run as run_module
    from recon_assets.cli.main import main

    def launched(*_args, **_kwargs):
        raise AssertionError("a run was launched with a bad RECON_TERMINATE_WAIT_SECONDS")

    monkeypatch.setattr(run_module, "launch", launched)
    home = _home(tmp_path)
    for name, value in _env(home, RECON_KG_PATH=str(TINY_KG), RECON_TERMINATE_WAIT_SECONDS="forever").items():
        monkeypatch.setenv(name, value)
    code = main(["run", "--db", str(tmp_path / "sub" / "r.duckdb"), "--as-of", AS_OF])
    assert code == 2
    assert capsys.readouterr().err == "error: RECON_TERMINATE_WAIT_SECONDS must be a positive number of seconds, got 'forever'\n"
    # hostile pass (2026-12-04): refused after the database file, its locks and its folder were made; now before
    assert not (tmp_path / "sub").exists()
