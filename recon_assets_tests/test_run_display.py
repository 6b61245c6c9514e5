"""Issue 23: `recon run` shows its stage under way as one live progress line on a terminal and, everywhere else
(pipes, CI, --verbose), the plain lines it always printed. The display is fed what `follow` reads from a run's event
log; here a stage is played to it directly, in this process and in one on a pseudo-terminal."""

from __future__ import annotations

import io
import os
import pty
import select
import subprocess
import sys

from rich.console import Console

from recon_assets.cli.progress import RunDisplay

# One stage as `recon run` shows it: launched, two steps planned and done, a warning (with an escape sequence a KG
# title could hold), success; then a failure's line, printed while the display is live.
STAGE = """
display.stage("kg_tables_job", "ingest the KG snapshot")
display.planned(2)
display.step_done("kg_snapshot", 0.5)
display.warn("[kg_tables_job] datasets: a title with \\x1b]0;pwned\\x07 an escape sequence")
display.step_done("datasets", 1.25)
display.stage_done("[kg_tables_job] succeeded in 3.0s (run 1234)")
display.stage("openalex_refresh_job", "judge")
print("error: [openalex_refresh_job] step x failed: why", file=sys.stderr, flush=True)
"""
PLAIN_OUT = [
    "[kg_tables_job] ingest the KG snapshot ...",
    "[kg_tables_job] kg_snapshot done (0.5s)",
    "[kg_tables_job] datasets done (1.2s)",
    "[kg_tables_job] succeeded in 3.0s (run 1234)",
    "[openalex_refresh_job] judge ...",
]
WARNING = "[kg_tables_job] datasets: a title with  an escape sequence"
FAILURE = "error: [openalex_refresh_job] step x failed: why"
SCRIPT = f"""
import sys
from recon_assets.cli.progress import RunDisplay
with RunDisplay.for_terminal(sys.stdout, sys.stderr, verbose="--verbose" in sys.argv) as display:
{''.join('    ' + line + chr(10) for line in STAGE.strip().splitlines())}"""


def _play(display: RunDisplay) -> None:
    with display:
        exec(STAGE.strip(), {"display": display, "sys": sys})


def test_off_a_terminal_the_lines_are_plain_and_as_before(capsys):
    _play(RunDisplay.for_terminal(io.StringIO(), io.StringIO(), verbose=False))
    captured = capsys.readouterr()
    assert captured.out.splitlines() == PLAIN_OUT
    assert captured.err.splitlines() == [WARNING, FAILURE]


def test_on_a_forced_terminal_the_stage_under_way_is_one_live_line_and_the_failure_is_last(capsys):
    screen = io.StringIO()
    _play(RunDisplay(Console(file=screen, force_terminal=True, width=160, color_system=None)))
    drawn = screen.getvalue()
    assert capsys.readouterr() == ("", "")  # everything went to the terminal's console
    assert "\x1b[?25l" in drawn  # the live display hides the cursor while it redraws its line
    assert "[kg_tables_job] ingest the KG snapshot" in drawn and "1/2" in drawn and "kg_snapshot done (0.5s)" in drawn
    assert "[kg_tables_job] kg_snapshot done (0.5s)\n" not in drawn  # no line per step: the stage's line advances
    assert "pwned" not in drawn
    # Printed above the live line, in order: the warning, the stage's success, the failure; then the live line is
    # redrawn below them and, once the display stops, erased (cursor up one line, erase the line): the failure's line
    # is the last one left on the screen.
    printed = [drawn.index(line + "\n") for line in (WARNING, "[kg_tables_job] succeeded in 3.0s (run 1234)", FAILURE)]
    assert printed == sorted(printed)
    after = drawn[drawn.index(FAILURE + "\n") + len(FAILURE) + 1:]
    assert after.count("\n") == 1 and after.endswith("\x1b[1A\x1b[2K")  # the live line, then erased


def _script(stdout, stderr, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", SCRIPT, *args], stdout=stdout, stderr=stderr)


def _on_a_terminal(*args: str) -> str:
    """What the script draws on a pseudo-terminal (its stdout and stderr)."""
    main, secondary = pty.openpty()
    process = _script(secondary, secondary, *args)
    os.close(secondary)
    drawn = b""
    while select.select([main], [], [], 60)[0]:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the terminal is closed: the script ended
            break
        if not chunk:
            break
        drawn += chunk
    os.close(main)
    assert process.wait(timeout=60) == 0
    return drawn.decode(errors="replace").replace("\r\n", "\n")


def test_on_a_pseudo_terminal_the_display_is_live_and_plain_with_verbose_or_in_a_pipe():
    live = _on_a_terminal()
    assert "\x1b[?25l" in live and "1/2" in live and "[kg_tables_job] kg_snapshot done" not in live
    assert live.endswith("\x1b[1A\x1b[2K") and FAILURE + "\n" in live
    verbose = _on_a_terminal("--verbose")
    assert "\x1b[" not in verbose
    assert verbose.splitlines() == [*PLAIN_OUT[:2], WARNING, *PLAIN_OUT[2:], FAILURE]
    piped = _script(subprocess.PIPE, subprocess.PIPE)
    out, err = piped.communicate(timeout=60)
    assert out.decode().splitlines() == PLAIN_OUT and err.decode().splitlines() == [WARNING, FAILURE]
