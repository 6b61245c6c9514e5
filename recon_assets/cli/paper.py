"""`recon paper PATH|DOI`: analyse one paper now, through the instance and the code location as `recon run` launches
its jobs (`launched_runs`): the paper's partition is added to `papers` (the SHA-256 of the PDF, or doi:<DOI>), a run
of `paper_analysis_job` is launched for it and followed, then its datasets with their lifecycle, its scores, any stage
that failed and the report's path are printed from the database.

Exit status: 0 analysed (an optional stage may have failed: said); 1 the run failed (the paper cannot be read: its
one line); 2 unusable input before any run (neither a file nor a DOI, no database).
"""

import os
import sys
import tempfile
from pathlib import Path

import dagster as dg

from recon_assets.cli.instance_health import host_tags
from recon_assets.cli.launched_runs import LaunchError, follow, launch
from recon_assets.cli.progress import RunDisplay
from recon_assets.cli.run import RUN_CONFIG, _failures, _open_instance
from recon_assets.papers.intake import doi_key, pdf_key
from recon_assets.papers.partitions import PAPER_SOURCE_TAG, PAPERS_PARTITIONS
from recon_assets.shared.credentials import redact
from recon_assets.shared.display import terminal_text
from recon_assets.shared.paths import database_path, resolved
from recon_assets.storage.duckdb_settings import is_motherduck
from recon_assets.storage.duckdb_store import read_only

PAPER_JOB = "paper_analysis_job"
# Dagster's tag naming the partition of a launched run (what the UI's "Materialize" of one partition sets).
PARTITION_TAG = "dagster/partition"


def analyse_paper(source: str, db: Path | None, verbose: bool = False) -> int:
    """Analyse the PDF at `source`, or the paper with DOI `source`, against the database's graph; print the summary.

    Returns:
        0, 1 or 2 (module docstring).
    """
    path = Path(source)
    if path.is_file():
        key, given = pdf_key(path.read_bytes()), str(resolved(path, "PATH"))
    elif doi_key(source):
        key, given = doi_key(source), source
    else:
        return _refuse(f"{source} is neither a file nor a DOI")
    if db is not None:
        os.environ["RECON_DB_PATH"] = str(db if is_motherduck(db) else resolved(db, "--db"))
    database = database_path()
    if not is_motherduck(database) and not database.is_file():
        return _refuse(f"no database at {database}: run `recon run` first (a paper is matched against its graph)")
    home, instance = _open_instance()
    if not instance.has_dynamic_partition(PAPERS_PARTITIONS, key):
        instance.add_dynamic_partitions(PAPERS_PARTITIONS, [key])
    print(terminal_text(f"[{PAPER_JOB}] paper {key} ({given}) ..."), flush=True)
    with tempfile.TemporaryDirectory(prefix="recon-paper-") as consoles:
        launched = launch(PAPER_JOB, {PARTITION_TAG: key, PAPER_SOURCE_TAG: given, **host_tags()}, RUN_CONFIG, Path(consoles) / "paper.log")
        try:
            with RunDisplay.for_terminal(sys.stdout, sys.stderr, verbose=verbose) as display:
                outcome = follow(instance, launched, display=display, console=sys.stderr if verbose else None)
        except LaunchError as error:
            print(f"error: [{PAPER_JOB}] Dagster did not launch the run: {terminal_text(redact(error))}", file=sys.stderr)
            return 1
        if outcome.run.status != dg.DagsterRunStatus.SUCCESS:
            failures = "; ".join(_plain(line) for line in _failures(outcome, database, launched.output))
            print(f"error: [{PAPER_JOB}] {failures} (run {outcome.run.run_id}; DAGSTER_HOME={home})", file=sys.stderr)
            return 1
    report = outcome.materializations.get("paper_reports")
    _print_summary(database, key, report.metadata if report is not None else {})
    return 0


def _print_summary(database: Path, key: str, report: dict) -> None:
    """The paper's datasets with their lifecycle (unmatched ones with why), scores, failed stages and report files."""
    with read_only(str(database)) as con:
        datasets = con.execute(
            "SELECT matched, name, coalesce(stated_version, version, '') AS version, found_by, page, lifecycle, reason "
            "FROM paper_datasets WHERE paper_key = ? ORDER BY position", [key],
        ).fetchall()
        scores = con.execute("SELECT score, value, how FROM paper_scores WHERE paper_key = ?", [key]).fetchall()
        failures = con.execute("SELECT stage, error FROM paper_stage_failures WHERE paper_key = ? ORDER BY stage", [key]).fetchall()
    lines = [f"datasets ({sum(row[0] for row in datasets)} matched, {sum(not row[0] for row in datasets)} unmatched):"]
    lines += [
        f"  {name} {version} ({found_by}, p. {page}): {lifecycle}" if matched else f"  unmatched: {name} {version} (p. {page}): {reason}"
        for matched, name, version, found_by, page, lifecycle, reason in datasets
    ] or ["  none found"]
    lines.append("scores:")
    lines += [f"  {score}: {how}" if value is None else f"  {score}: {value:.2f} ({how})" for score, value, how in scores]
    lines += [f"stage failed: {stage}: {error}" for stage, error in failures]
    if "html" in report:
        lines.append(f"report: {report['html'].value} and {report['pdf'].value}")
    else:
        lines.append("report: not written (see the failed stage above)")
    # the paper's own text (names, quotes) is shown as data: no control character reaches the terminal
    print("\n".join(terminal_text(line) for line in lines), flush=True)


def _plain(line: str) -> str:
    """A step failure's line without the class path Dagster puts before a `dg.Failure`'s description."""
    return line.replace("dagster._core.definitions.events.Failure: ", "")


def _refuse(message: str) -> int:
    print(terminal_text(f"error: recon paper: {redact(message)}"), file=sys.stderr)
    return 2
