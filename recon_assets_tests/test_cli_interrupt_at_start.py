"""Bug row (Ctrl-C at any moment): Ctrl-C during the first seconds of `recon run`, `ask` or `paper` (importing Dagster,
before the command's own handling of it) printed a Python traceback and the process died of SIGINT; SIGTERM then
killed it silently. Each now ends as a command's own handling does: 'error: interrupted (Ctrl-C)' (or '(SIGTERM)'),
exit 130 (143), no traceback (`interrupts.interrupted`, from `main.console`).

The moment is chosen, not left to chance: a `sitecustomize` module on the command's PYTHONPATH sends the signal to its
own process when the command first imports the module named by SIGNAL_AT_IMPORT (the command's heavy module, which
imports Dagster), and Python raises it there, inside the import."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from recon_assets_tests.pipeline_runs import AS_OF
from recon_assets_tests.test_run_recovery import sigint_as_at_a_terminal

_SITECUSTOMIZE = '''\
import os, signal, sys

class _SignalAtImport:
    """Send SIGNAL_NUMBER to this process when SIGNAL_AT_IMPORT is first imported."""

    def find_spec(self, name, path=None, target=None):
        if name == os.environ["SIGNAL_AT_IMPORT"]:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), int(os.environ["SIGNAL_NUMBER"]))
        return None

sys.meta_path.insert(0, _SignalAtImport())
'''


@pytest.mark.parametrize(("command", "module", "stop", "said", "status"), [
    ("run", "recon_assets.cli.run", signal.SIGINT, "Ctrl-C", 130),
    ("ask", "recon_assets.cli.ask", signal.SIGINT, "Ctrl-C", 130),
    ("paper", "recon_assets.cli.paper", signal.SIGINT, "Ctrl-C", 130),
    ("paper", "recon_assets.cli.paper", signal.SIGTERM, "SIGTERM", 143),
])
def test_a_signal_while_the_command_starts_ends_it_in_one_line(tmp_path, command, module, stop, said, status):
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(_SITECUSTOMIZE)
    arguments = {
        "run": ["run", "--db", str(tmp_path / "r.duckdb"), "--as-of", AS_OF],
        "ask": ["ask", "Which rainfall datasets are current?", "--db", str(tmp_path / "r.duckdb")],
        "paper": ["paper", str(tmp_path / "paper.pdf"), "--db", str(tmp_path / "r.duckdb")],
    }[command]
    env = {
        **os.environ, "DAGSTER_HOME": str(tmp_path / "dagster_home"), "RECON_KG_PATH": "", "RECON_AS_OF": "",
        "SIGNAL_AT_IMPORT": module, "SIGNAL_NUMBER": str(int(stop)),
        "PYTHONPATH": os.pathsep.join([str(site), *filter(None, [os.environ.get("PYTHONPATH")])]),
    }
    ended = subprocess.run(
        [sys.executable, "-m", "recon_assets.cli.main", *arguments], env=env, capture_output=True, text=True, timeout=300,
        preexec_fn=sigint_as_at_a_terminal,
    )
    assert (ended.returncode, ended.stderr) == (status, f"error: interrupted ({said})\n"), ended.stderr[-3000:]
    assert not Path(tmp_path / "dagster_home").exists()  # stopped before anything was set up
