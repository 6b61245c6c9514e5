"""Start-up time of the `recon` command (issue 23 "Start-up": `recon --help` and `recon explain` in under 1 s on an
idle machine), beside Python's own start and Dagster's import measured in the same run.

    .venv/bin/python benchmarks/startup.py [--runs 7] [--db PATH] [--doi DOI] [--workdir DIR]

Each command runs `--runs` times in a fresh subprocess (the commands taking turns, so a change of load on a shared
machine falls on all of them); the median and the fastest wall-clock time of each are printed, with the ratio of
the median to the baselines `python -c pass` and `python -c "import dagster"`, and the median CPU time (user +
system) of the process: start-up is one thread, so on a busy machine its CPU time is the better guess of the
idle wall-clock time. `recon explain` reads `--db`, by
default a database this script makes once with `recon run` on the shipped sample in `--workdir` (reused when it is
already there), and explains `--doi`, by default the first publication DOI with a scored edge. The machine's load
average is printed too: figures taken under load are not the idle figures the target is about.
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb

TARGET_SECONDS = 1.0
AS_OF = "2026-11-29"
RECON = str(Path(sys.executable).with_name("recon"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="runs of each command (default 7)")
    parser.add_argument("--db", type=Path, help="DuckDB file of a `recon run` to explain from; default: made in --workdir")
    parser.add_argument("--doi", help="DOI to explain; default: the first publication DOI with a scored edge")
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "recon_startup_benchmark",
                        help="where the sample database is made when --db is not given")
    args = parser.parse_args()
    database = args.db or sample_database(args.workdir)
    doi = args.doi or first_scored_doi(database)
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        'python -c "import dagster"': [sys.executable, "-c", "import dagster"],
        "recon --help": [RECON, "--help"],
        "recon explain --help": [RECON, "explain", "--help"],
        f"recon explain {doi}": [RECON, "explain", doi, "--db", str(database)],
    }
    load = os.getloadavg()
    times = {name: [] for name in commands}
    cpu_times = {name: [] for name in commands}
    for _ in range(args.runs):
        for name, command in commands.items():
            wall, cpu = timed(command)
            times[name].append(wall)
            cpu_times[name].append(cpu)
    medians = {name: statistics.median(values) for name, values in times.items()}
    python, dagster = medians["python -c pass"], medians['python -c "import dagster"']
    print(f"median and fastest of {args.runs} runs each; load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} "
          f"on {os.cpu_count()} cores, after: {os.getloadavg()[0]:.2f}")
    width = max(map(len, commands))
    print(f"{'command':<{width}}  {'median s':>8}  {'fastest s':>9}  {'x python':>8}  {'x dagster':>9}  {'CPU s':>6}")
    for name, median in medians.items():
        target = f"  target < {TARGET_SECONDS:.0f} s: {'met' if median < TARGET_SECONDS else 'NOT met'}" if name.startswith("recon") else ""
        print(f"{name:<{width}}  {median:8.3f}  {min(times[name]):9.3f}  {median / python:8.1f}  {median / dagster:9.2f}  "
              f"{statistics.median(cpu_times[name]):6.3f}{target}")
    return 0


def timed(command: list[str]) -> tuple[float, float]:
    """(wall-clock seconds, CPU seconds: user + system) of one run of `command` in a subprocess, its output discarded.

    Raises:
        subprocess.CalledProcessError: the command failed (a figure for a failing command would mean nothing).
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def sample_database(workdir: Path) -> Path:
    """`workdir/recon.duckdb`, made by `recon run` on the shipped sample (as of AS_OF, its Dagster instance in
    `workdir/dagster_home`) unless a finished run already left it there.

    Raises:
        subprocess.CalledProcessError: `recon run` failed.
    """
    database = workdir / "recon.duckdb"
    if database.is_file() and first_scored_doi(database, missing_ok=True):
        return database
    (workdir / "dagster_home").mkdir(parents=True, exist_ok=True)
    print(f"making the sample database {database} with `recon run` (a few minutes)...", file=sys.stderr)
    environment = {**os.environ, "DAGSTER_HOME": str(workdir / "dagster_home")}
    subprocess.run([RECON, "run", "--db", str(database), "--as-of", AS_OF], check=True, env=environment,
                   stdout=subprocess.DEVNULL)
    return database


def first_scored_doi(database: Path, missing_ok: bool = False) -> str | None:
    """The first publication DOI, in sort order, with a scored edge in `database` (None with `missing_ok` when there is
    no such edge or table).

    Raises:
        LookupError: `database` holds no scored edge with a publication DOI (and not `missing_ok`).
    """
    try:
        with duckdb.connect(str(database), read_only=True) as con:
            row = con.execute("SELECT min(publication_doi) FROM edge_reliability").fetchone()
    except duckdb.Error:
        row = (None,)
    if row[0] is None and not missing_ok:
        raise LookupError(f"{database} holds no scored edge with a publication DOI: give another --db or a --doi")
    return row[0]


if __name__ == "__main__":
    sys.exit(main())
