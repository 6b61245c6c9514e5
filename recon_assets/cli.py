"""`recon`: run the whole pipeline on the local Dagster instance, and explain the scores of one DOI.

    recon run [--kg PATH] [--db PATH] [--as-of YYYY-MM-DD]
    recon explain DOI [--db PATH]

`recon run` is a thin wrapper over Dagster's own execution: two runs on the instance in DAGSTER_HOME
(created if missing, default ./.dagster_home), one for the unpartitioned assets and one single-run
backfill over every research area (OpenAlex and Crossref enrichment, judgement, reliability), so both
show in `dagster dev` with their materializations and lineage.
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import sys
import time
from datetime import date
from pathlib import Path

import duckdb
import pandas as pd

from recon_assets.kg.doi import canonical_doi
from recon_assets.resources import DEFAULT_DB_PATH

# Dagster's run tags for a partition range, read by single-run backfills (dagster._core.storage.tags).
PARTITION_RANGE_START_TAG = "dagster/asset_partition_range_start"
PARTITION_RANGE_END_TAG = "dagster/asset_partition_range_end"
DEFAULT_DAGSTER_HOME = Path(".dagster_home")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="recon", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="materialize every asset and every research-area partition")
    run.add_argument("--kg", type=Path, help="KG export (APOC JSON-lines or GraphML); default: the shipped sample")
    run.add_argument("--db", type=Path, help="DuckDB file to write; default data/recon.duckdb")
    run.add_argument("--as-of", type=date.fromisoformat, help="score as of this date (YYYY-MM-DD); default today")
    explain = commands.add_parser("explain", help="print every scored edge of a publication or dataset DOI")
    explain.add_argument("doi", help="publication or dataset DOI, in any spelling (https://doi.org/..., doi:..., upper case)")
    explain.add_argument("--db", type=Path, help="DuckDB file to read; default data/recon.duckdb")
    args = parser.parse_args(argv)
    if args.command == "run":
        return run_pipeline(args.kg, args.db, args.as_of)
    return explain_doi(args.doi, args.db)


def run_pipeline(kg: Path | None, db: Path | None, as_of: date | None) -> int:
    """Materialize every asset (two Dagster runs); print progress and a summary. Returns the exit code."""
    if kg is not None:
        os.environ["RECON_KG_PATH"] = str(kg.resolve())
    if db is not None:
        os.environ["RECON_DB_PATH"] = str(db.resolve())
    if as_of is not None:
        os.environ["RECON_AS_OF"] = as_of.isoformat()
    home = _prepare_dagster_home()
    # The instance's schema migration logs each step at INFO; the run's own events say what matters.
    logging.getLogger("alembic").setLevel(logging.WARNING)
    # Imported here: definitions read the RECON_* environment when they load.
    import dagster as dg

    from recon_assets.definitions import defs
    from recon_assets.partitions import research_area_partitions

    instance = dg.DagsterInstance.get()
    print(f"Dagster instance: {home}")
    areas = research_area_partitions.get_partition_keys()
    runs = [
        ("kg_tables_job", {}, "ingest the KG snapshot, build typed tables and centrality"),
        (
            "openalex_refresh_job",
            {PARTITION_RANGE_START_TAG: areas[0], PARTITION_RANGE_END_TAG: areas[-1]},
            f"fetch OpenAlex works and Crossref notices (offline unless RECON_OPENALEX / RECON_CROSSREF=online), "
            f"judge and score all {len(areas)} research areas in one run",
        ),
    ]
    checks: list[tuple[str, bool]] = []
    for job_name, tags, what in runs:
        started = time.monotonic()
        print(f"[{job_name}] {what} ...", flush=True)
        result = defs.resolve_job_def(job_name).execute_in_process(instance=instance, tags=tags, raise_on_error=False)
        checks += [(evaluation.check_name, evaluation.passed) for evaluation in result.get_asset_check_evaluations()]
        status = "succeeded" if result.success else "FAILED"
        print(f"[{job_name}] {status} in {time.monotonic() - started:.1f}s (run {result.run_id})", flush=True)
        for name, ok in checks:
            if not ok:
                print(f"[{job_name}] asset check FAILED: {name} (its metadata in the UI says by how much)", file=sys.stderr)
        if not result.success:
            print(f"run failed; see `dagster dev` (DAGSTER_HOME={home}) for the logs of run {result.run_id}", file=sys.stderr)
            return 1
    _print_summary(Path(os.environ.get("RECON_DB_PATH") or DEFAULT_DB_PATH), checks)
    return 0


def _prepare_dagster_home() -> Path:
    """Use DAGSTER_HOME, else ./.dagster_home; create it and give it the project's dagster.yaml if it has none."""
    home = Path(os.environ.get("DAGSTER_HOME") or DEFAULT_DAGSTER_HOME).resolve()
    home.mkdir(parents=True, exist_ok=True)
    os.environ["DAGSTER_HOME"] = str(home)
    project_yaml = Path(__file__).resolve().parents[1] / "dagster.yaml"
    if not (home / "dagster.yaml").exists() and project_yaml.exists():
        shutil.copy(project_yaml, home / "dagster.yaml")
    return home


