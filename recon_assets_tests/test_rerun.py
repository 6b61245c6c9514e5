"""`recon run`'s refusals of unusable input before any run, its help, and the lines of its summary.

A second `recon run` on an unchanged snapshot and config redoes no ingest and no judging, and says so: that test is
in test_end_to_end (`test_recon_installed_from_its_wheel_runs_the_sample_and_explains_a_doi`), on the installed
wheel's run of the sample, which was the first of its three runs here (issue 23, suite time: one `recon run` fewer)."""

import os
import re
import subprocess
import sys

import dagster as dg
import pytest

from recon_assets_tests.pipeline_runs import SAMPLE_JSONL


def recon_refusal(arguments, variables, capsys, monkeypatch) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of `recon run` with `arguments` called in this process (`main`, as the console
    entry point calls it: no Python and Dagster start-up per case), this process's environment plus `variables`; the
    environment is restored after (the pre-check writes RECON_KG_PATH and RECON_DB_PATH). A refusal comes before any
    run: reaching the launch of the jobs fails the test at once instead of running the pipeline."""
    from recon_assets.cli import run as run_module
    from recon_assets.cli.main import main

    def launched(*_args, **_kwargs):
        raise AssertionError(f"`recon run {' '.join(arguments)}` with {variables} was not refused before its runs")

    saved = dict(os.environ)
    capsys.readouterr()
    try:
        os.environ.update(variables)
        with monkeypatch.context() as patched:
            patched.setattr(run_module, "_run_jobs", launched)
            try:
                code = main(["run", *arguments])
            except SystemExit as exited:  # argparse
                code = exited.code
    finally:
        os.environ.clear()
        os.environ.update(saved)
    shown = capsys.readouterr()
    return code, shown.out, shown.err


def unwrapped(text: str) -> str:
    """Plain output as printed before wrapping: continuation lines (4 spaces, shared/display.wrapped) joined back."""
    return re.sub(r"\n {4}(?=\S)", " ", text)


def test_unusable_inputs_exit_2_with_one_line_before_any_run(tmp_path, capsys, monkeypatch):
    empty = tmp_path / "empty.json"
    empty.write_text("")
    loop = tmp_path / "loop"
    loop.symlink_to(tmp_path / "loop-back")
    (tmp_path / "loop-back").symlink_to(loop)
    cases = [
        # Hostile pass: --kg or --db at a symbolic-link loop ended in a traceback (RECON_KG_PATH had its one line).
        (["--kg", str(loop)], {}, f"error: --kg {loop} is a symbolic-link loop: point it at a file"),
        ([], {"RECON_KG_PATH": str(loop)}, f"error: cannot read KG export {loop}: Too many levels of symbolic links"),
        (["--db", str(loop)], {}, f"error: --db {loop} is a symbolic-link loop: point it at a file"),
        (["--kg", str(empty)], {}, f"error: KG export {empty} is empty"),
        ([], {"RECON_OPENALEX": "bogus"}, "error: RECON_OPENALEX must be 'online', 'offline' or unset, got 'bogus'"),
        # Hostile finding: a bad RECON_GROQ was only read when the definitions loaded, and ended in a traceback.
        ([], {"RECON_GROQ": "bogus"}, "error: RECON_GROQ must be 'online', 'offline' or unset, got 'bogus'"),
        # Review finding: a misspelt RECON_CROSSREF left Crossref offline, a misspelt RECON_KG_SOURCE read the sample.
        ([], {"RECON_CROSSREF": "yes"}, "error: RECON_CROSSREF must be 'online', 'offline' or unset, got 'yes'"),
        ([], {"RECON_KG_SOURCE": "hf"}, "error: RECON_KG_SOURCE must be 'local', 'huggingface' or unset, got 'hf'"),
        ([], {"RECON_AS_OF": "2026-13-01"}, "error: as_of '2026-13-01' from RECON_AS_OF is not a calendar date (month must be in 1..12)"),
        # New-user finding: argparse printed its usage and "invalid fromisoformat value" for --as-of.
        (["--as-of", "2026-13-01"], {}, "error: as_of '2026-13-01' from --as-of is not a calendar date (month must be in 1..12)"),
        # Review finding: Python's date.fromisoformat took a basic-format date and an ISO week date as well.
        (["--as-of", "20260101"], {}, "error: as_of must be a date YYYY-MM-DD, got '20260101' from --as-of"),
        ([], {"RECON_AS_OF": "2026-W01-1"}, "error: as_of must be a date YYYY-MM-DD, got '2026-W01-1' from RECON_AS_OF"),
        # Left from an earlier hostile pass: year 1 passed the pre-check.
        (["--as-of", "0001-01-01"], {}, "error: as_of 0001-01-01 from --as-of is before 1950-01-01, the earliest as_of scored "
         "(no NASA Earth-observation dataset existed before the satellite era): give a later date"),
        # Hostile findings: an empty --as-of fell back to RECON_AS_OF or today; a key typed into a switch was quoted.
        (["--as-of", ""], {}, "error: as_of must be a date YYYY-MM-DD, got '' from --as-of"),
        ([], {"RECON_OPENALEX": "oa_9f8e7d6c5b4a3210fedcba9876543210"},
         "error: RECON_OPENALEX must be 'online', 'offline' or unset, got a value of 35 characters (not shown: it may be a key)"),
        # Final hostile pass: a key in RECON_POOL_WAIT_SECONDS was quoted whole; --kg was ignored beside
        # RECON_KG_SOURCE=huggingface; --db d/reports ran the whole pipeline and failed writing the report into itself.
        ([], {"RECON_POOL_WAIT_SECONDS": "oa_LIVEKEY_7c1d9e2f44aa0b1c2d3e4f5a6b7c8d9e"},
         "error: RECON_POOL_WAIT_SECONDS must be a positive number of seconds, got a value of 43 characters (not shown: it may be a key)"),
        (["--kg", str(SAMPLE_JSONL)], {"RECON_KG_SOURCE": "huggingface"},
         "error: --kg / RECON_KG_PATH names a file while RECON_KG_SOURCE=huggingface reads the KG from Hugging Face: give one"),
        # Noted by the last hostile pass: a bad RECON_DUCKDB_MEMORY_LIMIT ended the first step in DuckDB's parser error.
        ([], {"RECON_DUCKDB_MEMORY_LIMIT": "lots"},
         "error: RECON_DUCKDB_MEMORY_LIMIT must be a DuckDB memory size such as '3GB' or '2GiB', got 'lots'"),
        # Hostile pass: 1KB died in the first step with DuckDB's OutOfMemoryException; -1GB lifted the cap silently.
        ([], {"RECON_DUCKDB_MEMORY_LIMIT": "1KB"}, "error: RECON_DUCKDB_MEMORY_LIMIT must be at least 256MB (docs/CONFIGURATION.md), got '1KB'"),
        ([], {"RECON_DUCKDB_MEMORY_LIMIT": "-1GB"},
         "error: RECON_DUCKDB_MEMORY_LIMIT must not be negative (DuckDB would read '-1GB' as no limit at all): give a size such as '3GB'"),
        (["--db", str(tmp_path / "reports")], {},
         f"error: the reports and exports of --db {tmp_path / 'reports'} go into {tmp_path / 'reports' / 'reports'}, but "
         f"{tmp_path / 'reports'} is that database file: rename one"),
    ]
    # The first case through the console entry point (`python -m recon_assets.cli.main`, a process of its own), the
    # others through `main` in this process: the same refusal line and exit status, without a start-up each.
    (arguments, variables, message), *others = cases
    env = {**os.environ, "DAGSTER_HOME": str(tmp_path / "home"), **variables}
    command = [sys.executable, "-m", "recon_assets.cli.main", "run", "--db", str(tmp_path / "x.duckdb"), *arguments]
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
    assert (result.returncode, result.stderr.strip()) == (2, message)
    assert not (tmp_path / "home").exists()  # refused before Dagster was started
    for arguments, variables, message in others:
        code, _, err = recon_refusal(
            ["--db", str(tmp_path / "x.duckdb"), *arguments], {"DAGSTER_HOME": str(tmp_path / "home"), **variables}, capsys, monkeypatch,
        )
        assert (code, err.strip()) == (2, message)
        assert not (tmp_path / "home").exists()  # refused before Dagster was started


def test_an_as_of_after_today_is_refused_in_one_line_before_any_run(tmp_path, capsys, monkeypatch):
    """New-user finding: `--as-of 2030-01-01` scored as of a day to come without a word; it was then warned about and
    run. A reliability as of a day to come has no evidence yet: `--as-of` or RECON_AS_OF after today is refused in one
    line, exit 2, before Dagster is started (the KG file, empty here, is not even read)."""
    empty = tmp_path / "empty.json"
    empty.write_text("")
    command = ["--db", str(tmp_path / "x.duckdb"), "--kg", str(empty)]
    for arguments, variables, source in (
        (["--as-of", "9999-12-31"], {}, "--as-of"), ([], {"RECON_AS_OF": "9999-12-31"}, "RECON_AS_OF"),
    ):
        code, out, err = recon_refusal([*command, *arguments], {"DAGSTER_HOME": str(tmp_path / "home"), **variables}, capsys, monkeypatch)
        assert code == 2 and out == "", err
        assert re.fullmatch(
            rf"error: as_of 9999-12-31 from {source} is after today \(\d{{4}}-\d\d-\d\d\): a reliability as of a day to come "
            r"has no evidence yet; give today or an earlier date\n", err,
        ), err
        assert not (tmp_path / "home").exists()


def test_today_by_either_clock_is_not_after_today():
    """The local date (a command's default as_of) and the UTC date (a run's default) are both today."""
    from datetime import date, datetime, timedelta, timezone

    from recon_assets.cli.launch_checks import as_of_not_after_today

    for today in (date.today(), datetime.now(timezone.utc).date()):
        assert as_of_not_after_today(today, source="--as-of") == today
    latest = max(date.today(), datetime.now(timezone.utc).date())
    with pytest.raises(ValueError, match=f"as_of {latest + timedelta(days=1)} from RECON_AS_OF is after today"):
        as_of_not_after_today(latest + timedelta(days=1), source="RECON_AS_OF")


def test_run_help_names_the_environment_and_the_exit_statuses(capsys):
    """New-user finding: `recon run --help` named only its three flags; the variables and exit statuses were in the
    README alone."""
    from recon_assets.cli.main import main

    with pytest.raises(SystemExit) as done:
        main(["run", "--help"])
    assert done.value.code == 0
    shown = capsys.readouterr().out
    for name in ("RECON_KG_PATH", "RECON_DB_PATH", "RECON_AS_OF", "RECON_KG_SOURCE", "OPENALEX_API_KEY", "RECON_CROSSREF", "GROQ_API_KEY", "RECON_ALLOW_PLAIN_HTTP",
                 "DAGSTER_HOME"):
        assert name in shown
    assert "exit status: 0 done; 1 a step or an asset check of severity ERROR failed; 2 unusable input" in shown
    assert "a bad date or one after today" in shown and "130 interrupted (Ctrl-C: the run under way is terminated)" in shown


def test_a_report_folder_taken_by_a_file_is_refused_before_any_run(tmp_path, capsys, monkeypatch):
    """A database d/reports/x.duckdb is exactly the report folder of d/x.duckdb (reports go into
    `<folder>/reports/<file name>/`): refused in one line, exit 2, instead of failing the report step at the end."""
    (tmp_path / "reports").mkdir()
    (tmp_path / "reports" / "x.duckdb").write_bytes(b"")
    code, _, err = recon_refusal(["--db", str(tmp_path / "x.duckdb")], {"DAGSTER_HOME": str(tmp_path / "home")}, capsys, monkeypatch)
    assert (code, err.strip()) == (
        2, f"error: the reports and exports of --db {tmp_path / 'x.duckdb'} go into {tmp_path / 'reports' / 'x.duckdb'}, but "
           f"{tmp_path / 'reports' / 'x.duckdb'} is a file: rename one",
    )


def test_a_bad_keep_outputs_setting_is_refused_before_any_run(tmp_path, capsys, monkeypatch):
    variables = {"DAGSTER_HOME": str(tmp_path / "home"), "RECON_KEEP_OUTPUTS": "-1"}
    code, _, err = recon_refusal(["--db", str(tmp_path / "x.duckdb")], variables, capsys, monkeypatch)
    assert code == 2 and err.strip().startswith("error: RECON_KEEP_OUTPUTS must be a whole number")
    assert not (tmp_path / "home").exists()


def test_the_targets_line_names_each_met_target_with_its_figure_as_well_as_each_missed_one():
    """New-user finding: 'targets (default, I cases): 3 met, 2 missed: ...' named only the missed ones."""
    import pandas as pd

    from recon_assets.cli.run import targets_line

    targets = pd.DataFrame([
        {"condition": "offline", "measure": "staleness_catch", "target": ">= 80%", "bound": 0.8, "value": 0.87, "status": "met"},
        {"condition": "offline", "measure": "roc_auc", "target": ">= lifecycle_only", "bound": 0.36, "value": 0.21, "status": "missed"},
        {"condition": "online", "measure": "staleness_catch", "target": ">= 80%", "bound": 0.8, "value": float("nan"), "status": "not measured"},
    ])
    assert targets_line(targets) == (
        "targets (default, I cases): 1 met: offline staleness_catch 87% against >= 80%; 1 missed: offline roc_auc 0.21 "
        "against >= lifecycle_only 0.36; 1 not measured"
    )
    tie = {"condition": "offline", "measure": "staleness_catch", "target": ">= lifecycle_only", "bound": 0.0, "value": 0.0, "status": "tied at zero"}
    assert targets_line(pd.DataFrame([tie])) == (
        "targets (default, I cases): 0 met; 1 tied at zero (neither rule flags a case: no evidence either way): offline "
        "staleness_catch 0% against >= lifecycle_only 0%; 0 missed; 0 not measured"
    )  # new-user finding: '1 met: offline staleness_catch 0% against >= lifecycle_only 0%' read as gaming the target


def test_the_summary_says_when_the_llm_judge_was_unavailable_and_over_how_many_cases_online():
    """New-user finding (issue 24): a wrong GROQ_BASE_URL left every pair to the offline judge and the summary never
    said so; and the online figures now run over the cases with a citation record as of as_of (issue 20)."""
    from recon_assets.cli.run import _judging_lines, evaluation_lines

    reason = "unavailable: cannot connect to https://127.0.0.1:9: [Errno 111] Connection refused; 129 pairs kept the offline judge's verdict"
    judged = {"run/research_areas_judged": 22}
    down = {"coherence_judgements": dg.AssetMaterialization("coherence_judgements", metadata={**judged, "run/llm_judge": reason})}
    assert _judging_lines(down) == ["judging: 22 research area(s) judged", f"LLM judge {reason}"]
    offline = {"coherence_judgements": dg.AssetMaterialization("coherence_judgements", metadata={**judged, "run/llm_judge": "offline"})}
    assert _judging_lines(offline) == ["judging: 22 research area(s) judged"]
    assert _judging_lines({}) == []
    # Read from the table, not the run's metadata: an unchanged re-run (nothing evaluated again) said it too. The base
    # rate stands apart, over every scored edge: on one line with the case figures it read as over the 7 cases.
    evaluation = [("online", "staleness_catch", 3, 5), ("online", "base_rate", 101, 189), ("offline", "staleness_catch", 46, 53)]
    assert evaluation_lines(evaluation, 7) == [
        "evaluation on the labelled I and F cases, offline (default settings): superseded versions flagged 46/53",
        "evaluation on the labelled I and F cases, online, over the 7 with a citation record as of as_of (default settings): "
        "superseded versions flagged 3/5; over every scored edge: all edges flagged (base rate) 101/189",
    ]


def test_the_baselines_are_a_table_of_short_lines_with_each_rule_s_figure_and_difference():
    """Issue 23: the baseline block printed 19 lines of 256-283 characters, each figure with its node counts and both
    intervals. Now a table: a column per rule, the figure with its cases, and on a baseline the default minus it with
    its node-resampling interval (percentage points for a rate, decimals for an ROC AUC); a measure no rule measured,
    and the base rate (its own line), are left out."""
    import pandas as pd

    from recon_assets.cli.run import baseline_lines

    def row(measure, rule, value, n=None, d=None, difference=None, low=None, high=None):
        return {"condition": "offline", "split": "all", "case_set": "I", "measure": measure, "rule": rule, "value": value,
                "numerator": n, "denominator": d, "difference": difference, "difference_ci_low": low, "difference_ci_high": high}

    nan = float("nan")
    comparisons = pd.DataFrame([
        row("staleness_catch", "default", 46 / 53, 46, 53),
        row("staleness_catch", "lifecycle_only", 46 / 53, 46, 53, 0.0, 0.0, 0.0),
        row("staleness_catch", "age_only", 40 / 53, 40, 53, 0.113, -0.15, 0.33),
        row("staleness_catch", "flag_everything", 1.0, 53, 53, -0.13, -0.31, 0.0),
        row("roc_auc", "default", 0.21),
        row("roc_auc", "lifecycle_only", 0.36, difference=-0.14, low=-0.25, high=-0.04),
        row("base_rate", "default", 101 / 189, 101, 189),
        row("current_flagged", "default", nan, 0, 0),
    ])
    lines = baseline_lines(comparisons)
    assert [line.split() for line in lines[2:]] == [
        ["measure", "default", "lifecycle_only", "age_only", "flag_everything"],
        ["offline", "I", "staleness_catch", "87%", "46/53", "87%", "46/53", "+0", "(+0", "to", "+0)", "75%", "40/53", "+11",
         "(-15", "to", "+33)", "100%", "53/53", "-13", "(-31", "to", "+0)"],
        ["offline", "I", "roc_auc", "0.21", "0.36", "-0.14", "(-0.25", "to", "-0.04)", "n/a", "n/a"],
    ]
    assert max(len(line) for line in lines) <= 150
    assert baseline_lines(comparisons[comparisons["measure"] == "current_flagged"]) == []


@pytest.mark.parametrize("command", ["explain", "paper", "ask", "brief"])
def test_every_command_s_help_describes_it_and_its_exit_statuses(command, capsys):
    """Noted in the new-user pass (2026-12-03): `recon ask --help` and `recon paper --help` gave no exit statuses and
    `recon brief --help` no description."""
    from recon_assets.cli.main import main

    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    assert done.value.code == 0
    usage, description, *rest = capsys.readouterr().out.split("\n\n")
    assert description.strip() and not description.startswith(("positional", "options"))
    epilog = " ".join(rest[-1].split())
    assert epilog.startswith("exit status: 0 ") and " 2 unusable input" in epilog


@pytest.mark.parametrize("command", [[], ["run"], ["explain"], ["paper"], ["ask"], ["brief"]])
def test_help_shows_no_markdown(command, capsys):
    """New-user pass (2026-12-04): `recon --help` opened with "`recon`:", the module docstring's Markdown."""
    from recon_assets.cli.main import main

    with pytest.raises(SystemExit):
        main([*command, "--help"])
    assert "`" not in capsys.readouterr().out


