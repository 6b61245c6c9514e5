"""`recon run`: check the inputs, launch the three jobs through the project's code location, follow them, report.

`kg_tables_job` (ingest, typed tables, lifecycle, centrality), `openalex_refresh_job` as one single-run backfill over
every research area (enrichment, judgement, reliability, verdicts), then `reliability_evaluation_job` (evaluation and
report) are launched one after the other on the instance in DAGSTER_HOME (created if missing, default
./.dagster_home), as the UI launches them (`launched_runs`): each run shows on every page of `dagster dev`, its timeline
and its job's page included. `recon run` prints one line per asset step as it completes and the summary; Dagster's own
log lines are shown with --verbose (and are in the UI).
"""

import logging
import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path

import dagster as dg
import duckdb
import pandas as pd
from filelock import Timeout
from tabulate import tabulate

from recon_assets.cli.instance_health import PoolWaitTimeout, host_tags, reclaim_lost_runs, wait_for_pool
from recon_assets.cli.launch_checks import PreflightError, as_of_not_after_today, check_environment, check_launch
from recon_assets.cli.launched_runs import (
    RUN_CONFIG, CodeServer, InstanceLockTimeout, InstanceUnusable, LaunchError, RunOutcome, TerminateWaitRefused, disk_full_message,
    disk_full_text, follow, instance_for_launches, launch, run_failures, terminate_wait_seconds,
)
from recon_assets.cli.interrupts import interrupted
from recon_assets.cli.progress import RunDisplay
from recon_assets.automation.run_inputs import AS_OF, KG_EXPORT, RUN_INPUTS, kg_export_version, report_run_inputs, settings_versions
from recon_assets.automation.staleness import FRESH, freshness, partition_ranges, stale_partitions
from recon_assets.shared.data_versions import ABSENT, written_digests
from recon_assets.evaluation.baselines import BASELINES
from recon_assets.evaluation.measure import HEADLINE, TARGET_STATUSES, comparison_table, online_cases, targets_of
from recon_assets.kg.export_reader import detect_format
from recon_assets.kg.resources import HUGGING_FACE, kg_source
from recon_assets.exports import export_folder
from recon_assets.report import report_folder
from recon_assets.report.figures import NOT_MEASURED_WHY
from recon_assets.storage.output_files import LATEST_REPORT_STEM
from recon_assets.storage.ownership import foreign_tables, foreign_tables_line
from recon_assets.shared.as_of import parse_as_of
from recon_assets.shared.credentials import redact
from recon_assets.storage.duckdb_settings import MOTHERDUCK_TOKEN_VARIABLE, MotherDuckUnreachable, connect_motherduck, is_motherduck, usable_token
from recon_assets.storage.duckdb_files import read_only
from recon_assets.shared.display import TerminalSafeStream, escaped_text, first_line, terminal_text, wrapped
from recon_assets.storage.duckdb_files import NO_EXTENSIONS, is_duckdb_file
from recon_assets.shared.paths import database_lock, database_path, recon_run_lock, resolved
from recon_assets.shared.run_tags import AS_OF_TAG, DATABASE_TAG, KG_SOURCE_TAG
from recon_assets.shared.sql_files import load_sql
from recon_assets.shared.validation import positive_seconds

# How long `recon run` waits for another live run to release the `duckdb` pool before it gives up (seconds): a
# full run on the real KG takes minutes (docs/OPERATIONS.md "Benchmarks at full scale"), an online OpenAlex refresh of it up to about an hour.
DEFAULT_POOL_WAIT_SECONDS = 3600.0
# The evaluation's measures `recon run` prints (evaluation.measure.MEASURES keys), with the words it prints them with.
_SUMMARY_MEASURES = {
    "staleness_catch": "superseded versions flagged", "flag_precision": "flags that are right",
    "labelled_prevalence": "labelled prevalence (stale among labelled)", "base_rate": "all edges flagged (base rate)",
    "foundational_false_flag": "foundational flagged", "current_flagged": "current-version papers flagged",
    "unverified_share": "UNVERIFIED",
}


