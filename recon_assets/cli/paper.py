"""`recon paper PATH|DOI`: analyse one paper now, through the instance and the code location as `recon run` launches
its jobs (`launched_runs`): the paper's partition is added to `papers` (the SHA-256 of the PDF, or doi:<DOI>), a run
of `paper_analysis_job` is launched for it and followed, then its datasets with their lifecycle, its scores, any stage
that failed and the report's path are printed from the database.

The run's progress is `recon run`'s: a line naming the stage (`[paper_analysis_job] paper <key> (<source>)`), one
per step as it completes (`[paper_analysis_job] paper_documents done (1.6s)`) and one when the run succeeded.

Exit status: 0 analysed (an optional stage may have failed: said); 1 the run failed (a PDF that cannot be parsed
included), in one line; 2 unusable input, said in one line before any run is launched: neither a file nor a DOI, a
file that is empty or has no %PDF- header, a DOI that is no publication of the graph while OpenAlex is offline, no database, or what `recon run`
refuses before its runs (`launch_checks.check_launch`: RECON_PAPERS_ONLINE or another switch that is not a switch
word, a key that would go over plain HTTP, a setting breaking its rule); 130 Ctrl-C (the run under way is terminated,
as by `recon run`).
"""

import os
import sys
import tempfile
from pathlib import Path

import dagster as dg
import duckdb

from recon_assets.cli.instance_health import host_tags
from recon_assets.cli.launch_checks import PreflightError, check_launch
from recon_assets.cli.interrupts import interrupted
from recon_assets.cli.launched_runs import (
    RUN_CONFIG, CodeServer, InstanceUnusable, LaunchError, follow, instance_for_launches, launch, run_failures,
)
from recon_assets.cli.progress import RunDisplay
from recon_assets.enrichment.resources import openalex_offline_from_env
from recon_assets.papers.intake import doi_key, key_doi, pdf_key
from recon_assets.papers.parse import UnreadablePaper, check_pdf_header
from recon_assets.papers.partitions import PAPER_SOURCE_TAG, PAPERS_PARTITIONS
from recon_assets.shared.credentials import redact
from recon_assets.shared.display import first_line, terminal_text
from recon_assets.shared.paths import database_path, resolved
from recon_assets.shared.sql_files import load_sql
from recon_assets.storage.duckdb_settings import is_motherduck
from recon_assets.storage.duckdb_files import UnreadableDatabase, read_only, readable
from recon_assets.storage.tables import table_exists

PAPER_JOB = "paper_analysis_job"
# Dagster's tag naming the partition of a launched run (what the UI's "Materialize" of one partition sets).
PARTITION_TAG = "dagster/partition"


def analyse_paper(source: str, db: Path | None, verbose: bool = False) -> int:
    """Analyse the PDF at `source`, or the paper with DOI `source`, against the database's graph; print the summary.

    Returns:
        0, 1, 2 or 130 (module docstring).
    """
    try:
        return _analyse_paper(source, db, verbose)
    except KeyboardInterrupt:
        if verbose:
            raise
        return interrupted()


def _analyse_paper(source: str, db: Path | None, verbose: bool) -> int:
    path, data = Path(source), None
    try:
        is_file = path.is_file()
    except OSError as error:  # a name too long (a long DOI too) or a folder that cannot be searched
        if not doi_key(source):
            return _refuse(f"cannot read {source[:200]}: {error.strerror or error}")
        is_file = False
    if is_file:
        data = path.read_bytes()
        key, given = pdf_key(data), str(resolved(path, "PATH"))
    elif doi_key(source):
        key, given = doi_key(source), source
    else:
        return _refuse(f"{source} is neither a file nor a DOI")
    tags = {PARTITION_TAG: key, PAPER_SOURCE_TAG: given, **host_tags()}
    try:  # a symbolic-link loop (--db, RECON_DB_PATH) is its one error line (ValueError), as in `recon run`
        if db is not None:
            os.environ["RECON_DB_PATH"] = str(db if is_motherduck(db) else resolved(db, "--db"))
        database = database_path()
        check_launch(database, tags)  # what `recon run` refuses before a run: the environment and the settings' rules
    except (PreflightError, ValueError) as error:
        return _refuse(str(error))
    if problem := _unusable_graph(database, key_doi(key)):
        return _refuse(problem)
    if data is not None:
        try:  # no %PDF- header: the run's paper_documents step would fail on it; said now
            check_pdf_header(data)
        except UnreadablePaper as error:
            return _refuse(str(error))
    try:
        home, instance = instance_for_launches()
    except InstanceUnusable as error:
        return _refuse(str(error))
    if not instance.has_dynamic_partition(PAPERS_PARTITIONS, key):
        instance.add_dynamic_partitions(PAPERS_PARTITIONS, [key])
    with tempfile.TemporaryDirectory(prefix="recon-paper-") as consoles, CodeServer(Path(consoles)) as server:
        try:
            launched = launch(PAPER_JOB, tags, RUN_CONFIG, Path(consoles) / "paper.log", server)
            with RunDisplay.for_terminal(sys.stdout, sys.stderr, verbose=verbose) as display:
                display.stage(PAPER_JOB, f"paper {key} ({given})")  # names the stage on each step's line
                outcome = follow(instance, launched, display=display, console=sys.stderr if verbose else None)
                if outcome.run.status == dg.DagsterRunStatus.SUCCESS:
                    display.stage_done(f"[{PAPER_JOB}] succeeded in {outcome.seconds:.1f}s (run {outcome.run.run_id})")
        except LaunchError as error:
            print(f"error: [{PAPER_JOB}] Dagster did not launch the run: {terminal_text(redact(error))}", file=sys.stderr)
            return 1
        if outcome.run.status != dg.DagsterRunStatus.SUCCESS:
            failures = "; ".join(run_failures(outcome, database, launched))
            print(f"error: [{PAPER_JOB}] {failures} (run {outcome.run.run_id}; DAGSTER_HOME={home})", file=sys.stderr)
            return 1
    report = outcome.materializations.get("paper_reports")
    _print_summary(database, key, report.metadata if report is not None else {})
    return 0


