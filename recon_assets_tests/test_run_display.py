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

import dagster as dg
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


def test_a_failed_warn_check_is_said_to_warn_and_a_failed_error_check_to_fail(capsys):
    """New-user pass: a WARN check that did not pass (question_verdict_unchanged on a re-asked question) printed
    "asset check FAILED" while the command exited 0; a newcomer could not tell a warning from a failure. The events
    of a real run are read as `follow` reads them (`_read_events`)."""
    from recon_assets.cli.launched_runs import RunOutcome, _read_events

    @dg.asset
    def shown() -> int:
        return 1

    def check(name: str, severity: dg.AssetCheckSeverity) -> dg.AssetChecksDefinition:
        @dg.asset_check(asset=shown, name=name)
        def _check() -> dg.AssetCheckResult:
            return dg.AssetCheckResult(passed=False, severity=severity, description=f"{name} did not hold")
        return _check

    with dg.instance_for_test() as instance:
        result = dg.materialize([shown, check("soft", dg.AssetCheckSeverity.WARN), check("hard", dg.AssetCheckSeverity.ERROR)],
                                instance=instance, raise_on_error=False)
        outcome = RunOutcome(run=instance.get_run_by_id(result.run_id), seconds=0.0)
        capsys.readouterr()
        _read_events(instance, result.run_id, None, outcome, RunDisplay())
    warned = sorted(line for line in capsys.readouterr().err.splitlines() if "asset check" in line)
    assert warned == [
        "[__ephemeral_asset_job__] asset check FAILED: hard: hard did not hold",
        "[__ephemeral_asset_job__] asset check warned (severity WARN, not a failure): soft: soft did not hold",
    ]
    assert sorted(evaluation.check_name for evaluation in outcome.checks) == ["hard", "soft"]


def test_on_an_80_column_terminal_a_long_stage_leaves_room_for_the_bar_the_count_and_the_time(capsys):
    """Hostile pass (2026-12-04): the live line's description was the stage's whole sentence (`recon run`'s are
    100-200 characters), which left no bar, step count or time at any width."""
    screen = io.StringIO()
    with RunDisplay(Console(file=screen, force_terminal=True, width=80, color_system=None)) as display:
        display.stage("openalex_refresh_job", "OpenAlex (online only with OPENALEX_API_KEY) and Crossref (RECON_CROSSREF="
                      "online), judge, score and give dataset verdicts for the 22 research areas")
        display.planned(13)
        display.step_done("crossref_retractions", 1.0)
    drawn = screen.getvalue()
    assert "[openalex_refresh_job] OpenAlex (online only with OPENALEX_API_KEY)" in drawn  # the sentence, above
    live = [line for line in drawn.split("\n") if "1/13" in line]
    assert live and "0:00:0" in live[-1] and "\u2501" in live[-1]  # the count, the time and the bar, on one line