def run_pipeline(kg: Path | None, db: Path | None, as_of: str | None, verbose: bool = False) -> int:
    """Run every asset on the local instance and print progress and a summary.

    as_of is resolved here, once: `--as-of`, else RECON_AS_OF, else today (a date after today is refused:
    `launch_checks.as_of_not_after_today`); all three runs carry it as their `recon/as_of` tag, so every asset of
    every run reads the same date. Every failure ends with its cause in one line on stderr and nothing else about it
    (no stack trace, no Dagster failure record) unless `verbose`.

    Returns:
        0 on success, 1 when a run failed (its root cause, a full disk named by its path), an asset check of severity
        ERROR failed (named, with its description) or anything else went wrong (its type and first line),
        2 when an input is unusable, 130 when interrupted (Ctrl-C).
    """
    try:
        return _run_pipeline(kg, db, as_of, verbose)
    except KeyboardInterrupt:
        if verbose:
            raise
        return interrupted()
    except Exception as error:
        full = disk_full_message(error, database_path())
        if full is None and verbose:
            raise
        print(f"error: {full or _one_line(error)}", file=sys.stderr, flush=True)
        return 1


def _one_line(error: BaseException) -> str:
    """'<type>: <first line of its message>' and where the rest is, shown as data and without secrets."""
    return terminal_text(redact(f"{type(error).__name__}: {first_line(str(error))} (`recon run --verbose` prints its stack trace)"))


def _run_pipeline(kg: Path | None, db: Path | None, as_of: str | None, verbose: bool) -> int:
    database = database_path()
    try:
        if kg is not None:  # a symbolic-link loop is its one error line (ValueError), as in RECON_KG_PATH
            os.environ["RECON_KG_PATH"] = str(resolved(kg, "--kg"))
        if db is not None:
            os.environ["RECON_DB_PATH"] = str(database := db if is_motherduck(db) else resolved(db, "--db"))
            if db.is_symlink() and not database.parent.is_dir():  # the folders of the database and its outputs would be made there
                raise ValueError(f"--db {db} is a link to {database}, whose folder does not exist: create it, or give another --db")
        source = "--as-of" if as_of is not None else "RECON_AS_OF"  # an empty --as-of is an error, not "unset"
        given = as_of if as_of is not None else os.environ.get("RECON_AS_OF") or None
        run_as_of = date.today() if given is None else as_of_not_after_today(parse_as_of(given, source=source), source=source)
        _preflight(database)
        check_launch(database, {AS_OF_TAG: run_as_of.isoformat()})  # the rules Dagster checks mid-run
        # Taken to see that no run is writing the file now, then left to the run workers' steps, which take it for each
        # connection (storage.duckdb_store.TableStore). MotherDuck serves several writers itself: no lock.
        if is_motherduck(database):
            _can_reach(str(database))
        else:
            _can_open_locked(database)
    except Timeout:
        print(terminal_text(f"error: another run (`recon run` or one from the UI) is writing {database} (lock {database}.lock); wait for it to finish"), file=sys.stderr)
        return 2
    except (PreflightError, ValueError) as error:
        print(f"error: {terminal_text(redact(error))}", file=sys.stderr)
        return 2
    except OSError as error:  # after Timeout (a TimeoutError): the lock file cannot be made (a read-only folder, ...)
        print(terminal_text(f"error: cannot create the lock file {database}.lock beside --db ({error.strerror or error}): "
                            "give --db in a folder this user can write (DuckDB writes its .wal file there too)"), file=sys.stderr)
        return 2
    # One `recon run` per database file from here to its summary (the steps hold `database_lock` only while connected).
    run_lock = None if is_motherduck(database) else recon_run_lock(database)
    if run_lock is not None:
        try:
            run_lock.acquire(timeout=0)
        except Timeout:
            print(terminal_text(f"error: another `recon run` is running on {database} (lock {run_lock.lock_file}); wait for it to finish"), file=sys.stderr)
            return 2
    display = RunDisplay.for_terminal(sys.stdout, sys.stderr, verbose=verbose)  # drawn on the terminal itself
    try:
        with _terminal_safe_output():
            return _run_jobs(database, run_as_of, verbose, display)
    finally:
        if run_lock is not None:
            run_lock.release()


@contextmanager
def _terminal_safe_output() -> Iterator[None]:
    """Everything printed meanwhile (Dagster's console log of KG and OpenAlex values included) goes through
    `display.terminal_text`: no record can drive the terminal."""
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = TerminalSafeStream(sys.stdout), TerminalSafeStream(sys.stderr)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


