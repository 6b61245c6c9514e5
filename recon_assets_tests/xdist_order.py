"""A pytest plugin (pyproject's addopts: `-p recon_assets_tests.xdist_order`): under pytest-xdist, the test files
that take longest start first, so no worker is left running one of them alone at the end.

With `--dist loadfile` a file is one unit of work, handed to the next free worker in the order of the collection.
pytest-xdist's own ordering (`--loadscope-reorder`, on by default) puts the files with the most tests first, which
puts the slowest files last: each holds a few tests that run the whole pipeline through `recon run` (one to eight
tests, minutes each), and one of them alone could end the run minutes after the other worker ran out of work. Here the
files of SLOWEST go first, in that order, then the others by number of tests, most first (xdist's own order); the
tests of a file keep their order. A serial run (`-n 0`) is left in pytest's order.

SLOWEST: the files' times on the full suite (2 workers, issue 23), longest first, so the greedy hand-out (the next
file to the first free worker) ends with short files on both workers; times from the slowest durations of the clean
clone's CI of 171771a (2 idle cores, 1,181 s), summed per file. A name that no longer matches a file is ignored; a new
slow file should be added here.
"""

from __future__ import annotations

import pytest

SLOWEST = (
    # a wheel built, installed and run (110 s), then re-run unchanged and as of 1960 (test_rerun's runs until
    # 2026-12-03; the wheel test alone 113 -> 150 CPU-s, 3:52 -> 4:17 wall at load 6-7), a GraphML and a JSON-lines
    # run, the sample run: about 5 min
    "test_end_to_end.py",
    "test_launched_assets_recompute.py",  # in-process runs on a revised copy of the sample and a fresh run: about 4 min at load 8
    "test_run_recovery.py",  # three `recon run` of the tiny KG, one worker killed, one run lost: about 2-3 min
    "test_openalex_validation.py",  # two runs of a 7-publication KG against stand-in servers, three shorter ones: 111 CPU-s serial (127 before, 2026-12-03)
    "test_benchmarks.py",  # the benchmark on a tiny KG (108 s; 123 s at load 6 without its re-run section, 2026-12-03): about 2-2.5 min
    "test_run_recovery_ctrl_c.py",  # four launched runs stopped with Ctrl-C, one after a 3 s wait (30 s before 2026-12-04) and its worker's kill (10 s more before stop_worker's fix, 2026-12-04): about 1.5 min
    "test_keeping_fresh.py",  # a copy of the session's sample run, the daily schedule's run, one-area runs, a KG refresh: 137 CPU-s serial with the sample run (163 before, 2026-12-03)
    "test_browser.py",  # `dagster dev`, a browser and the keys-in-transit `recon run` of the sample (73 s at load 1-2, 2026-12-04): about 2 min
    "test_disk_full.py",  # four `recon run` of the tiny KG on a full disk (about 20 s each): about 1.5 min; few tests, so near the end in xdist's order
    "test_briefs_assets.py",  # `recon ask` through the instance (31 s) and in-process runs: about 1 min
    "test_new_instance_race.py",  # two `recon run` on a new DAGSTER_HOME: about 30 s
    "test_paper_openalex.py",  # paper runs against a stand-in OpenAlex: about 15 s (its failing searches waited 21 s of backoff before 2026-12-04)
)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Reorder `items` by file (SLOWEST first, then the others by number of tests), in an xdist worker only (every
    worker collects the same order, which the controller checks and hands out)."""
    if not hasattr(config, "workerinput"):
        return
    files: dict[str, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(item.nodeid.split("::", 1)[0], []).append(item)

    def rank(path: str) -> tuple[int, int]:
        name = path.rsplit("/", 1)[-1]
        return (SLOWEST.index(name), 0) if name in SLOWEST else (len(SLOWEST), -len(files[path]))

    items[:] = [item for path in sorted(files, key=rank) for item in files[path]]