def _print_summary(database: Path, key: str, report: dict) -> None:
    """The paper's datasets with their lifecycle (unmatched ones with why), scores, failed stages, what was sent online
    (requests and tokens per service, from paper_llm_use) and report files."""
    with read_only(str(database)) as con:
        datasets = con.execute(load_sql("paper_summary_datasets"), [key]).fetchall()
        scores = con.execute(load_sql("paper_summary_scores"), [key]).fetchall()
        failures = con.execute(load_sql("paper_summary_failures"), [key]).fetchall()
        # written by paper_claims, an optional stage: absent when it failed on a database's first paper
        recorded = table_exists(con, "paper_llm_use")
        sent = con.execute(load_sql("paper_summary_sent"), [key]).fetchall() if recorded else []
        unsent = con.execute(load_sql("paper_summary_unsent"), [key]).fetchone() if recorded else None
    lines = [f"datasets ({sum(row[0] for row in datasets)} matched, {sum(not row[0] for row in datasets)} unmatched):"]
    lines += [
        f"  {_named(name, version)} ({found_by}, p. {page}): {lifecycle}" if matched
        # a version the graph lacks still has its lifecycle (replaced or current) when the family's rules give one
        else f"  unmatched: {_named(name, version)} (p. {page}): {reason}" + (f"; {lifecycle}" if lifecycle else "")
        for matched, name, version, found_by, page, lifecycle, reason in datasets
    ] or ["  none found"]
    lines.append("scores:")
    lines += [f"  {score}: {how}" if value is None else f"  {score}: {value:.2f} ({how})" for score, value, how in scores]
    lines += [f"stage failed: {stage}: {error}" for stage, error in failures]
    # issue 22: requests and tokens per paper online, and what was sent where (the report's table has every stage)
    # attempted: a request that failed (no connection, an HTTP error) counts too; tokens are those answered
    lines += [f"sent online: {service}: {requests} request(s) attempted, {tokens:,} token(s) answered ({stages})"
              for service, requests, tokens, stages in sent]
    if not sent:
        lines.append(f"sent online: nothing ({unsent[0].split(': ', 1)[1] if unsent else 'no online stage recorded its use'})")
    if "html" in report:
        lines.append(f"report: {report['html'].value} and {report['pdf'].value}")
    else:
        lines.append("report: not written (see the failed stage above)")
    # the paper's own text (names, quotes) is shown as data: no control character reaches the terminal
    print("\n".join(terminal_text(line) for line in lines), flush=True)


def _named(name: str, version: str) -> str:
    """'MCD15A2H 006', or the name alone when no version was stated."""
    return f"{name} {version}" if version else name


def _unusable_graph(database: Path, doi: str | None) -> str | None:
    """Why the paper cannot be analysed against `database`'s graph, before any run is launched (the run's steps would
    fail on it, after writing the paper's first tables into the file): what `duckdb_files.database_problem` finds for
    the graph's `datasets` and `publications` tables; and for a paper given by DOI `doi`, a DOI no publication of the
    graph has while OpenAlex, which the run's paper_documents step would ask for it, is offline. None when it can.
    The database is opened once, checked and read, and closed before the run writes it."""
    try:  # opened once: checked (`duckdb_files.database_problem`'s line when unusable), then read
        with readable(database, ("datasets", "publications"), "graph") as con:
            if doi is None or not openalex_offline_from_env():  # online, the run's paper_documents step asks OpenAlex for it
                return None
            found = con.execute(load_sql("publication_ids_of_doi"), [doi]).fetchall()
    except UnreadableDatabase as problem:
        return str(problem)
    except duckdb.Error as error:  # a table of another version's shape, say
        return f"cannot read {database}: {type(error).__name__}: {first_line(str(error))}"
    if found:
        return None
    return (f"DOI {doi} is no publication of the graph in {database} and OpenAlex, which would give its title, abstract and "
            "references, is offline (RECON_OPENALEX=offline, or OPENALEX_API_KEY is not set): set OPENALEX_API_KEY, or give "
            "the paper's PDF instead, `recon paper PATH.pdf`")


def _refuse(message: str) -> int:
    print(terminal_text(f"error: recon paper: {redact(message)}"), file=sys.stderr)
    return 2