def _preflight(database: Path) -> None:
    """Fail fast, before any run, on what `launch_checks.check_environment` refuses, an unusable
    RECON_POOL_WAIT_SECONDS, an unreadable KG file, a bad RECON_KG_SOURCE, a KG file named beside
    RECON_KG_SOURCE=huggingface, a database path that is not a DuckDB file (`_can_open` then opens it, with the
    database lock held), or a file where its reports or exports folder must go."""
    check_environment(database)
    kg_path = os.environ.get("RECON_KG_PATH")
    try:
        _pool_wait_seconds()
        terminate_wait_seconds()  # here too, before the database file is made (hostile pass, 2026-12-04: it was left)
        from_hub = kg_source(os.environ.get("RECON_KG_SOURCE") or "") == HUGGING_FACE
        if kg_path and from_hub:
            raise ValueError("--kg / RECON_KG_PATH names a file while RECON_KG_SOURCE=huggingface reads the KG from Hugging Face: give one")
        if kg_path:
            detect_format(Path(kg_path))  # missing, empty, compressed, a /proc file or unknown: named before any run
    except (ValueError, TerminateWaitRefused) as error:  # KgExportError is a ValueError too
        raise PreflightError(str(error)) from error
    if is_motherduck(database):
        return
    if database.is_dir():
        raise PreflightError(f"--db {database} is a directory, not a DuckDB file")
    if database.exists() and not database.is_file():  # a named pipe would block the header read below (hostile pass)
        raise PreflightError(f"--db {database} is not a regular file (a pipe, socket or device): give the path of a DuckDB file")
    for folder in (report_folder(database), export_folder(database)):
        # e.g. --db d/reports: its reports would go into d/reports/reports/, inside the database file itself; or
        # --db d/a.duckdb beside a database d/reports/a.duckdb, which is exactly d/a.duckdb's report folder
        itself = folder.parent.resolve() == database.resolve()
        taken = next((path for path in (folder.parent, folder) if path.exists() and not path.is_dir()), None)
        if itself or taken:
            raise PreflightError(
                f"the reports and exports of --db {database} go into {folder}, but {folder.parent if itself else taken} is "
                f"{'that database file' if itself else 'a file'}: rename one"
            )
    try:
        foreign = database.exists() and not is_duckdb_file(database)
    except OSError as error:
        raise PreflightError(f"cannot read --db {database}: {error.strerror or error}") from error
    if foreign:
        raise PreflightError(
            f"--db {database} exists and is not a DuckDB database file (no DuckDB header): give the path of a DuckDB "
            "file, or of a file that does not exist yet"
        )
    try:
        database.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise PreflightError(f"cannot create the folder of --db {database.parent}: {error.strerror or error}") from error


def _can_reach(database: str) -> None:
    """Connect to the MotherDuck database once before any run: DuckDB's motherduck extension that cannot be downloaded
    (offline) or a database MotherDuck refuses (a bad token) is unusable input said in one line (hostile pass,
    2026-12-04: the extension failed the first step's planning with exit 1, its class named)."""
    try:
        connect_motherduck(database, usable_token(database, os.environ.get(MOTHERDUCK_TOKEN_VARIABLE))).close()
    except MotherDuckUnreachable as error:
        raise PreflightError(str(error)) from error
    except duckdb.Error as error:
        raise PreflightError(f"cannot open MotherDuck database {database}: {redact(first_line(str(error)))}") from error


def _can_open_locked(database: Path) -> None:
    """`_can_open` with the database lock held (taken at once, or Timeout); a lock file made here for a file that is
    refused is removed again (hostile pass 27: another program's file was left a `.lock` beside it)."""
    lock = database_lock(database)
    made = not Path(lock.lock_file).exists()
    with lock.acquire(timeout=0):
        try:
            _can_open(database)
        except PreflightError:
            if made:
                Path(lock.lock_file).unlink(missing_ok=True)
            raise


def _can_open(database: Path) -> None:
    """Open the DuckDB file once, with the database lock held: a run writing it holds that lock first, so DuckDB's own
    lock error is never what a user reads for it. A file holding tables of recon_assets' names that recon_assets did
    not write (`ownership.foreign_tables`: another program's database) is refused before any run writes it (hostile
    pass, 2026-12-04: its `publications` table was replaced, then the second job failed on it)."""
    try:
        with duckdb.connect(str(database), config=NO_EXTENSIONS) as con:
            foreign = foreign_tables(con)
    except duckdb.Error as error:
        raise PreflightError(f"cannot open DuckDB file {database}: {redact(error)}") from error
    if foreign:
        raise PreflightError(foreign_tables_line(f"--db {database}", foreign))


