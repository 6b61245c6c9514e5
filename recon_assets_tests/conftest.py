"""Shared fixtures: one full pipeline run on the shipped sample, in a real Dagster instance."""

import os
import shutil
import sqlite3
import tempfile
from pathlib import Path

import dagster as dg
import pytest
from dagster._core.storage.defs_state.base import _current_storage
from sqlalchemy import event
from sqlalchemy.engine import Engine

from recon_assets_tests.pipeline_runs import SAMPLE_JSONL, PipelineRun, run_pipeline


@pytest.fixture(scope="session")
def sample_run(tmp_path_factory) -> PipelineRun:
    """The whole pipeline on the shipped JSON-lines sample (shared: it is read-only for the tests using it)."""
    workdir = tmp_path_factory.mktemp("sample_run")
    with dg.instance_for_test(temp_dir=str(workdir)) as instance:
        yield run_pipeline(SAMPLE_JSONL, workdir, instance)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """Each test, and any module- or session-scoped fixture it is the first to need, starts with no Dagster
    definitions-state storage in context. Entering a `DagsterInstance` sets its storage in a context variable and
    exiting resets it to what it was; instances exited out of that order (one fixture's instance outliving another's),
    or one entered twice, can leave the variable naming an instance that is gone; a later `dg.materialize` then fails
    to load definitions ("Attempted to resolve undefined DagsterInstance weakref"; seen in the full suite only, by test
    order, in a module-scoped fixture, which a function-scoped autouse fixture comes too late to clear)."""
    _current_storage.set(None)


def _sqlite_without_fsync(connection, _record) -> None:
    if isinstance(connection, sqlite3.Connection):
        connection.execute("PRAGMA synchronous=OFF")


@pytest.fixture(scope="session", autouse=True)
def sqlite_without_fsync():
    """The Dagster instances this process opens (their run, event log and schedule storages are SQLite files under
    tmp_path) write without waiting for the disk (`PRAGMA synchronous=OFF`): an in-process pipeline run commits about
    1,400 events, each commit waiting for an fsync of a few milliseconds, tens on a busy disk (issue 23: suite time).
    Only what survives a power cut changes, which no in-process test looks at; the instances of `recon run` and
    `dagster dev` started as processes keep Dagster's settings."""
    event.listen(Engine, "connect", _sqlite_without_fsync)
    yield
    event.remove(Engine, "connect", _sqlite_without_fsync)


# Temporary files in RAM (issue 23: suite time). The pipeline runs of the tests (in process, and the `recon run`s they
# start as processes, which keep Dagster's settings) commit thousands of SQLite and DuckDB transactions, each waiting
# for an fsync of the disk; on tmpfs an fsync costs nothing. Nothing in the product or in what a test asserts changes.
RAM_TEMP_PARENT = Path("/dev/shm")
# The whole suite's temporary tree peaked at about 2.2 GB (every test's tmp_path is kept until the session ends; the
# largest, planted0, 250 MB); RAM is used only when this much is free both on the tmpfs and in memory (MemAvailable:
# a tmpfs may be larger than the RAM, and its pages cannot be swapped out here), leaving the tests' own processes
# 4 GB or more at the peak.
RAM_TEMP_MIN_FREE_BYTES = 6 * 2**30
RAM_TEMP_PREFIX = "recon-tests-"


def _available_memory_bytes() -> int:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _remove_abandoned_ram_temps() -> None:
    """Trees a killed session left in RAM (the pid in the name is no longer a process): removed, as nothing else would
    before a reboot."""
    for path in RAM_TEMP_PARENT.glob(f"{RAM_TEMP_PREFIX}*-*"):
        pid = path.name[len(RAM_TEMP_PREFIX):].split("-", 1)[0]
        if pid.isdigit() and path.is_dir() and path.stat().st_uid == os.getuid() and not _pid_alive(int(pid)):
            shutil.rmtree(path, ignore_errors=True)


def ram_temp_root() -> Path | None:
    """A new folder for this session's temporary files on RAM_TEMP_PARENT (tmpfs), or None (use the default, on disk)
    when it is not there, not a writable folder, or has less than RAM_TEMP_MIN_FREE_BYTES free on it or in memory."""
    if not (RAM_TEMP_PARENT.is_dir() and os.access(RAM_TEMP_PARENT, os.W_OK | os.X_OK)):
        return None
    _remove_abandoned_ram_temps()
    try:
        free = shutil.disk_usage(RAM_TEMP_PARENT).free
    except OSError:
        return None
    if min(free, _available_memory_bytes()) < RAM_TEMP_MIN_FREE_BYTES:
        return None
    try:
        return Path(tempfile.mkdtemp(prefix=f"{RAM_TEMP_PREFIX}{os.getpid()}-", dir=RAM_TEMP_PARENT))
    except OSError:
        return None


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """Before pytest makes its base temporary folder (tryfirst: ahead of its own pytest_configure, which reads
    --basetemp), put it and TMPDIR in RAM (`ram_temp_root`): `--basetemp ROOT/pytest` (pytest-xdist hands each worker
    `ROOT/pytest/popen-gwN`, with this process's environment) and `TMPDIR=ROOT/tmp` for this process, its workers and
    every process they start (tempfile's folders: `recon run`'s code server socket and consoles, pip's build, ...).
    Nothing is done in an xdist worker (the controller did it), nor when the user gave --basetemp (their folder, and
    their TMPDIR, are kept), nor without room in RAM (pytest's default, under TMPDIR on disk). ROOT goes at the end of
    the session (`pytest_unconfigure`), as tests' folders are not kept from one run to the next in RAM."""
    if hasattr(config, "workerinput") or config.option.basetemp is not None:
        return
    root = ram_temp_root()
    if root is None:
        return
    (root / "tmp").mkdir()
    config.stash[_RAM_TEMP] = (root, os.environ.get("TMPDIR"))
    config.option.basetemp = str(root / "pytest")
    os.environ["TMPDIR"] = str(root / "tmp")
    tempfile.tempdir = None  # tempfile caches the folder it first found


_RAM_TEMP = pytest.StashKey[tuple[Path, str | None]]()


def pytest_unconfigure(config: pytest.Config) -> None:
    """The RAM folder of `pytest_configure`, removed (its memory freed), and TMPDIR as it was."""
    root, tmpdir = config.stash.get(_RAM_TEMP, (None, None))
    if root is None:
        return
    if tmpdir is None:
        os.environ.pop("TMPDIR", None)
    else:
        os.environ["TMPDIR"] = tmpdir
    tempfile.tempdir = None
    shutil.rmtree(root, ignore_errors=True)