def _print_summary(db: Path, checks: list[tuple[str, bool]]) -> None:
    with duckdb.connect(str(db), read_only=True) as con:
        labels = con.execute("SELECT label, count(*) FROM edge_reliability GROUP BY 1 ORDER BY 2 DESC").fetchall()
        snapshot = con.execute(
            "SELECT snapshot_id, lines_read, nodes_accepted, relationships_accepted, rejected "
            "FROM kg_snapshots ORDER BY loaded_at DESC LIMIT 1"
        ).fetchone()
    print(f"\nDuckDB: {db}")
    print(f"snapshot {snapshot[0]}: {snapshot[1]:,} lines -> {snapshot[2]:,} nodes, {snapshot[3]:,} relationships, {snapshot[4]:,} rejected (see kg_rejects)")
    print("edges scored per label: " + ", ".join(f"{label} {count:,}" for label, count in labels))
    print(f"asset checks passed: {sum(ok for _, ok in checks)}/{len(checks)}")


def explain_doi(doi: str, db: Path | None) -> int:
    """Print every scored edge of the publication or dataset with this DOI. Returns 0, or 1 when none is found."""
    key = canonical_doi(doi)
    if key is None:
        print(f"{doi!r} is not a DOI", file=sys.stderr)
        return 1
    path = db or Path(os.environ.get("RECON_DB_PATH") or DEFAULT_DB_PATH)
    if not path.exists():
        print(f"no database at {path}: run `recon run` first", file=sys.stderr)
        return 1
    with duckdb.connect(str(path), read_only=True) as con:
        rows = con.execute(
            "SELECT * FROM edge_reliability WHERE publication_doi = ? OR dataset_doi = ? "
            "ORDER BY research_area, reliability DESC, dataset_short_name",
            [key, key],
        ).df()
    if rows.empty:
        print(f"no scored edge for DOI {key} in {path}", file=sys.stderr)
        return 1
    as_of = rows["as_of"].iloc[0].date().isoformat()
    print(f"{len(rows)} scored edge(s) for DOI {key} (as of {as_of}, snapshot {rows['snapshot_id'].iloc[0]}):")
    for row in rows.itertuples():
        print(
            f"\n  {row.dataset_short_name} ({row.dataset_doi}) <- {row.publication_doi} ({row.publication_year}) "
            f"[{row.research_area}]\n"
            f"    reliability {row.reliability:.2f}  {row.label}  (dominant signal: {row.dominant_signal})\n"
            f"    centrality {row.centrality:.2f} | recency {row.recency:.2f} | coherence {row.coherence:.2f} {row.coherence_status}\n"
            f"    {_openalex_line(row)}\n"
            f"    {row.reason}"
        )
    return 0


def _openalex_line(row) -> str:
    """The OpenAlex / Crossref signals of one scored edge, in one line."""
    if pd.isna(row.openalex_status):
        return "OpenAlex: no DOI to look up"
    parts = [f"OpenAlex {row.openalex_status}"]
    if not pd.isna(row.cited_by_count):
        parts.append(f"{int(row.cited_by_count):,} citations -> citation centrality {row.citation_centrality:.2f}")
    parts.append(f"centrality from {row.centrality_source}")
    if not pd.isna(row.citation_trend):
        parts.append(f"citation trend {row.citation_trend:+.2f}")
    parts.append(f"RETRACTED ({row.retraction_source})" if row.is_retracted else "not retracted")
    if row.year_source == "openalex":
        parts.append(f"year {row.publication_year} from OpenAlex")
    return " | ".join(parts)


if __name__ == "__main__":
    sys.exit(main())