def _run_jobs(database: Path, as_of: date, verbose: bool, display: RunDisplay) -> int:
    # The instance's schema migration logs each step at INFO; the run's own events say what matters.
    logging.getLogger("alembic").setLevel(logging.WARNING)
    from recon_assets.definitions import defs as load_definitions
    from recon_assets.kg.partitions import research_area_partitions

    definitions = load_definitions()  # reads the RECON_* environment set above
    try:
        home, instance = instance_for_launches()
    except (InstanceLockTimeout, InstanceUnusable) as error:
        print(f"error: {terminal_text(error)}", file=sys.stderr, flush=True)
        return 1 if isinstance(error, InstanceLockTimeout) else 2
    print(f"Dagster instance: {home}; as_of {as_of.isoformat()}")
    areas = research_area_partitions.get_partition_keys()
    runs = [
        ("kg_tables_job", "ingest the KG snapshot, build typed tables, dataset lineage and centrality"),
        (
            "openalex_refresh_job",
            f"OpenAlex (online only with OPENALEX_API_KEY) and Crossref (RECON_CROSSREF=online), "
            f"judge, score and give dataset verdicts for the {len(areas)} research areas",
        ),
        ("reliability_evaluation_job", "measure the method on the labelled cases (weight and decay ablation), write the report and the exports"),
    ]
    # What every run used, on each run (the UI's run list shows and filters them).
    # The KG source's settings are dg.EnvVars until resolved: resolved here as a run's resources would be.
    kg_source = definitions.resources["kg_export"].process_config_and_initialize().source()
    inputs = {AS_OF_TAG: as_of.isoformat(), DATABASE_TAG: _shown(database), KG_SOURCE_TAG: redact(kg_source), **host_tags()}
    outcomes: list[RunOutcome] = []
    wait = _pool_wait_seconds()
    # A run left unfinished by a killed `recon run` (its worker gone) would hold the `duckdb` pool for ever: failed here.
    for line in reclaim_lost_runs(instance):
        _say(line)
    # The inputs that are not assets, reported before anything is judged stale (automation.run_inputs).
    versions = {AS_OF: as_of.isoformat(), KG_EXPORT: kg_export_version(kg_source), **settings_versions()}
    for line in report_run_inputs(instance, versions):
        _say(f"input changed: {line}")
    plan = _StalePlan(definitions, instance, database)
    # One code server for every run launched here, started at the first launch (none when everything is fresh).
    with display, tempfile.TemporaryDirectory(prefix="recon-run-") as consoles, CodeServer(Path(consoles)) as server:
        for job_name, what in runs:
            while launches := plan.launches(job_name):
                for number, (ops, partitions, why) in enumerate(launches, 1):
                    display.stage(job_name, stage_line(what, why, number, len(launches)))
                    console = Path(consoles) / f"{job_name}-{len(outcomes)}.log"
                    outcome = _launched(
                        instance, job_name, {**(partitions or {}), **inputs}, ops, console, database, home, wait, verbose, display, server,
                    )
                    if outcome is None:
                        return 1
                    outcomes.append(outcome)
            if fresh := plan.fresh_line(job_name):
                print(f"[{job_name}] {fresh}", flush=True)
    checks = [check for outcome in outcomes for check in outcome.checks]
    materializations = {key: m for outcome in outcomes for key, m in outcome.materializations.items()}
    _print_summary(database, checks, materializations, as_of)
    failed = [e.check_name for e in checks if not e.passed and e.severity == dg.AssetCheckSeverity.ERROR]
    if failed:
        print(f"error: {len(failed)} asset check(s) of severity ERROR failed: {', '.join(failed)} (why: above)", file=sys.stderr)
        return 1
    return 0


def stage_line(what: str, why: str, number: int, runs: int) -> str:
    """A launch's line: what its job does and why it runs, numbered "run i of n" when the job is `runs` runs (one per
    range of consecutive stale research areas; hostile pass, 2026-12-04: each of three said "in one run")."""
    return f"{what}: {why}" + (f" (run {number} of {runs})" if runs > 1 else "")


