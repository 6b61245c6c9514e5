"""The suite's own isolation: a Dagster instance one test leaves behind cannot break a later test's fixture."""

import subprocess
import sys
import textwrap

LEAVES_A_GONE_INSTANCE = '''
import gc

import dagster as dg
import pytest
from dagster._core.storage.defs_state.base import _current_storage


def test_leaves_a_gone_instance_in_context(tmp_path):
    instance = dg.DagsterInstance.local_temp(str(tmp_path))
    _current_storage.set(instance.defs_state_storage)  # what an instance exited out of order leaves behind
    del instance
    gc.collect()


@pytest.fixture(scope="module")
def materialized():
    @dg.asset
    def one():
        return 1

    return dg.materialize([one]).success


def test_a_module_fixture_after_it_still_loads_definitions(materialized):
    assert materialized
'''


def _pytest(directory) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(directory)],
        cwd=directory, capture_output=True, text=True, timeout=300,
    )


def test_a_gone_instance_left_in_context_fails_a_module_fixture_without_the_suite_hook_and_not_with_it(tmp_path):
    (tmp_path / "test_left_behind.py").write_text(LEAVES_A_GONE_INSTANCE)
    without = _pytest(tmp_path)
    assert without.returncode == 1 and "Attempted to resolve undefined DagsterInstance weakref" in without.stdout

    (tmp_path / "conftest.py").write_text(textwrap.dedent("""
        from recon_assets_tests.conftest import pytest_runtest_setup  # noqa: F401 (the hook under test)
    """))
    with_hook = _pytest(tmp_path)
    assert with_hook.returncode == 0, with_hook.stdout[-2000:]
    assert "2 passed" in with_hook.stdout
