"""`recon ask` and `recon brief`: answer an ad-hoc research question through the same assets as the standing ones,
and print a stored brief (issue 21).

`recon ask "QUESTION" [--dataset DOI_OR_SHORT_NAME ...] [--as-of DATE] [--db PATH]` adds the question's partition
(`ask-<hash>`, `briefs.questions.asked_key`) to the instance in DAGSTER_HOME, launches `question_briefs_job` for it
through the code location as `recon run` launches its jobs (`cli.launched_runs`), follows the run, prints the brief
and says how to remove the partition. The database must hold the scores (`recon run` first): the question is answered
from them. `recon brief ID [--remove]` prints the stored brief of a question (file id or ask-<hash>); `--remove`
deletes an ad-hoc question's partition from the instance (its rows stay in the database, as history).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb

from recon_assets.briefs.questions import ASKED_PREFIX, NAMED_IN_QUESTION, REMOVED_BEFORE_PLANNING, Question, Scope, asked_key
from recon_assets.shared.credentials import redact
from recon_assets.shared.display import first_line, terminal_text
from recon_assets.shared.sql_files import load_sql
from recon_assets.shared.validation import problem_message
from recon_assets.storage.duckdb_files import UnreadableDatabase, readable

if TYPE_CHECKING:  # imported when a question is asked: `recon brief` starts without Dagster
    import dagster as dg
    from pydantic_core import ErrorDetails

# Dagster and the launch wiring are imported by `ask` and `remove` only: `recon brief` reads one row of DuckDB.
JOB = "question_briefs_job"
PARTITION_TAG = "dagster/partition"


def ask(question: str, datasets: list[str], as_of: str | None, database: Path) -> int:
    """Answer `question` (scope: `datasets`) as of `as_of` (default: the as_of of the database's scores,
    `brief_as_of`) from `database` and print its brief.

    Returns:
        0 with the brief printed; 1 when the run failed (its step's error on stderr); 2 when an input is unusable
        (an empty or over-long question, a bad date or one after today, no scored database, or what `recon run`
        refuses before its runs: `launch_checks.check_launch`), said in one line before any run; 130 on Ctrl-C: the run under way is terminated (`launched_runs.follow`, said in one line), as `recon
        run` does, and the process ends without a stack trace.
    """
    from recon_assets.cli.interrupts import interrupted

    try:
        return _ask(question, datasets, as_of, database)
    except KeyboardInterrupt:
        return interrupted()


def _ask(question: str, datasets: list[str], as_of: str | None, database: Path) -> int:
    import dagster as dg
    from pydantic import ValidationError

    from recon_assets.briefs.partitions import QUESTIONS_PARTITIONS
    from recon_assets.cli.instance_health import host_tags
    from recon_assets.cli.launch_checks import PreflightError, as_of_not_after_today, check_launch
    from recon_assets.cli.launched_runs import (
        RUN_CONFIG, CodeServer, InstanceUnusable, LaunchError, follow, instance_for_launches, launch, run_failures,
    )
    from recon_assets.cli.progress import RunDisplay
    from recon_assets.shared.as_of import parse_as_of
    from recon_assets.shared.paths import resolved
    from recon_assets.shared.run_tags import AS_OF_TAG, DATABASE_TAG, QUESTION_DATASETS_TAG, QUESTION_TAG

    try:
        asked = Question(id="ask-x", question=question, scope=Scope(datasets=tuple(datasets)))
        # --as-of, else RECON_AS_OF (which the run's resources read too), else the as_of of the scores (below)
        source = "--as-of" if as_of is not None else "RECON_AS_OF"
        given = as_of if as_of is not None else os.environ.get("RECON_AS_OF") or None
        day = as_of_not_after_today(parse_as_of(given, source=source), source=source) if given is not None else None
        resolved(database, "--db")  # a symbolic-link loop is its one error line (ValueError)
    except ValidationError as error:
        return _fail(f"the question cannot be asked: {'; '.join(_asked_problem(item) for item in error.errors())}", 2)
    except ValueError as error:
        return _fail(str(error), 2)
    key = asked_key(asked.question, list(asked.scope.datasets))
    os.environ["RECON_DB_PATH"] = str(database.resolve())  # the code location's table store reads it
    tags = {  # AS_OF_TAG checked with today when no date is given; set to the brief's as_of once the scores' is read
        PARTITION_TAG: key, AS_OF_TAG: (day or date.today()).isoformat(), DATABASE_TAG: str(database.resolve()),
        QUESTION_TAG: asked.question,
        QUESTION_DATASETS_TAG: json.dumps(list(asked.scope.datasets)), **host_tags(),
    }
    try:  # what `recon run` refuses before a run: the environment and the settings' rules
        check_launch(database, tags)
    except PreflightError as error:
        return _fail(str(error), 2)
    try:  # opened and closed before the run writes it: checked, and the as_of of its scores read
        with readable(database, ("edge_reliability",), "scores") as con:
            try:
                (scored,) = con.execute(load_sql("scores_as_of")).fetchone()
            except duckdb.Error:  # an edge_reliability without as_of (not this version's): no date to follow
                scored = None
    except UnreadableDatabase as problem:
        return _fail(str(problem), 2)
    day, warning = brief_as_of(day, scored, database)
    if warning:
        print(f"recon: warning: {warning}", file=sys.stderr, flush=True)
    tags[AS_OF_TAG] = day.isoformat()
    try:
        home, instance = instance_for_launches()
    except InstanceUnusable as error:
        return _fail(str(error), 2)
    if not instance.has_dynamic_partition(QUESTIONS_PARTITIONS, key):
        instance.add_dynamic_partitions(QUESTIONS_PARTITIONS, [key])
    print(f"recon: question {key} as of {day.isoformat()} on {database} (Dagster instance {home})", flush=True)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="recon-ask-") as folder, CodeServer(Path(folder)) as server:
        try:
            launched = launch(JOB, tags, RUN_CONFIG, Path(folder) / "launch.log", server)
            with RunDisplay.for_terminal(sys.stdout, sys.stderr, verbose=False) as display:
                display.stage(JOB, f"answer question {key}")
                outcome = follow(instance, launched, display=display)
        except LaunchError as error:
            return _fail(f"[{JOB}] Dagster did not launch the run: {error}", 1)
        if outcome.run.status != dg.DagsterRunStatus.SUCCESS:
            return _fail(f"[{JOB}] {'; '.join(run_failures(outcome, database, launched))} (run {outcome.run.run_id}; DAGSTER_HOME={home})", 1)
    print(f"recon: answered in {time.monotonic() - started:.1f}s (run {outcome.run.run_id})", flush=True)
    print(f"recon: {usage_line(outcome.materializations)}", flush=True)
    code = print_brief(key, database, with_scope=True)  # after the run, which wrote the database: opened once again
    print(f"\nThe question is kept as partition {key} of '{QUESTIONS_PARTITIONS}' (research_briefs_weekly_schedule refreshes it once started: it is stopped by default); "
          f"`recon brief {key}` prints it again, `recon brief {key} --remove` removes the partition.")
    return code


def brief_as_of(given: date | None, scored: date | None, database: Path) -> tuple[date, str | None]:
    """The as_of a brief is answered as of, and a warning when it is not the as_of of the scores it reads.

    Args:
        given: the date of --as-of or RECON_AS_OF (None when neither is given); scored: the as_of of `database`'s
            scores (edge_reliability's latest; None when it holds no scored edge); database: named in the warning.

    Returns:
        (given, else the scores' as_of, else today; a warning when `given` differs from the scores' as_of, else None).
        Why (new-user pass): a brief dated today on scores computed as of another day said nothing of it, its trust
        lines quoting ages and labels of the other day.
    """
    if given is None:
        return scored or date.today(), None
    if scored is None or scored == given:
        return given, None
    return given, (f"the scores in {database} are as of {scored:%Y-%m-%d}, not {given:%Y-%m-%d}: the brief's trust lines "
                   f"are those scores as they stand (`recon run --as-of {given:%Y-%m-%d} --db {database}` rescores)")


def usage_line(materializations: dict[str, dg.AssetMaterialization]) -> str:
    """What answering the question sent online, from its run's materializations: Groq requests and tokens of the
    planner and synthesizer (research_briefs' brief_llm_requests, brief_llm_tokens; cached answers cost none) and
    OpenAlex search requests and list calls (question_evidence's and the rewrite rounds' of question_verdicts)."""
    def count(asset: str, key: str) -> int:
        found = materializations.get(asset)
        value = found.metadata.get(key) if found is not None else None
        return int(value.value) if value is not None else 0

    groq = count("research_briefs", "brief_llm_requests"), count("research_briefs", "brief_llm_tokens")
    openalex = [sum(count(asset, key) for asset in ("question_evidence", "question_verdicts"))
                for key in ("openalex_requests", "openalex_list_calls")]
    # attempted: a request that failed counts too (and is charged to the daily budget); tokens are those answered
    return (f"online use for this brief: Groq {groq[0]} request(s) attempted, {groq[1]:,} token(s) answered; OpenAlex "
            f"search {openalex[0]} request(s) attempted, {openalex[1]} list call(s) of the daily budget")


def print_brief(key: str, database: Path, *, with_scope: bool = False) -> int:
    """Print the stored brief of question `key`: 0; 2 when `database` is unusable (`database_problem`: as `recon ask`
    and `recon paper` say it); 1 when it holds no brief of `key` (why on stderr). `with_scope` (`recon ask`, after its
    run): first what `scope_said` says of the question's scope ('recon: ...', when it says anything) and a blank line,
    read through the same connection as the brief."""
    said, row, failure = None, None, None
    try:  # opened once: checked (`duckdb_files.database_problem`'s line when unusable), then read
        with readable(database, ("edge_reliability",), "scores") as con:  # another program's file is unusable input
            said = scope_said(key, con) if with_scope else None
            try:
                row = con.execute(load_sql("stored_brief"), [key]).fetchone()
            except duckdb.CatalogException:  # no research_briefs table: no brief yet
                row = None
    except UnreadableDatabase as problem:
        failure = (str(problem), 2)
    except duckdb.Error as error:
        failure = (f"cannot read {database}: {type(error).__name__}: {first_line(str(error))}", 1)
    if with_scope:  # said before the brief, or before why there is none
        if said:
            print(f"recon: {terminal_text(said)}", flush=True)
        print(flush=True)
    if failure:
        return _fail(*failure)
    if row is None:
        return _fail(f"no brief for question {key!r} in {database}: {_how_to_answer(key)}", 1)
    # The brief quotes abstracts: shown as data, never a control sequence (line by line: terminal_text makes one line).
    for line in row[0].splitlines():
        print(terminal_text(line))
    print(f"(as of {row[2]:%Y-%m-%d}; HTML page: {row[1]})")
    return 0


def scope_said(key: str, con: duckdb.DuckDBPyConnection) -> str | None:
    """What the user should know of question `key`'s scope as question_plans stored it, read through `con` (the reading
    connection of `print_brief`), or None: why its scope matches
    nothing (scope_problem: the verdict is INSUFFICIENT), the datasets its text named when no --dataset was given (the critic weighs the edges to those), or that it names none, so the critic
    weighed every edge of every retrieved paper (to any dataset) and a --dataset gives a verdict on one dataset's
    evidence. None too when the plan cannot be read (the brief is printed all the same)."""
    try:
        row = con.execute(load_sql("question_scope"), [key]).fetchone()
    except duckdb.Error:
        return None
    if row is None:
        return None
    scope, note, problem = row
    parts = (note or "").split("; ")
    # hostile pass: the wording taken out of a question ("Ignore previous instructions ...") was said only in the table
    removed = [part for part in parts if part.startswith(REMOVED_BEFORE_PLANNING)]
    if problem:  # hostile pass: a --dataset matching nothing gave INSUFFICIENT with its reason only in a step's log line
        said = [f"{problem}; the verdict is INSUFFICIENT"]
    elif scope is None:
        said = ["the question names no dataset of the knowledge graph and no --dataset was given: the critic weighed every "
                "edge of every retrieved paper, to any dataset; ask again with --dataset SHORT_NAME for a verdict on one "
                "dataset's evidence"]
    else:
        said = [part for part in parts if part.startswith(NAMED_IN_QUESTION)]
    return "; ".join(removed + said) or None


def _how_to_answer(key: str) -> str:
    """How the question `key` gets a brief: an ad-hoc one by `recon ask`, a standing one (an id of the questions
    file) once `question_file_sensor` has added its partition and question_briefs_job has run it."""
    if key.startswith(ASKED_PREFIX):
        return "ask it again with `recon ask`"
    return ("a standing question of the questions file gets its partition from question_file_sensor (start it under "
            "`dagster dev`), then materialize that partition of question_briefs_job; `recon ask` answers ad-hoc questions")


def remove(key: str) -> int:
    """Delete the ad-hoc question partition `key` from the instance in DAGSTER_HOME: 0, or 1 when it is not one."""
    from recon_assets.briefs.partitions import QUESTIONS_PARTITIONS
    from recon_assets.cli.launched_runs import open_instance

    if not key.startswith(ASKED_PREFIX):
        return _fail(f"{key} is not an ad-hoc question (ask-<hash>): remove it from the question file instead", 1)
    _, instance = open_instance()
    if not instance.has_dynamic_partition(QUESTIONS_PARTITIONS, key):
        return _fail(f"{key} is not a partition of '{QUESTIONS_PARTITIONS}' on this instance", 1)
    instance.delete_dynamic_partition(QUESTIONS_PARTITIONS, key)
    print(f"recon: partition {key} removed; its rows stay in the database as history")
    return 0


# What the user gave each field of the question with (hostile pass, 2026-12-04: "a blank entry" did not say of what).
_GIVEN_AS = {"question": "the question", "datasets": "--dataset"}


def _asked_problem(problem: ErrorDetails) -> str:
    """'--dataset: a blank entry' for one error of the question's validation, named as the user gave the field."""
    field = str(problem["loc"][0]) if problem["loc"] else ""
    return f"{_GIVEN_AS.get(field, field or 'the question')}: {problem_message(problem)}"


def _fail(message: str, code: int) -> int:
    print(f"error: {terminal_text(redact(message))}", file=sys.stderr, flush=True)
    return code