def _launched(
    instance: dg.DagsterInstance, job_name: str, tags: dict[str, str], ops: list[str], console: Path, database: Path,
    home: Path, wait: float, verbose: bool, display: RunDisplay, server: CodeServer,
) -> RunOutcome | None:
    """Launch `ops` of `job_name` with `tags` through `server` once the `duckdb` pool is free, follow the run to its
    end and say how it ended; its outcome, or None when it could not be launched or did not succeed (said on stderr)."""
    try:  # a live holder is waited for, a bounded time
        wait_for_pool(instance, timeout_seconds=wait, say=_say)
    except PoolWaitTimeout as error:
        print(f"error: {error}", file=sys.stderr)
        return None
    launched = None
    try:
        launched = launch(job_name, tags, RUN_CONFIG, console, server, ops)
        outcome = follow(instance, launched, display=display, console=sys.stderr if verbose else None)
    except LaunchError as error:
        said = disk_full_text(launched.console_text() if launched else server.console_text(), database)
        print(f"error: [{job_name}] {said or f'Dagster did not launch the run: {terminal_text(redact(error))}'} "
              "(`recon run --verbose` shows all Dagster said)", file=sys.stderr, flush=True)
        return None
    run_id = outcome.run.run_id
    if outcome.run.status != dg.DagsterRunStatus.SUCCESS:
        print(f"error: [{job_name}] {'; '.join(run_failures(outcome, database, launched))} (run {run_id}: its full logs "
              f"with `recon run --verbose`, or in `dagster dev` with DAGSTER_HOME={home})", file=sys.stderr, flush=True)
        return None
    display.stage_done(f"[{job_name}] succeeded in {outcome.seconds:.1f}s (run {run_id})")
    return outcome


class _StalePlan:
    """What each job of `recon run` launches: its MISSING and STALE assets and partitions, as Dagster's staleness and
    the database being run say (`automation.staleness`), each (asset, partition) launched once per `recon run` (one
    still stale after its own run is said, not launched again)."""

    def __init__(self, definitions: dg.Definitions, instance: dg.DagsterInstance, database: Path):
        from recon_assets.automation import jobs
        from recon_assets.definitions import ASSET_CHECKS, ASSETS

        self.instance, self.database = instance, database
        flow = {key: index for index, asset in enumerate(ASSETS) for key in asset.keys}  # data-flow order, as said
        self.specs = sorted(definitions.resolve_all_asset_specs(), key=lambda spec: flow.get(spec.key, -1))
        self.external = [source.key for source in RUN_INPUTS]
        graph = definitions.resolve_asset_graph()
        self.selected = {
            job.name: job.selection.resolve(graph)
            for job in (jobs.kg_tables_job, jobs.openalex_refresh_job, jobs.reliability_evaluation_job)
        }
        self.ops = {key: definitions.resolve_assets_def(key).node_def.name for keys in self.selected.values() for key in keys}
        self.check_ops = {key: [c.node_def.name for c in ASSET_CHECKS if key in {k.asset_key for k in c.check_keys}] for key in self.ops}
        self.partitions = {spec.key: spec.partitions_def for spec in self.specs}
        self.launched: set[tuple[dg.AssetKey, str | None]] = set()

    def launches(self, job_name: str) -> list[tuple[list[str], dict[str, str] | None, str]]:
        """[(op names, partition range tags or None, why)] of the runs of `job_name` that materialize what is due now:
        one run for its unpartitioned assets, one per range of consecutive research areas for partitioned ones."""
        from recon_assets.kg.partitions import research_area_range_tags

        with self._digests() as digests:
            statuses = freshness(
                self.instance, self.specs, self.external, selected=self.selected[job_name], database=_shown(self.database),
                database_digests=digests,
            )
        due = stale_partitions(statuses)
        again = sorted((s for s in statuses if s.status != FRESH and (s.asset, s.partition) in self.launched), key=lambda s: s.label)
        if again:  # why, as a run of another --db on this instance since (hostile pass, 2026-12-04) is not a fault of this one
            names = ", ".join(s.label for s in again[:5]) + (" ..." if len(again) > 5 else "")
            _warn(f"[{job_name}] still stale after its own run, not launched again: {names} ({again[0].why})")
        due = {key: [p for p in parts if (key, p) not in self.launched] for key, parts in due.items()}
        due = {key: parts for key, parts in due.items() if parts}
        by_range: dict[tuple[str, str] | None, list[dg.AssetKey]] = {}
        spanned: dict[tuple[str, str] | None, set[str | None]] = {}  # the partitions each range covers
        for key, parts in due.items():
            self.launched.update((key, p) for p in parts)
            definition = self.partitions[key]
            order = [] if definition is None else definition.get_partition_keys()
            for span in [None] if definition is None else partition_ranges(parts, order):
                by_range.setdefault(span, []).append(key)
                spanned[span] = {None} if span is None else set(order[order.index(span[0]):order.index(span[1]) + 1])
        return [
            (
                [op for key in keys for op in (self.ops[key], *self.check_ops[key])],
                research_area_range_tags(*span) if span else None,
                # each run's own reasons: another range's (hostile pass 27: "(droughts)" for the agriculture run)
                _why(keys, [s for s in statuses if s.status != FRESH and s.asset in keys and s.partition in spanned[span]], span),
            )
            for span, keys in by_range.items()
        ]

    def fresh_line(self, job_name: str) -> str | None:
        """'fresh, not run: N assets (unchanged inputs)', and that nothing was launched when so; None when every
        asset of the job was launched (a first run says nothing about assets not run)."""
        launched = {key for key, _ in self.launched} & set(self.selected[job_name])
        fresh = len(self.selected[job_name]) - len(launched)
        if not fresh:
            return None
        return f"fresh, not run: {fresh} assets (unchanged inputs)" + ("" if launched else "; nothing launched")

    @contextmanager
    def _digests(self):
        """`data_versions.written_digests` over one read-only connection to the database being run, closed before
        anything is launched; before the database file exists, every table is absent."""
        if not is_motherduck(self.database) and not Path(self.database).exists():
            yield lambda tables, areas: {area: dict.fromkeys(tables, ABSENT) for area in (areas if areas is not None else [None])}
            return
        with read_only(str(self.database)) as con:
            yield lambda tables, areas: written_digests(con, tables, areas)


