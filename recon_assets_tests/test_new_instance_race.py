"""Issue 24, hostile pass: two `recon run` started at once on a new, empty DAGSTER_HOME left two rows in a storage's
`alembic_version` table and an instance that no longer loads (1 time in 2). Dagster's SQLite storages create their
tables, then stamp their revision, with no lock between processes; `recon run` now gives DAGSTER_HOME its settings and
creates its storage under a lock of its own, before any process of its runs opens it.

The race is made certain, not left to chance: every process started here (both `recon run`, each `dagster job launch`,
its code server and the run worker) records each schema stamp it makes and holds the first until the test lets it go
(instance_race.py). The first `recon run` is held inside its first stamp while the second starts; the test lets them
go when the second has either reached a stamp of the same database (the race) or said that it waits for the lock. Both
then go on to launch their first run through the code location, as a user's would, and are stopped with Ctrl-C."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import dagster as dg

from recon_assets_tests.held_step import sitecustomize_line
from recon_assets_tests.instance_race import stamps
from recon_assets_tests.pipeline_runs import AS_OF
from recon_assets_tests.test_run_recovery import sigint_as_at_a_terminal

# A guard, not a timed assertion: two `recon run` starting together on 2 loaded cores.
HANG_GUARD_SECONDS = 600
# The instance's own storages (a run's event shard, <run id>.db, is made by the processes of that run, which Dagster
# serialises itself: its stamp is always the head revision, and a second one is retried).
INSTANCE_DATABASES = ("runs.db", "schedules.db", "index.db")


def _recon_run(tmp_path: Path, name: str, env: dict[str, str]) -> tuple[subprocess.Popen, Path, Path]:
    out, err = tmp_path / f"{name}.out", tmp_path / f"{name}.err"
    with out.open("w") as stdout, err.open("w") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "recon_assets.cli.main", "run", "--db", str(tmp_path / f"{name}.duckdb"), "--as-of", AS_OF],
            env=env, stdout=stdout, stderr=stderr, text=True, preexec_fn=sigint_as_at_a_terminal,
        )
    return process, out, err


def _wait_for(condition, processes: list[subprocess.Popen], what: str) -> None:
    deadline = time.monotonic() + HANG_GUARD_SECONDS
    while not condition():
        ended = [process.args for process in processes if process.poll() is not None]
        assert not ended, f"a `recon run` ended while waiting for {what}"
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(0.1)


def _alembic_rows(database: Path) -> list[str]:
    with sqlite3.connect(database) as con:
        return [row[0] for row in con.execute("SELECT version_num FROM alembic_version")]


def test_two_recon_runs_on_a_new_dagster_home_create_its_storage_once(tmp_path):
    home, race_dir, site, hold = tmp_path / "dagster_home", tmp_path / "race", tmp_path / "site", tmp_path / "hold"
    race_dir.mkdir()
    site.mkdir()
    hold.mkdir()
    # ... and every run held in its first step until the end (held_step.py): no `recon run` gets past its first run
    # before the test's Ctrl-C, however fast the machine (one that did warned "[kg_tables_job] still stale after its
    # own run": the other's materializations, on the same instance, made its assets stale).
    (site / "sitecustomize.py").write_text("import instance_race\ninstance_race.install()\n" + sitecustomize_line())
    tests = Path(__file__).parent
    env = {
        **os.environ, "DAGSTER_HOME": str(home), "RECON_KG_PATH": "", "RECON_AS_OF": "", "RACE_DIR": str(race_dir),
        "HOLD_DIR": str(hold),
        "PYTHONPATH": os.pathsep.join([str(site), str(tests), *filter(None, [os.environ.get("PYTHONPATH")])]),
    }
    first = second = None
    try:
        first, _, first_err = _recon_run(tmp_path, "first", env)
        _wait_for(lambda: "runs.db" in stamps(race_dir), [first], "the first `recon run` to stamp runs.db")
        second, second_out, second_err = _recon_run(tmp_path, "second", env)
        _wait_for(
            lambda: len(stamps(race_dir)["runs.db"]) > 1 or "waiting for another process" in second_out.read_text(),
            [first, second], "the second `recon run` to reach the instance",
        )
        (race_dir / "go").touch()
        # Both launch their first run through the code location (`dagster job launch`: a process of its own opening the
        # instance, as do its code server and the run worker) and follow it; then Ctrl-C.
        # (or wait for the first one's run to free the `duckdb` pool).
        outs = (tmp_path / "first.out", second_out)
        for out in outs:
            _wait_for(lambda: any(line in out.read_text() for line in ("[kg_tables_job] ingest", "recon: waiting up to")),
                      [first, second], f"{out.stem} to launch its first run")
        launched = sum("[kg_tables_job] ingest" in out.read_text() for out in outs)
        with dg.DagsterInstance.from_config(str(home)) as instance:
            _wait_for(lambda: len(instance.get_runs(dg.RunsFilter(job_name="kg_tables_job"))) == launched, [first, second],
                      "the runs to be created")
        for process in (first, second):
            process.send_signal(signal.SIGINT)
        for process in (first, second):
            process.wait(timeout=HANG_GUARD_SECONDS)
    finally:
        (race_dir / "go").touch()
        (hold / "go").touch()
        for process in (first, second):
            if process is not None and process.poll() is None:
                process.kill()
    for process, err in ((first, first_err), (second, second_err)):
        assert process.returncode == 130, err.read_text()[-3000:]
        assert err.read_text().splitlines()[-1] == "error: interrupted (Ctrl-C)"
    assert (f"recon: waiting for another process to finish setting up the Dagster instance in {home} "
            f"(lock {home / 'recon_instance.lock'})") in second_out.read_text().splitlines()
    # Each storage of the instance was created, and its revision stamped, by one process: the first `recon run`.
    made = stamps(race_dir)
    for database in INSTANCE_DATABASES:
        assert [line.split(" run --db ")[-1].split()[0] for line in made[database]] == [str(tmp_path / "first.duckdb")], made
    # ... stamped once, with the revision of an instance made alone; the instance loads and lists both runs.
    (tmp_path / "alone").mkdir()
    with dg.DagsterInstance.from_config(str(tmp_path / "alone")):
        pass
    for database in INSTANCE_DATABASES:
        [expected] = _alembic_rows(next((tmp_path / "alone").rglob(database)))
        assert _alembic_rows(next(home.rglob(database))) == [expected], database
    with dg.DagsterInstance.from_config(str(home)) as instance:
        assert len(instance.get_runs(dg.RunsFilter(job_name="kg_tables_job"))) == launched
