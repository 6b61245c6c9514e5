"""Shared fixtures: one full pipeline run on the shipped sample, in a real Dagster instance."""

import dagster as dg
import pytest
from dagster._core.storage.defs_state.base import set_defs_state_storage

from recon_assets_tests.pipeline_runs import SAMPLE_JSONL, PipelineRun, run_pipeline


@pytest.fixture(scope="session")
def sample_run(tmp_path_factory) -> PipelineRun:
    """The whole pipeline on the shipped JSON-lines sample (shared: it is read-only for the tests using it)."""
    workdir = tmp_path_factory.mktemp("sample_run")
    with dg.instance_for_test(temp_dir=str(workdir)) as instance:
        yield run_pipeline(SAMPLE_JSONL, workdir, instance)


@pytest.fixture(autouse=True)
def no_inherited_defs_state_storage():
    """Each test starts with no Dagster definitions-state storage in context. Entering a `DagsterInstance` sets its
    storage in a context variable and exiting resets it to what it was; instances exited out of that order, or one
    entered twice (its second `__enter__` replaces the exit stack the first set), can leave the variable naming an
    instance that is gone; a later `dg.materialize` without an instance then fails to load definitions ("Attempted to resolve
    undefined DagsterInstance weakref"; seen in the full suite only, by test order)."""
    with set_defs_state_storage(None):
        yield
