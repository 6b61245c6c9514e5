"""Files made from a DuckDB file for people and other programs (the reliability report, the exports): where they go,
how a run's files are named and published, and how many runs' files are kept. The report and the exports both go
through here. No Dagster import: `recon run`'s pre-check reads it.

For the DuckDB file `<folder>/<name>` and a kind of output (`reports`, `exports`), in `<folder>/<kind>/<name>/`:

- each run writes its own files under its stem, `<output>_<as_of>_<first 8 characters of the run id>` (a file per
  suffix, or a folder), never overwritten by another run;
- a copy of the newest run's files sits at a name that never changes (`reliability_report_latest.html`,
  `gnn_edge_weights/`), for the reader who wants the latest; written whole (`copy_whole`);
- after a run writes its files, those of the runs of the same output beyond the newest and RECON_KEEP_OUTPUTS
  earlier ones are removed (`prune`). Only names of the run pattern are removed (the `latest` copy, a user's own file
  and anything else in the folder are left alone), and the folder holds one database's files, named by the database
  file's whole name: two databases in one folder (data/a.duckdb, data/a.db, data/a) have three folders.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from recon_assets.shared.credentials import shown_setting
from recon_assets.storage.duckdb_settings import output_anchor

KEEP_VARIABLE = "RECON_KEEP_OUTPUTS"
# Five earlier runs: a week of daily runs can be compared with the newest, at about 1 MB per report on the sample.
DEFAULT_KEEP = 5
REPORTS, EXPORTS = "reports", "exports"
# The reliability report's output name and the stem of its latest copy (report.render writes them; `recon run` names
# the latest without importing the renderer).
REPORT_OUTPUT = "reliability_report"
LATEST_REPORT_STEM = f"{REPORT_OUTPUT}_latest"
# The run id's share of a stem: Dagster's run ids are UUIDs, whose first 8 hexadecimal digits tell runs apart.
RUN_ID_CHARACTERS = 8


def earlier_runs_kept() -> int:
    """How many runs' files are kept beside the newest run's, per output and database: RECON_KEEP_OUTPUTS, a whole
    number 0 or more (0 keeps the newest only); unset or empty, DEFAULT_KEEP.

    Raises:
        ValueError: one line naming RECON_KEEP_OUTPUTS and quoting its value (`credentials.shown_setting`).
    """
    value = os.environ.get(KEEP_VARIABLE) or ""
    if not value:
        return DEFAULT_KEEP
    if not re.fullmatch(r"[0-9]+", value.strip()):
        raise ValueError(
            f"{KEEP_VARIABLE} must be a whole number of earlier runs whose reports and exports are kept, 0 or more "
            f"(default {DEFAULT_KEEP}), got {shown_setting(value)}"
        )
    return int(value)


def output_folder(database: Path, kind: str) -> Path:
    """Where the files of `kind` (REPORTS, EXPORTS) made from the DuckDB file `database` go:
    `<its folder>/<kind>/<its file name>/` (data/recon.duckdb -> data/reports/recon.duckdb/), links resolved, so a
    database reached through a link has the same folder as through its path. The whole file name, not its stem:
    data/a.duckdb and data/a.db (or data/a) would share data/reports/a/ and one's runs remove the other's. A MotherDuck
    database (md:<name>) is named by `duckdb_settings.output_anchor` (data/reports/md_<name>/)."""
    database = output_anchor(database).resolve()
    return database.parent / kind / database.name


def prepared_folder(database: Path, kind: str) -> Path:
    """`output_folder`, created if missing.

    Raises:
        ValueError: something that is not a folder (another database file, say) has its name: one line naming both.
        OSError: it cannot be created (a full or read-only disk).
    """
    folder = output_folder(database, kind)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"the {kind} of {database} go into {folder}, but that is a file: move or rename one of them")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def run_stem(output: str, as_of: date, run_id: str | None) -> str:
    """The stem of one run's files of `output`: `<output>_<as_of YYYY-MM-DD>_<run id's first RUN_ID_CHARACTERS>`
    (`reliability_report_2026-11-29_56d0ac0d`); without a run id, `<output>_<as_of>`."""
    return f"{output}_{as_of.isoformat()}" + (f"_{run_id[:RUN_ID_CHARACTERS]}" if run_id else "")


def write_whole(path: Path, write: Callable[[Path], object]) -> Path:
    """Have `write` write the file `path` through a hidden file beside it (`.<name>.partial`) renamed over `path`
    (os.replace, atomic on POSIX): a reader sees the previous file or the new one, never half of one. The folder is
    created if missing.

    Raises:
        OSError (and whatever `write` raises): nothing is replaced; the partial file is removed.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    try:
        write(partial)
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    return path


def copy_whole(source: Path, target: Path) -> Path:
    """Copy the file `source` to `target`, written whole (`write_whole`): a copy, not a link, so the folder can be
    moved or zipped as it is."""
    return write_whole(target, lambda partial: shutil.copyfile(source, partial))


@dataclass(frozen=True)
class Pruned:
    """What `prune` did: the stems of the runs whose files it removed (oldest last), the number of files and folders
    removed, and those it could not remove, each with why."""

    runs: list[str]
    entries: int
    failed: list[str]

    def summary(self, output: str, keep: int) -> str:
        """One log line: 'gnn_edge_weights: kept the newest run's files and up to 5 earlier; removed 2 older runs (2
        entries)'."""
        line = f"{output}: kept the newest run's files and up to {keep} earlier; removed {len(self.runs)} older run(s) ({self.entries} entries)"
        return line + (f"; could not remove {len(self.failed)}: {'; '.join(self.failed)}" if self.failed else "")


def prune(folder: Path, output: str, keep: int, current: str, suffixes: Sequence[str] = ("",)) -> Pruned:
    """Remove the files of `output`'s runs in `folder` beyond the run `current` (a stem, always kept) and the `keep`
    newest others, newest by the latest modification time among a run's entries (a re-run of an older as_of is the
    newest run).

    A run's entries are the names `<run stem><suffix>` for each of `suffixes` (`run_stem`'s shape: the as_of date and
    8 lowercase hexadecimal digits of a Dagster run id, or no run id); no other name is touched. A folder entry is
    removed with its contents (shutil.rmtree; a link is removed, never followed).

    Returns:
        `Pruned`; an entry that cannot be removed (permissions) is listed in `failed` with its error, and the others are
        still removed.
    """
    pattern = re.compile(
        "(?P<stem>" + re.escape(output) + r"_\d{4}-\d{2}-\d{2}(?:_[0-9a-f]{%d})?)" % RUN_ID_CHARACTERS
        + "(?:" + "|".join(map(re.escape, suffixes)) + ")"
    )
    runs: dict[str, list[Path]] = {}
    for entry in folder.iterdir():
        if matched := pattern.fullmatch(entry.name):
            runs.setdefault(matched["stem"], []).append(entry)
    newest_first = sorted(
        (stem for stem in runs if stem != current),
        key=lambda stem: (max(entry.lstat().st_mtime_ns for entry in runs[stem]), stem), reverse=True,
    )
    removed, entries, failed = [], 0, []
    for stem in newest_first[keep:]:
        for entry in runs[stem]:
            try:
                if entry.is_dir() and not entry.is_symlink():
                    shutil.rmtree(entry)
                else:
                    entry.unlink()
                entries += 1
            except OSError as error:
                failed.append(f"{entry}: {error.strerror or error}")
        removed.append(stem)
    return Pruned(removed, entries, failed)
