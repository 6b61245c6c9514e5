"""How `recon run` shows its runs as they go: plain lines, or a live progress display on a terminal (issue 23).

Plain (output to a pipe or a file, CI, and always with --verbose, whose Dagster log lines would tear a live display):
one line when a stage (one job's run) is launched, one per asset step as it completes, one when the stage succeeds,
and warnings on stderr, as `recon run` has always printed them.

Live (stdout and stderr both a terminal): the stage under way is one line drawn by `rich.progress` (what it does, a
bar of the steps done out of those its run plans, the time taken, the last step done); when it succeeds, that line is
printed for good ('[job] succeeded in 34.7s (run <id>)'). Everything else printed meanwhile (warnings, `recon:`
lines, a failure's one line) goes above the live line, which is erased when the display stops: the last line on the
console is the summary's, or the failure's cause.

Every line is shown through `display.terminal_text` (a KG or OpenAlex value in a warning is data) without secrets.
"""

from __future__ import annotations

import sys
from typing import TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn
from rich.text import Text

from recon_assets.shared.credentials import redact
from recon_assets.shared.display import terminal_text, wrapped


class RunDisplay:
    """What `recon run` prints while its runs go, plain or live (the module docstring); a context manager that starts
    and stops the live display.

    Args:
        live: the console to draw the live display on (`for_terminal` gives one on a terminal), or None: plain lines.
    """

    def __init__(self, live: Console | None = None) -> None:
        self._job = ""
        self._task: TaskID | None = None
        self._saved: tuple[TextIO, TextIO] | None = None
        self._progress = (
            Progress(
                TextColumn("{task.description}", markup=False), BarColumn(bar_width=20), MofNCompleteColumn(),
                TimeElapsedColumn(), TextColumn("{task.fields[last]}", markup=False),
                console=live, transient=True, redirect_stdout=False, redirect_stderr=False,
            )
            if live is not None else None
        )

    @classmethod
    def for_terminal(cls, out: TextIO, err: TextIO, *, verbose: bool) -> RunDisplay:
        """Live on `out` when `out` and `err` are both a terminal and not `verbose`; else plain."""
        return cls(Console(file=out) if out.isatty() and err.isatty() and not verbose else None)

    def __enter__(self) -> RunDisplay:
        if self._progress is not None:
            self._progress.start()
            self._saved = sys.stdout, sys.stderr
            sys.stdout = sys.stderr = _Above(self._progress.console)
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._saved is not None:
            sys.stdout.write("\n" if sys.stdout.partial else "")
            sys.stdout, sys.stderr = self._saved
            self._saved = None
        if self._progress is not None:
            self._progress.stop()

    def stage(self, job: str, what: str) -> None:
        """A stage begins: `job`'s run is launched to do `what`, said on a line of its own (above the live line, whose
        description is `[job]` alone: a stage's whole sentence there left no room for the bar, the count of steps
        and the time at any terminal width; hostile pass, 2026-12-04)."""
        self._job = job
        print(wrapped(_safe(f"[{job}] {what} ...")), flush=True)
        if self._progress is None:
            return
        if self._task is not None:
            self._progress.remove_task(self._task)
        self._task = self._progress.add_task(_safe(f"[{job}]"), total=None, last="")
        self._progress.refresh()

    def planned(self, steps: int) -> None:
        """The stage's run will execute `steps` steps."""
        if self._progress is not None and self._task is not None:
            self._progress.update(self._task, total=steps, refresh=True)

    def step_done(self, step: str, seconds: float) -> None:
        """Asset step `step` of the stage's run completed in `seconds`."""
        line = f"{step} done ({seconds:.1f}s)"
        if self._progress is None:
            print(_safe(f"[{self._job}] {line}"), flush=True)
        elif self._task is not None:
            self._progress.update(self._task, advance=1, last=_safe(line), refresh=True)

    def stage_done(self, line: str) -> None:
        """The stage's run succeeded: `line` says so ('[job] succeeded in 3.1s (run <id>)'), printed for good."""
        if self._progress is not None and self._task is not None:
            self._progress.remove_task(self._task)
            self._task = None
        print(_safe(line), flush=True)

    def warn(self, line: str) -> None:
        """A step's warning, a failed asset check, a line about a run's end (stderr; above the live display)."""
        print(_safe(line), file=sys.stderr, flush=True)


class _Above:
    """sys.stdout and sys.stderr while the live display runs: each complete line written is printed above it, as text
    (`terminal_text`: no escape sequence of a record reaches the terminal)."""

    def __init__(self, console: Console) -> None:
        self._console = console
        self.partial = ""  # written after the last complete line

    def write(self, text: str) -> int:
        *lines, self.partial = (self.partial + text).split("\n")
        for line in lines:
            self._console.print(Text(terminal_text(line)), soft_wrap=True)
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return True


def _safe(text: str) -> str:
    return terminal_text(redact(text))