def _why(keys: list[dg.AssetKey], statuses: list, span: tuple[str, str] | None) -> str:
    """'edge_reliability, dataset_verdicts (input as_of has a new data version (...)) for atmosphere..water'."""
    names = ", ".join(key.to_user_string() for key in keys)
    first = next((s.why for s in statuses if s.why), "never materialized")
    return f"{names} ({terminal_text(redact(first))}{'; ...' if len({s.why for s in statuses}) > 1 else ''})" + (
        f" for research areas {span[0]}..{span[1]}" if span and span[0] != span[1] else f" for research area {span[0]}" if span else ""
    )


def _pool_wait_seconds() -> float:
    """RECON_POOL_WAIT_SECONDS, else DEFAULT_POOL_WAIT_SECONDS.

    Raises:
        PreflightError: not a positive number.
    """
    try:
        return positive_seconds("RECON_POOL_WAIT_SECONDS", DEFAULT_POOL_WAIT_SECONDS)
    except ValueError as error:
        raise PreflightError(str(error)) from error


def _say(line: str) -> None:
    print(f"recon: {line}", flush=True)


def _warn(line: str) -> None:
    """A warning of `recon run`'s own: a KG or OpenAlex value in it is shown as data, without secrets."""
    print(terminal_text(redact(line)), file=sys.stderr, flush=True)


def _snapshot_reused(materializations: dict[str, dg.AssetMaterialization]) -> bool:
    """Whether the snapshot was not ingested again: kg_snapshot was fresh (not run), or ran and found it unchanged."""
    snapshot = materializations.get("kg_snapshot")
    return snapshot is None or bool(snapshot.metadata.get("reused_unchanged_snapshot", dg.BoolMetadataValue(False)).value)


def _judging_lines(materializations: dict[str, dg.AssetMaterialization]) -> list[str]:
    """['judging: 2 research area(s) judged'], with 'LLM judge unavailable: <why>; N pairs kept the offline judge's
    verdict' after it when the Groq judge could not be reached (its `run/llm_judge`, already redacted), or [] when no
    run judged (the areas not launched were fresh: `recon run` says so per job)."""
    judgements = materializations.get("coherence_judgements")
    if judgements is None:
        return []
    judged = judgements.metadata["run/research_areas_judged"].value
    llm = judgements.metadata.get("run/llm_judge")
    unavailable = [f"LLM judge {terminal_text(llm.value)}"] if llm is not None and str(llm.value).startswith("unavailable") else []
    return [f"judging: {judged} research area(s) judged", *unavailable]


