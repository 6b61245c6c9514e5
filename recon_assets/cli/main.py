"""`recon`: run the whole pipeline on the local Dagster instance, explain the scores of one DOI, analyse a paper, and
answer a research question with a trust summary per cited paper (ask; brief prints a stored one).

    recon run [--kg PATH] [--db PATH] [--as-of YYYY-MM-DD] [--verbose]
    recon explain DOI [--db PATH]
    recon paper PATH|DOI [--db PATH] [--verbose]
    recon ask "QUESTION" [--dataset DOI_OR_SHORT_NAME ...] [--as-of YYYY-MM-DD] [--db PATH]
    recon brief QUESTION_ID [--db PATH] [--remove]
"""

import argparse
import signal
import sys
from pathlib import Path

from recon_assets.kg.doi import canonical_doi
from recon_assets.shared.credentials import redact
from recon_assets.shared.display import clipped

# Only the standard library and small pure modules here: pandas, DuckDB and the scoring modules are imported by the
# `recon explain` functions that use them, Dagster only by `recon run`, so `recon --help` starts in about the time of
# Python itself (benchmarks/startup.py; recon_assets_tests/test_cli_startup.py holds it).


RUN_EPILOG = """\
environment (docs/CONFIGURATION.md; each flag above overrides its variable):
  RECON_KG_PATH, RECON_DB_PATH, RECON_AS_OF   as --kg, --db, --as-of
  RECON_KG_SOURCE=huggingface                 the real KG from Hugging Face (RECON_HF_FILENAME, RECON_HF_REVISION)
  OPENALEX_API_KEY                            OpenAlex online (RECON_OPENALEX=offline opts out); default: the recording
  RECON_CROSSREF=online                       ask Crossref (default offline)
  GROQ_API_KEY                                the Groq LLM judge besides the offline one (RECON_GROQ=offline opts out)
  RECON_ALLOW_PLAIN_HTTP=1                    let a key go over http:// to another machine (GROQ_BASE_URL,
                                              OPENALEX_URL, HF_ENDPOINT); default: refused in one line
  DAGSTER_HOME                                the Dagster instance (default ./.dagster_home)

exit status: 0 done; 1 a step or an asset check of severity ERROR failed; 2 unusable input, said in one line before
any run (a missing KG file, a bad date or one after today, a bad setting, a --db that is not a DuckDB file, another
'recon run' already running on the same --db); 130 interrupted (Ctrl-C: the run under way is terminated), 143 after
SIGTERM. Reports and exports go to reports/<db file name>/ and exports/<db file name>/ beside the --db file
(data/reports/recon.duckdb/ by default): the newest also under a *_latest name, with the files of the
RECON_KEEP_OUTPUTS earlier runs (default 5). Every failure ends with its cause in one line on stderr (a full disk
named by its path)."""


# Whether the command was given --verbose (set by `main`): `console` then lets a Ctrl-C's traceback show.
_verbose = {"on": False}


def console() -> int:
    """The `recon` command's entry point ([project.scripts]): `main` with SIGPIPE back to its default first, so that
    piping into `head` ends quietly, as for any Unix tool. Only here, never in `main`: a process that calls `main` and
    goes on (a test worker) would be killed by the next write to a closed socket or pipe. For the same reason only a
    command of its own process stops on SIGTERM as on Ctrl-C (`interrupts.stop_on_sigterm`).

    Ctrl-C (or SIGTERM) at a moment no command handles it, the first seconds of `recon run`, `ask` and `paper`
    importing Dagster included (which printed a Python traceback), ends as a command's own handling does: one line
    'error: interrupted (Ctrl-C)', exit status 130 (`interrupts.interrupted`); with --verbose the traceback shows."""
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    from recon_assets.cli.interrupts import interrupted

    try:
        return main(own_process=True)
    except KeyboardInterrupt:
        if _verbose["on"]:
            raise
        return interrupted()


