"""Shared fixtures: one full pipeline run on the shipped sample, in a real Dagster instance."""

import dagster as dg
import pytest

from recon_assets_tests.pipeline_runs import SAMPLE_JSONL, PipelineRun, run_pipeline


@pytest.fixture(scope="session")
def sample_run(tmp_path_factory) -> PipelineRun:
    """The whole pipeline on the shipped JSON-lines sample (shared: it is read-only for the tests using it)."""
    workdir = tmp_path_factory.mktemp("sample_run")
    with dg.instance_for_test(temp_dir=str(workdir)) as instance:
        yield run_pipeline(SAMPLE_JSONL, workdir, instance)