def evaluation_lines(evaluation: list[tuple[str, str, int, int]], online: int) -> list[str]:
    """The summary's evaluation lines, one per condition measured: the default setting's figures on the labelled I
    and F cases (`_SUMMARY_MEASURES`, each numerator/denominator), with the base rate apart, over every scored edge:
    its base is the edges, not the cases. Online, the cases are those with a citation record as of as_of (`online`
    of them, `evaluation.measure.online_cases`). A condition whose case measures all have 0 cases says why instead.

    Args:
        evaluation: (condition, measure, numerator, denominator) rows of reliability_evaluation.
    """
    lines = []
    for condition in ("offline", "online"):
        measured = {measure: (n, d) for found, measure, n, d in evaluation if found == condition}
        if not measured:
            continue
        n, d = measured.pop("base_rate", (0, 0))
        base = f"; over every scored edge: {_SUMMARY_MEASURES['base_rate']} {n}/{d}" if d else ""
        over = f", over the {online} with a citation record as of as_of" if condition == "online" else ""
        if any(cases for _, cases in measured.values()):
            figures = ", ".join(
                f"{words} {f'{measured[measure][0]}/{measured[measure][1]}' if measured[measure][1] else 'n/a (0 cases)'}"
                for measure, words in _SUMMARY_MEASURES.items() if measure in measured
            )
        else:  # one line saying why, not a row of n/a (online with the default offline OpenAlex: every run)
            figures, over = f"not measured ({NOT_MEASURED_WHY[condition]})", ""
        lines.append(f"evaluation on the labelled I and F cases, {condition}{over} (default settings): {figures}{base}")
    return lines


def baseline_lines(comparisons: pd.DataFrame) -> list[str]:
    """The default beside each baseline rule on the same cases, as a table of at most about 130 characters a line: a
    row per condition, case set and measure with a measured case (`measure.comparison_table`'s rows), a column per rule
    (`baseline_cell`); the per-node counts and each rate's own interval are in reliability_evaluation_baselines and the
    report. [] when nothing was measured."""
    columns, table_rows = comparison_table(comparisons, cell=baseline_cell)
    rows = [  # the base rate has its own line; a measure no rule measured is left out
        {"measure": f"{condition} {case_set} {measure}", **dict(zip(columns[3:], cells))}
        for condition, case_set, measure, *cells in table_rows if measure != "base_rate" and any(cell != "n/a" for cell in cells)
    ]
    if not rows:
        return []
    table = tabulate(rows, headers="keys", tablefmt="plain", disable_numparse=True)
    return ["the default beside each baseline on the same cases (per case; on a baseline's figure, the default minus it",
            "  with its 95 % interval from resampling dataset nodes, in percentage points or ROC AUC):",
            *(f"  {line.rstrip()}" for line in table.splitlines())]


def baseline_cell(row: pd.Series) -> str:
    """One rule's figure for the console table: '87% 46/53' (a rate and its cases) or '0.21' (an ROC AUC); on a
    baseline's row the paired difference default minus it, '+12 (+3 to +21)' in percentage points for a rate, in
    decimals for an ROC AUC; 'n/a' when not measured."""
    if pd.isna(row["value"]):
        return "n/a"
    rate = not pd.isna(row["denominator"])
    text = f"{row['value']:.0%} {int(row['numerator'])}/{int(row['denominator'])}" if rate else f"{row['value']:.2f}"
    if pd.isna(row["difference"]):
        return text
    scale, digits = (100, 0) if rate else (1, 2)
    low, high, difference = (row[column] * scale for column in ("difference_ci_low", "difference_ci_high", "difference"))
    return f"{text} {difference:+.{digits}f} ({low:+.{digits}f} to {high:+.{digits}f})"


# A tie at zero says why it is neither met nor missed (new-user pass, 2026-12-04).
_TARGET_STATUS_WORDS = {"tied at zero": "tied at zero (neither rule flags a case: no evidence either way)"}