def test_a_db_link_to_a_missing_folder_is_refused_and_no_folder_is_made(tmp_path, capsys, monkeypatch):
    """Hostile pass (2026-12-04): `--db` a symbolic link to /nonexistent/x.duckdb ran, making /nonexistent/ with the
    database and its reports/ and exports/ at the link's target, anywhere on the machine."""
    link, target = tmp_path / "dangling.duckdb", tmp_path / "missing" / "x.duckdb"
    link.symlink_to(target)
    code, _, err = recon_refusal(["--db", str(link)], {"RECON_KG_PATH": "", "RECON_AS_OF": ""}, capsys, monkeypatch)
    assert code == 2
    assert err == f"error: --db {link} is a link to {target}, whose folder does not exist: create it, or give another --db\n"
    assert not target.parent.exists()


def test_an_asset_still_stale_after_its_own_run_is_named_with_why_and_not_launched_again(tmp_path, monkeypatch, capsys):
    """Hostile pass (2026-12-04): two --db files on one DAGSTER_HOME, run at once, each said 'still stale after its
    own run' of assets the other's run had materialized since, with no reason: now the first cause is said."""
    import dagster as dg

    from recon_assets.automation.staleness import DATABASE, STALE, Cause, Freshness
    from recon_assets.cli import run as run_module
    from recon_assets_tests.pipeline_runs import SAMPLE_JSONL, pipeline_defs

    database = tmp_path / "r.duckdb"
    why = "materialized for another database (/data/c.db)"
    stale = [Freshness(dg.AssetKey("reliability_evaluation"), None, STALE, (Cause(DATABASE, why),))]
    monkeypatch.setattr(run_module, "freshness", lambda *_args, **_kwargs: stale)
    with dg.instance_for_test(temp_dir=str(tmp_path)) as instance:
        plan = run_module._StalePlan(pipeline_defs(SAMPLE_JSONL, database), instance, database)
        assert plan.launches("reliability_evaluation_job")  # launched once
        capsys.readouterr()
        assert plan.launches("reliability_evaluation_job") == []  # and not again
    assert capsys.readouterr().err == (
        f"[reliability_evaluation_job] still stale after its own run, not launched again: reliability_evaluation ({why})\n"
    )


