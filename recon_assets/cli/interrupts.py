"""How a `recon` command stops on Ctrl-C (SIGINT) or SIGTERM: one line, 'error: interrupted (Ctrl-C)', and exit status
130 (143 after SIGTERM), never a Python traceback, at whatever moment the signal comes. Only the standard library: the
entry point installs and uses it before Dagster is imported (`main.console`), for the first seconds of a command
(importing Dagster) as for the rest; a command that launches runs terminates its run under way first
(`launched_runs.follow`).
"""

from __future__ import annotations

import signal
import sys

# The exit status of a `recon` command stopped by Ctrl-C: 128 + SIGINT (2), as a shell reports a process it interrupted.
INTERRUPTED_EXIT = 130
# What stopped the command, as `interrupted` says it: Ctrl-C, unless `stop_on_sigterm`'s handler saw SIGTERM.
_stopped_by = {"name": "Ctrl-C", "exit": INTERRUPTED_EXIT}


def stop_on_sigterm() -> None:
    """Make SIGTERM (what `timeout`, `docker stop` and systemd send) stop a command that launches runs as Ctrl-C does:
    its run terminated, its code server stopped, its temporary folder removed, one line said (`interrupted`). Without
    it the command died at once, saying nothing, and its run went on writing the database."""

    def terminate(signum: int, _frame: object) -> None:
        _stopped_by.update(name=signal.Signals(signum).name, exit=128 + signum)
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, terminate)


def interrupted() -> int:
    """Say on stderr, in one line, that Ctrl-C (or SIGTERM: `stop_on_sigterm`) stopped the command ('error: interrupted
    (Ctrl-C)'; `launched_runs.follow` has said how the run under way ended) and return the command's exit status:
    INTERRUPTED_EXIT, or 143 (128 + SIGTERM) after SIGTERM."""
    print(f"error: interrupted ({_stopped_by['name']})", file=sys.stderr, flush=True)
    return _stopped_by["exit"]
