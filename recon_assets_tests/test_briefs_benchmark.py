"""The research-brief benchmark (benchmarks/briefs_offline.py) prints every condition beside the others, the
replaced-version rule among them, each rate with its interval, and the catch by kind of case. Nothing is asserted
about the figures themselves (docs/EVALUATION.md gives them)."""

from __future__ import annotations

import json
import subprocess
import sys

from benchmarks.briefs_offline import BY_KIND, CONDITIONS, NO_CRITIC, VARIANTS, condition_rates, tables
from recon_assets.briefs.grading import MEASURES, CaseGrade
from recon_assets_tests.pipeline_runs import AS_OF, REPO_ROOT

VERSION_RULE = "version_rule_first_round"


def case_grade(case_id, kind, caught=None, false_stale=None, stale_verdict=False):
    accurate = True if kind == "version_chain" else None
    surfaced = False if kind == "dispute" else None
    return CaseGrade(case_id, kind, caught, accurate, surfaced, false_stale, 1 if kind == "version_chain" else 0, "", stale_verdict)


def test_the_tables_put_the_version_rule_beside_the_others_with_intervals():
    grades = [case_grade("q-v01", "version_chain", True, stale_verdict=True), case_grade("q-v02", "version_chain", True),
              case_grade("q-d01", "dispute"), case_grade("q-c01", "control", false_stale=False)]
    found = {name: condition_rates(grades, None if name == NO_CRITIC else [True, False, True, False]) for name in CONDITIONS}
    printed = tables(found).splitlines()
    row = next(line for line in printed if line.startswith("replaced dataset version only (first round)"))
    assert row.count("95% CI") == len(MEASURES) and "100% (2/2; 95% CI" in row and "0% (0/1; 95% CI" in row
    by_kind_row = [line for line in printed if line.startswith("replaced dataset version only")][1]
    assert by_kind_row.count("95% CI") == len(BY_KIND) and "50% (1/2; 95% CI" in by_kind_row
    assert [line for line in printed if line.startswith("retrieval without the critic")][1].count("n/a (no critic)") == 3
    assert set(VARIANTS) | {NO_CRITIC} == set(CONDITIONS)


def test_the_benchmark_prints_the_version_rule_rows_on_the_sample(sample_run):
    result = subprocess.run(
        [sys.executable, "benchmarks/briefs_offline.py", "--db", str(sample_run.database), "--as-of", AS_OF],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=900, check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    report = json.loads(result.stdout)
    version_rule = report["conditions"][VERSION_RULE]
    for measure in (*MEASURES, *(key for key, _ in BY_KIND)):
        assert "95% CI" in version_rule[measure], (measure, version_rule[measure])
    assert all(row["version_rule_first_round"] for row in report["questions"])
    rows = [line for line in result.stderr.splitlines() if line.startswith(tuple(CONDITIONS.values()))]
    assert len(rows) == 2 * len(CONDITIONS)
    assert [line for line in rows if line.startswith(CONDITIONS[VERSION_RULE])][0].count("95% CI") == len(MEASURES)