def main(argv: list[str] | None = None, *, own_process: bool = False) -> int:
    parser = argparse.ArgumentParser(prog="recon", description=__doc__.split("\n\n")[0].replace("`recon`: ", "recon: "))  # no Markdown in a terminal
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser(
        "run", help="materialize every asset and every research-area partition",
        description="Materialize every asset and every research-area partition into the DuckDB file, then print a summary.",
        epilog=RUN_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    run.add_argument("--kg", type=Path, help="KG export (APOC JSON-lines, GraphML or Cypher); default: the shipped sample")
    run.add_argument("--db", type=Path, help="DuckDB file to write; default data/recon.duckdb")
    # Read as text and judged by `recon run`'s pre-check: a bad date is its one error line, as for RECON_AS_OF.
    run.add_argument("--as-of", help="score as of this date (YYYY-MM-DD, not after today); default today")
    run.add_argument("--verbose", action="store_true", help="also print Dagster's log lines (the run workers' console: every event, failure records and stack traces)")
    explain = commands.add_parser(
        "explain", help="print every scored edge of a publication or dataset DOI",
        description="Print every scored edge of a publication or dataset DOI, with its label, why, and its signals.",
        epilog="exit status: 0 edges printed; 1 the DOI has no scored edge (why on stderr); 2 unusable input, in one "
        "line: not a DOI, no database or not one 'recon run' wrote, one of another version, or one another process holds",
    )
    explain.add_argument("doi", help="publication or dataset DOI, in any spelling (https://doi.org/..., doi:..., upper case)")
    explain.add_argument("--db", type=Path, help="DuckDB file to read; default data/recon.duckdb")
    paper = commands.add_parser(
        "paper", help="analyse one paper now: its datasets with their lifecycle, its scores and its report",
        description="Analyse a paper's PDF (or a DOI of the graph) against the database's graph, through the Dagster instance.",
        epilog="exit status: 0 analysed (an optional stage that failed is said); 1 the run failed (a PDF that cannot be "
        "parsed included), in one line; 2 unusable input, in one line before any run: neither a file nor a DOI, a file "
        "with no %PDF- header, a DOI the graph lacks while OpenAlex is offline, no database, or a setting 'recon run' "
        "refuses; 130 interrupted (Ctrl-C: the run under way is terminated), 143 after SIGTERM",
    )
    paper.add_argument("source", help="a PDF file, or a DOI (title, abstract and references from the graph)")
    paper.add_argument("--db", type=Path, help="DuckDB file holding the graph ('recon run' first); default data/recon.duckdb")
    paper.add_argument("--verbose", action="store_true", help="also print Dagster's log lines")
    ask = commands.add_parser(
        "ask", help="answer a research question from the scores and print its brief",
        description="Answer an ad-hoc research question through the research-brief assets (a partition ask-<hash> of the "
        "Dagster instance) from the database's scores ('recon run' first), and print the brief.",
        epilog="exit status: 0 brief printed; 1 the run failed (its step's error on stderr); 2 unusable input, in one line "
        "before any run: an empty or over-long question, a bad date or one after today, no scored database, or a setting "
        "'recon run' refuses; 130 interrupted (Ctrl-C: the run under way is terminated), 143 after SIGTERM",
    )
    ask.add_argument("question", help="the question, in quotes")
    ask.add_argument("--dataset", action="append", default=[], help="a dataset of its scope (DOI, short name, or 'SHORT_NAME VERSION'); repeatable")
    ask.add_argument("--as-of", help="answer as of this date (YYYY-MM-DD, not after today); default: the as_of of the database's scores")
    ask.add_argument("--db", type=Path, help="DuckDB file holding the scores; default data/recon.duckdb")
    brief = commands.add_parser(
        "brief", help="print the stored brief of a question (its id, or ask-<hash>)",
        description="Print the brief the database holds for a question: a standing question's file id, or the ask-<hash> "
        "'recon ask' printed; --remove takes an ad-hoc question's partition off the instance.",
        epilog="exit status: 0 brief printed (or, with --remove, partition removed); 1 no brief of that question in the "
        "database, or a read that failed (why on stderr); 2 unusable input, in one line: no database, or not one "
        "'recon run' wrote",
    )
    brief.add_argument("question_id", help="a question file id, or ask-<hash> as 'recon ask' printed it")
    brief.add_argument("--db", type=Path, help="DuckDB file to read; default data/recon.duckdb")
    brief.add_argument("--remove", action="store_true", help="remove the ad-hoc question's partition from the instance instead")
    args = parser.parse_args(argv)
    _verbose["on"] = getattr(args, "verbose", False)
    if own_process and args.command in ("run", "ask", "paper"):  # the commands that launch runs
        from recon_assets.cli.interrupts import stop_on_sigterm  # the standard library only: before Dagster's import

        stop_on_sigterm()
    if args.command in ("ask", "brief"):
        from recon_assets.cli import ask as questions  # Dagster and DuckDB: only these commands need them
        from recon_assets.shared.paths import database_path

        if args.command == "ask":
            return questions.ask(args.question, args.dataset, args.as_of, args.db or database_path())
        return questions.remove(args.question_id) if args.remove else questions.print_brief(args.question_id, args.db or database_path())
    if args.command == "paper":
        from recon_assets.cli.paper import analyse_paper  # Dagster and the paper modules: only `paper` needs them

        return analyse_paper(args.source, args.db, verbose=args.verbose)
    if args.command == "run":
        from recon_assets.cli.run import run_pipeline  # the run wiring and its instance checks: only `run` needs them

        return run_pipeline(args.kg, args.db, args.as_of, verbose=args.verbose)
    from recon_assets.shared.paths import database_path

    return explain_doi(args.doi, args.db or database_path())


# What `explain_doi` reads: the scores and what it joins to them to say why a DOI has none.
_EXPLAINED_TABLES = ("edge_reliability", "publications", "datasets", "dataset_publication_edges", "openalex_works",
                     "crossref_retractions", "kg_snapshots")


def explain_doi(doi: str, database: Path) -> int:
    """Print every scored edge of the publication or dataset with this DOI.

    Returns:
        0 when edges were printed; 1 when the DOI has none, with why on stderr; 2 when the input is unusable (not a
        DOI, no database or not one `recon run` wrote, one of another version, or one another process holds), in one
        line on stderr starting "error: ", as `recon run`, `paper` and `ask` refuse input.
    """
    key = canonical_doi(doi)
    if key is None:  # said before the imports below (a second and more on a loaded machine; hostile pass, 2026-12-04)
        return _refuse(f"{clipped(doi)!r} is not a DOI")
    import duckdb
    import pandas as pd

    from recon_assets.kg.ingest import current_snapshot_id
    from recon_assets.reliability.label_comparisons import label_comparisons
    from recon_assets.shared.display import first_line, terminal_text
    from recon_assets.shared.paths import resolved
    from recon_assets.shared.sql_files import load_sql
    from recon_assets.shared.table_docs import declared_columns
    from recon_assets.storage.duckdb_files import UnreadableDatabase, readable

    try:
        resolved(database, "--db")  # a symbolic-link loop read as "no database file"
    except ValueError as error:
        return _refuse(str(error))
    # New-user findings: run from another folder, the default data/recon.duckdb named no folder to look in; a JSON
    # file given as --db read "holds no scores yet (Catalog Error ...)"
    try:  # opened once: checked (`duckdb_files.database_problem`'s line when unusable), then read
        with readable(database, _EXPLAINED_TABLES, "scores") as con:
            rows = con.execute(load_sql("explained_edges"), [key]).df()
            current = current_snapshot_id(con)
            # Only needed to say why a DOI has no scored edge.
            known, edges, year, scored_as_of = (
                con.execute(load_sql("unexplained_doi"), [key]).fetchone() if rows.empty else (None, None, None, None)
            )
    except UnreadableDatabase as problem:
        return _refuse(str(problem))
    except duckdb.Error as error:  # a table of another version's shape, say
        return _refuse(f"cannot read {database}: {type(error).__name__}: {first_line(str(error))}")
    missing = [column for column in declared_columns("edge_reliability") if column not in rows.columns]
    if missing:
        return _refuse(
            f"edge_reliability in {database} was written by another version of recon_assets (missing columns {missing}): "
            "run `recon run` with a new --db"
        )
    if rows.empty:
        if edges and year is not None and scored_as_of is not None and year > scored_as_of.year:
            what = (
                f"was published in {year}, after the as_of of the scores ({scored_as_of:%Y-%m-%d}): its {edges} "
                "Dataset→Publication edge(s) were left out, since they did not exist yet; run `recon run --as-of` a later date"
            )
        elif edges:
            what = f"has {edges} Dataset→Publication edge(s) in snapshot {current} not scored yet: run `recon run`"
        else:
            what = "is in the KG but has no Dataset→Publication edge" if known else "is not in the current snapshot"
        return _fail(f"no scored edge for DOI {clipped(key)}: it {what}")
    # Every text cell came from the KG or OpenAlex (titles, names, error texts, reasons quoting them): shown as data,
    # one line each, never a control sequence; an error text never with a secret, whenever it was stored.
    rows = rows.apply(lambda column: column.map(lambda cell: terminal_text(redact(cell)) if isinstance(cell, str) else cell))
    snapshots = set(rows["snapshot_id"])
    print(f"{len(rows)} scored edge(s) for DOI {key} (as of {rows['as_of'].iloc[0]:%Y-%m-%d}, snapshot {', '.join(sorted(snapshots))}):")
    if current and snapshots != {current}:
        print(f"  WARNING: the current snapshot is {current}; these scores are older (the last run did not finish scoring)")
    comparisons = label_comparisons(rows)
    for row, comparison in zip(rows.itertuples(), comparisons):
        year = "n.d." if pd.isna(row.publication_year) else int(row.publication_year)
        title = f" {row.title!r}" if isinstance(row.title, str) else ""
        dataset = f"{_text(row.dataset_short_name, 'no short name')} ({_text(row.dataset_doi, 'no DOI')})"
        print(
            f"\n  {dataset} <- {_text(row.publication_doi, 'no DOI')} ({year}){title} [{row.research_area}]\n"
            f"    {_reliability_line(row)}\n"
            f"    why {row.label}: {comparison}\n"
            f"    centrality {row.centrality:.2f} | recency {row.recency:.2f} | coherence {row.coherence:.2f} {row.coherence_status}"
            f"{_lifecycle_part(row)}\n"
            f"    {_openalex_line(row)}\n"
            f"    {row.reason}"
        )
    return 0


def _text(value: object, missing: str) -> str:
    """A text cell as printed, `missing` for a missing one (a dataset without a DOI printed 'nan')."""
    return value if isinstance(value, str) else missing


def _fail(message: str) -> int:
    """Say on stderr why there is nothing to print: exit status 1."""
    from recon_assets.shared.display import terminal_text

    print(terminal_text(redact(message)), file=sys.stderr)
    return 1


def _refuse(message: str) -> int:
    """Refuse unusable input in one line, "error: <why>": exit status 2."""
    _fail(f"error: {message}")
    return 2


def _reliability_line(row) -> str:
    """'reliability 0.42  DECLINING  (dominant signal: superseded_version)', then the evidence observed. The
    reliability reads as in the edge's reason and why line (`reasons.shown_reliability`): never reaching a bar it is
    below, the SUPERSEDED bar it was scored with (the default when its stored settings are not readable) or the
    verdicts' reliable-edge bar (0.40)."""
    from recon_assets.reliability.label_comparisons import stored_settings
    from recon_assets.reliability.reasons import RELIABLE_BAR, bar_rounded_onto, shown_reliability

    settings, _ = stored_settings(row.scoring_settings)
    shown = shown_reliability(row.reliability, settings.thresholds.superseded_reliability)
    # new-user pass, 2026-12-04: a third decimal among two-decimal figures read as a slip, not as "below the bar"
    bar = bar_rounded_onto(row.reliability, (settings.thresholds.superseded_reliability, RELIABLE_BAR))
    below = f" (below the {bar:.2f} bar: three decimals, as two would round it up onto the bar)" if bar is not None else ""
    evidence = ", ".join(row.evidence) if len(row.evidence) else "none"
    return f"reliability {shown}{below}  {row.label}  (dominant signal: {row.dominant_signal}; evidence: {evidence})"


def _lifecycle_part(row) -> str:
    """' | lifecycle -0.15 (V003 superseded by V031 since 2021-07-07)', ' | lifecycle: no penalty (...)' when the
    penalty is off or the successor came after as_of, or '' for a current dataset version."""
    from recon_assets.lifecycle.lineage import since_text

    if not row.dataset_superseded:
        return ""
    successor = f" by {row.successor_version}" if isinstance(row.successor_version, str) else ""
    since = since_text(row.superseded_since)
    version = row.dataset_version if isinstance(row.dataset_version, str) else "version"
    penalty = f"lifecycle -{row.lifecycle_penalty:.2f}" if row.lifecycle_penalty else "lifecycle: no penalty"
    return f" | {penalty} ({version} superseded{successor}{since})"


def _openalex_line(row) -> str:
    """The OpenAlex / Crossref signals of one scored edge, in one line: "not retracted" only once Crossref was
    checked too ("Crossref not checked" otherwise)."""
    import pandas as pd

    if pd.isna(row.openalex_status):
        return "OpenAlex: no DOI to look up"
    if row.openalex_status in ("error", "mismatch"):
        return f"OpenAlex: no record ({row.openalex_error})"
    parts = [f"OpenAlex {row.openalex_status}"]
    if not pd.isna(row.citations_as_of):
        parts.append(f"{int(row.citations_as_of):,} citations up to as_of -> citation centrality {row.citation_centrality:.2f}")
    parts.append(f"centrality from {row.centrality_source}")
    if not pd.isna(row.citation_trend):
        parts.append(f"citation trend {row.citation_trend:+.2f}")
    if row.is_retracted:
        parts.append(f"RETRACTED ({row.retraction_source})")
    else:
        parts.append("not retracted" if row.crossref_status == "checked" else "Crossref not checked")
    if row.year_source == "openalex":
        parts.append(f"year {row.publication_year} from OpenAlex")
    return " | ".join(parts)


if __name__ == "__main__":
    sys.exit(console())
