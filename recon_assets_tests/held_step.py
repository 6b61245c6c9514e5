"""Hold a launched run in its first step, before it can end by itself, until the test lets it go: for the Ctrl-C tests
of `recon run` (test_run_recovery_ctrl_c.py, test_new_instance_race.py), which signal `recon run` while its run is
under way. Without it the run they found holding the `duckdb` pool could finish before the signal reached `recon run`
(a kg_tables_job run of the sample takes seconds when the machine is idle), and the signal then met another run, or
none, or a finished one.

Installed in a process (`install`, from a `sitecustomize` module on PYTHONPATH, `sitecustomize_line`, so that every
process `recon run` starts has it: the code server, the run worker and its step processes), every DuckDB connection a
step asks for (`TableStore.connect`, which every step writing the database opens, in pool `duckdb`) first waits until
HOLD_DIR holds a file `go` (HOLD_SECONDS at most), sleeping in short steps: Dagster's termination interrupts it as it
interrupts a step waiting for the database's lock. The ask/paper test holds its run with the database's lock itself;
`recon run` cannot be held that way (it refuses a database whose lock is held).

Simulated, not real: the step is made slow; the run, its processes, its termination and `recon run` are real.
"""

import os
import time
from contextlib import contextmanager
from pathlib import Path

from recon_assets.storage.duckdb_store import TableStore

# A guard: a step held longer than this goes on (the test's own deadline then fails it).
HOLD_SECONDS = 600.0
_connect = TableStore.connect


def sitecustomize_line() -> str:
    """The `sitecustomize` module's line that installs the hold (with this module's folder on PYTHONPATH)."""
    return "import held_step\nheld_step.install()\n"


def install() -> None:
    """Make every DuckDB connection of a step wait for HOLD_DIR/go, as the module docstring says."""
    go = Path(os.environ["HOLD_DIR"]) / "go"

    @contextmanager
    def held_connect(self):
        deadline = time.monotonic() + HOLD_SECONDS
        while not go.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        with _connect(self) as tables:
            yield tables

    TableStore.connect = held_connect