def test_a_job_launched_as_several_runs_numbers_each_and_one_run_says_no_count():
    """Hostile pass (2026-12-04): a re-run launched openalex_refresh_job as three runs (one per range of stale
    research areas), and each said it would do the work "in one run"."""
    from recon_assets.cli.run import stage_line

    assert stage_line("judge and score", "as_of changed", 1, 1) == "judge and score: as_of changed"
    assert [stage_line("judge and score", "as_of changed", n, 3) for n in (1, 3)] == [
        "judge and score: as_of changed (run 1 of 3)", "judge and score: as_of changed (run 3 of 3)",
    ]


def test_each_run_of_a_job_launched_per_range_of_areas_gives_its_own_areas_reasons(tmp_path, monkeypatch):
    """Hostile pass (2026-12-05): two stale areas apart launched two runs, and the agriculture run's line gave the
    droughts partition's reason ('... new data version (droughts)) for research area agriculture (run 1 of 2)')."""
    import dagster as dg

    from recon_assets.automation.staleness import DATABASE, STALE, Cause, Freshness
    from recon_assets.cli import run as run_module
    from recon_assets_tests.pipeline_runs import SAMPLE_JSONL, pipeline_defs

    database = tmp_path / "r.duckdb"
    stale = [
        Freshness(dg.AssetKey("dataset_verdicts"), area, STALE, (Cause(DATABASE, f"input changed ({area})"),))
        for area in ("agriculture", "droughts")
    ]
    monkeypatch.setattr(run_module, "freshness", lambda *_args, **_kwargs: stale)
    with dg.instance_for_test(temp_dir=str(tmp_path)) as instance:
        plan = run_module._StalePlan(pipeline_defs(SAMPLE_JSONL, database), instance, database)
        whys = [why for _ops, _tags, why in plan.launches("openalex_refresh_job")]
    assert whys == [
        "dataset_verdicts (input changed (agriculture)) for research area agriculture",
        "dataset_verdicts (input changed (droughts)) for research area droughts",
    ]
