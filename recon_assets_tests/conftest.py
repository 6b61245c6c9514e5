"""Shared fixtures: one full pipeline run on the shipped sample, in a real Dagster instance."""

import sqlite3

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