def targets_line(targets: pd.DataFrame) -> str:
    """'targets (default, I cases): 3 met: <each with its figure>; 1 tied at zero (...): <each>;
    2 missed: <each>; 4 not measured' from `measure.targets_of` (its `status`); "tied at zero" only when a target is."""
    parts = []
    for status in TARGET_STATUSES:
        chosen = targets[targets["status"] == status]
        if status == "tied at zero" and chosen.empty:
            continue
        figures = "" if status == "not measured" else "; ".join(_target_text(row) for row in chosen.itertuples())
        parts.append(f"{len(chosen)} {_TARGET_STATUS_WORDS.get(status, status)}" + (f": {figures}" if figures else ""))
    return f"targets (default, I cases): {'; '.join(parts)}"


def _target_text(row) -> str:
    """A target with its figure: 'offline roc_auc 0.19 against >= lifecycle_only 0.34', 'offline
    foundational_false_flag 32% against <= 30%'."""
    number = ".2f" if row.measure == "roc_auc" else ".0%"
    against = f"{row.target} {row.bound:{number}}" if row.target.endswith(tuple(BASELINES)) else row.target
    return f"{row.condition} {row.measure} {row.value:{number}} against {against}"


def _shown(database: Path) -> str:
    """The database as runs are tagged and the summary names it: a local file's absolute path, or `md:<name>`."""
    return str(database) if is_motherduck(database) else str(database.resolve())


def _print_summary(
    database: Path, checks: list[dg.AssetCheckEvaluation], materializations: dict[str, dg.AssetMaterialization], as_of: date
) -> None:
    reused = _snapshot_reused(materializations)
    with read_only(str(database)) as con:
        labels = con.execute(load_sql("run_summary_labels")).fetchall()
        verdicts = con.execute(load_sql("run_summary_verdicts")).fetchall()
        evaluation = con.execute(load_sql("run_summary_evaluation"), [list(_SUMMARY_MEASURES)]).fetchall()
        comparisons = con.table("reliability_evaluation_baselines").df()
        cases = con.table("reliability_evaluation_cases").select("condition, grade, found, has_openalex_record").df()
        stewards = con.execute(load_sql("run_summary_stewards")).fetchall()
        kg_edges = con.table("dataset_publication_edges").shape[0]
        snapshot_id, lines, nodes, relationships, rejected, ingested_at = con.execute(load_sql("run_summary_snapshot")).fetchone()
    # absolute, as the report's path below; each path on one line, a control character in it escaped (hostile passes)
    print(f"\n{'MotherDuck' if is_motherduck(database) else 'DuckDB'}: {escaped_text(_shown(database))}")
    unchanged = f" (unchanged since {ingested_at:%Y-%m-%d %H:%M}: not ingested again)" if reused else ""
    print(f"snapshot {snapshot_id}{unchanged}: {lines:,} lines -> {nodes:,} nodes, {relationships:,} relationships, {rejected:,} rejected (see kg_rejects)")
    if labels:
        print("edges scored per label: " + ", ".join(f"{label} {count:,}" for label, count in labels))
    elif kg_edges:
        print(f"edges scored: 0 - all {kg_edges:,} Publication-USES_DATASET->Dataset edges are of publications from after as_of "
              f"{as_of.isoformat()} (left out: they did not exist yet)")
    else:
        print("edges scored: 0 - the snapshot has no usable Publication-USES_DATASET->Dataset relationship")
    if verdicts:
        print("dataset verdicts (per research area): " + ", ".join(f"{verdict} {count:,}" for verdict, count in verdicts))
    for line in evaluation_lines(evaluation, online_cases(cases)[HEADLINE]):
        print(wrapped(line))
    if baselines := baseline_lines(comparisons):
        print("\n".join(baselines))
        print(wrapped(targets_line(targets_of(comparisons))))
    if stewards:
        print("steward judgements (steward_judgements): " + ", ".join(f"{status} {count:,}" for status, count in stewards))
    for line in _judging_lines(materializations) or ["judging: every research area kept (coherence_judgements fresh, not run)"]:
        print(line)
    report = report_folder(database) / f"{LATEST_REPORT_STEM}.html"
    if report.is_file():
        print(f"reliability report: {escaped_text(report)} (and .pdf)")
    if checks:
        print(f"asset checks passed: {sum(e.passed for e in checks)}/{len(checks)}")
    else:  # an unchanged re-run: '0/0' read as a failure
        print("asset checks: none run (every checked asset fresh; their last results stand)")
