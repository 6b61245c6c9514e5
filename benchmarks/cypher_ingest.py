"""Time the KG ingest (`ingest_export`, the kg_snapshot step) of one generated KG in each export format.

    python benchmarks/cypher_ingest.py --workdir DIR [--scale v1|v2|FLOAT] [--seed N] [--formats cypher,jsonl]

Generates DIR/kg (benchmarks/generate_kg.py, every format asked; reused when its manifest matches), then ingests
each file into a fresh DuckDB file with the pipeline's own connection settings, each in a process of its own, and
prints one JSON report: per format the file's bytes, the lines read, wall seconds, lines and MB per second and the
peak RSS of that process. A figure, not a test: nothing is asserted (the machine is shared and noisy).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.generate_kg import generate, parse_scale, plan_counts

FILES = {"jsonl": "graph.json", "graphml": "graph.graphml", "cypher": "graph.cypher"}
REPO_ROOT = Path(__file__).resolve().parents[1]


def ingest_once(path: Path, database: Path) -> dict:
    """Ingest `path` into a new DuckDB file at `database`; the figures of this process."""
    import duckdb

    from recon_assets.kg.ingest import ingest_export
    from recon_assets.storage.duckdb_settings import duckdb_connection_config

    with duckdb.connect(str(database), config=duckdb_connection_config(database)) as con:
        started = time.perf_counter()
        summary = ingest_export(con, path, str(path))
        seconds = time.perf_counter() - started
    return {
        "bytes": path.stat().st_size,
        "lines_read": summary.lines_read,
        "nodes": summary.nodes_accepted,
        "relationships": summary.relationships_accepted,
        "rejected": summary.rejected,
        "seconds": round(seconds, 2),
        "lines_per_s": round(summary.lines_read / seconds),
        "mb_per_s": round(path.stat().st_size / 1e6 / seconds, 1),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),  # Linux: KiB
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workdir", type=Path, required=True)
    parser.add_argument("--scale", default="v1")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--formats", default="cypher,jsonl", help="comma-separated: jsonl, graphml, cypher")
    parser.add_argument("--ingest-one", nargs=2, metavar=("FILE", "DATABASE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.ingest_one:
        print(json.dumps(ingest_once(Path(args.ingest_one[0]), Path(args.ingest_one[1]))))
        return 0
    formats = tuple(args.formats.split(","))
    preset, scale = parse_scale(args.scale, "v1")
    kg = args.workdir / "kg"
    manifest_path = kg / "manifest.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else None
    generation_s = None
    if not manifest or (manifest["preset"], manifest["scale"], manifest["seed"]) != (preset, scale, args.seed) or any(
        fmt not in manifest["files"] for fmt in formats
    ):
        started = time.perf_counter()
        manifest = generate(kg, plan_counts(preset, scale), seed=args.seed, formats=formats)
        generation_s = round(time.perf_counter() - started, 1)
    report = {"preset": preset, "scale": scale, "seed": args.seed, "nodes": manifest["nodes"], "relationships": manifest["relationships"],
              "generation_s": generation_s, "ingest": {}}
    for fmt in formats:
        database = args.workdir / f"ingest_{fmt}.duckdb"
        database.unlink(missing_ok=True)
        print(f"ingesting {FILES[fmt]} ...", file=sys.stderr)
        child = subprocess.run(
            [sys.executable, "-m", "benchmarks.cypher_ingest", "--workdir", str(args.workdir), "--ingest-one", str(kg / FILES[fmt]), str(database)],
            capture_output=True, text=True, check=True, cwd=REPO_ROOT,
        )
        report["ingest"][fmt] = json.loads(child.stdout.strip().splitlines()[-1])
        database.unlink(missing_ok=True)
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
