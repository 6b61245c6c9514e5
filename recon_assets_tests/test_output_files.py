"""The output-files seam (issue 23, "outputs that do not pile up"): where a database's reports and exports go, the
RECON_KEEP_OUTPUTS setting, and the removal of earlier runs' files, on real folders."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path

import dagster as dg
import pytest

from recon_assets.exports import export_folder
from recon_assets.exports.assets import gnn_edge_weights, neo4j_edge_reliability
from recon_assets.report import report_folder
from recon_assets.report.assets import reliability_report
from recon_assets.report.render import REPORT_SUFFIXES
from recon_assets.storage.output_files import (
    DEFAULT_KEEP,
    EXPORTS,
    LATEST_REPORT_STEM,
    REPORT_OUTPUT,
    REPORTS,
    copy_whole,
    earlier_runs_kept,
    output_folder,
    prepared_folder,
    prune,
    run_stem,
)
from recon_assets.shared.as_of import AsOfDate
from recon_assets.storage.duckdb_store import TableStore
from recon_assets.storage.outputs import OutputFiles
from recon_assets_tests.pipeline_runs import AS_OF as SAMPLE_AS_OF

AS_OF = date.fromisoformat(SAMPLE_AS_OF)


@pytest.mark.parametrize(("value", "kept"), [(None, DEFAULT_KEEP), ("", DEFAULT_KEEP), ("0", 0), ("3", 3), ("12", 12)])
def test_keep_outputs_setting_reads_a_whole_number(monkeypatch, value, kept):
    if value is None:
        monkeypatch.delenv("RECON_KEEP_OUTPUTS", raising=False)
    else:
        monkeypatch.setenv("RECON_KEEP_OUTPUTS", value)
    assert earlier_runs_kept() == kept


@pytest.mark.parametrize("value", ["-1", "five", "2.5", "1e3", "+3", "3_0", "\uff15", "0x5", "5 runs"])
def test_a_keep_outputs_setting_that_is_not_a_whole_number_is_one_clear_error(monkeypatch, value):
    monkeypatch.setenv("RECON_KEEP_OUTPUTS", value)
    with pytest.raises(ValueError) as raised:
        earlier_runs_kept()
    message = str(raised.value)
    assert message.startswith("RECON_KEEP_OUTPUTS must be a whole number of earlier runs") and "\n" not in message
    assert f"got {value!r}" in message and f"(default {DEFAULT_KEEP})" in message


@pytest.mark.parametrize(
    ("asset", "folder"),
    [(reliability_report, report_folder), (gnn_edge_weights, export_folder), (neo4j_edge_reliability, export_folder)],
)
def test_a_bad_keep_outputs_setting_stops_each_output_step_before_it_writes(sample_run, tmp_path, monkeypatch, asset, folder):
    """Checked where the step starts (the CLI's pre-check is the coordinator's): the step fails with the one line, and
    no file of the database is written or removed."""
    monkeypatch.setenv("RECON_KEEP_OUTPUTS", "-2")
    database = sample_run.copy_database(tmp_path / "recon.duckdb")
    resources = {"store": TableStore(database=str(database)), "outputs": OutputFiles(database=str(database)), "as_of": AsOfDate(as_of=SAMPLE_AS_OF)}
    result = dg.materialize([asset], resources=resources, raise_on_error=False)
    assert not result.success and not folder(database).exists()
    (failure,) = [event for event in result.all_events if event.is_step_failure]
    assert failure.step_failure_data.error.cause.message == (
        "ValueError: RECON_KEEP_OUTPUTS must be a whole number of earlier runs whose reports and exports are kept, "
        f"0 or more (default {DEFAULT_KEEP}), got '-2'\n"
    )


def test_databases_of_one_folder_never_share_an_output_folder(tmp_path):
    """a.duckdb and b.duckdb never shared (reports/a/, reports/b/), but a.duckdb, a.db and a did: each name lost its
    suffix, so all three wrote reports/a/, and a retention pass of one would have removed the others' reports. The
    whole file name keeps them apart; a database reached through a link has its target's folder."""
    names = ["a.duckdb", "b.duckdb", "a.db", "a", "a.duckdb.duckdb"]
    for kind in (REPORTS, EXPORTS):
        folders = [output_folder(tmp_path / name, kind) for name in names]
        assert folders == [tmp_path.resolve() / kind / name for name in names]
    (tmp_path / "a.duckdb").touch()
    (tmp_path / "link.duckdb").symlink_to(tmp_path / "a.duckdb")
    assert report_folder(tmp_path / "link.duckdb") == report_folder(tmp_path / "a.duckdb")
    assert export_folder(tmp_path / "link.duckdb") == export_folder(tmp_path / "a.duckdb")


def test_an_output_folder_whose_name_is_a_file_is_a_clear_error(tmp_path):
    (tmp_path / "reports").mkdir()
    (tmp_path / "reports" / "a.duckdb").write_bytes(b"another database kept in reports/")
    with pytest.raises(ValueError, match=r"^the reports of .*a\.duckdb go into .*reports/a\.duckdb, but that is a file: move or rename one of them$"):
        prepared_folder(tmp_path / "a.duckdb", REPORTS)


def _report_run(folder: Path, run_id: str | None, age_seconds: int) -> str:
    """A run's report files as `write_report` leaves them (page, PDF, plots folder), modified `age_seconds` ago."""
    stem = run_stem(REPORT_OUTPUT, AS_OF, run_id)
    figures = folder / f"{stem}_figures"
    figures.mkdir(parents=True)
    (figures / "evaluation.png").write_bytes(b"png")
    for path in (folder / f"{stem}.html", folder / f"{stem}.pdf"):
        path.write_text(stem)
    for path in (folder / f"{stem}.html", folder / f"{stem}.pdf", figures):
        os.utime(path, (1_800_000_000 - age_seconds,) * 2)
    return stem


def test_retention_keeps_the_current_run_and_the_newest_earlier_ones_and_nothing_else_is_touched(tmp_path):
    folder = tmp_path / "reports" / "recon.duckdb"
    stems = [_report_run(folder, f"{n:08x}", age_seconds=100 * n) for n in range(1, 9)]  # stems[0] newest
    current = _report_run(folder, "c0ffee00", age_seconds=10_000)  # the run writing now, older by clock: kept anyway
    for name in (f"{LATEST_REPORT_STEM}.html", f"{LATEST_REPORT_STEM}.pdf", "my notes.txt", f"{REPORT_OUTPUT}_{AS_OF}_any-text.html",
                 f"{REPORT_OUTPUT}_{AS_OF}_0000000a.html.bak", f".{REPORT_OUTPUT}_latest.html.partial"):
        (folder / name).write_text("not a run's report")
    pruned = prune(folder, REPORT_OUTPUT, keep=3, current=current, suffixes=REPORT_SUFFIXES)

    assert pruned.runs == stems[3:] and pruned.entries == 3 * 5 and pruned.failed == []
    left = {path.name for path in folder.iterdir()}
    for stem in [current, *stems[:3]]:
        assert {f"{stem}.html", f"{stem}.pdf", f"{stem}_figures"} <= left
        assert (folder / f"{stem}_figures" / "evaluation.png").is_file()
    assert not any(name.startswith(stem) for stem in stems[3:] for name in left)
    assert {f"{LATEST_REPORT_STEM}.html", f"{LATEST_REPORT_STEM}.pdf", "my notes.txt", f"{REPORT_OUTPUT}_{AS_OF}_any-text.html",
            f"{REPORT_OUTPUT}_{AS_OF}_0000000a.html.bak", f".{REPORT_OUTPUT}_latest.html.partial"} <= left
    assert pruned.summary(REPORT_OUTPUT, 3) == (
        "reliability_report: kept the newest run's files and up to 3 earlier; removed 5 older run(s) (15 entries)"
    )


@pytest.mark.parametrize("keep", [0, 1, 20])
def test_retention_never_removes_the_current_run(tmp_path, keep):
    folder = tmp_path / "exports" / "recon.duckdb"
    current = run_stem("neo4j", AS_OF, "abcdef0123")
    for stem in (current, run_stem("neo4j", AS_OF, "01234567"), run_stem("neo4j", date(2020, 1, 1), None)):
        (folder / stem).mkdir(parents=True)
        (folder / stem / "set_aside.parquet").write_bytes(b"PAR1")
    pruned = prune(folder, "neo4j", keep=keep, current=current)
    assert (folder / current / "set_aside.parquet").is_file()
    assert len(pruned.runs) == max(0, 2 - keep) and len(list(folder.iterdir())) == 1 + min(keep, 2)


def test_two_databases_in_one_folder_keep_and_remove_only_their_own_runs(tmp_path):
    """a.duckdb and a.db in one folder, each with runs of its own: keeping 0 earlier runs of a.duckdb leaves a.db's
    every file (they are in another folder; before, both were reports/a/ and both sets matched the pattern)."""
    folder_a, folder_b = (prepared_folder(tmp_path / name, REPORTS) for name in ("a.duckdb", "a.db"))
    a_runs = [_report_run(folder_a, f"aaaaaaa{n}", age_seconds=n) for n in range(3)]
    b_runs = [_report_run(folder_b, f"bbbbbbb{n}", age_seconds=n) for n in range(3)]
    before_b = sorted(path.relative_to(folder_b) for path in folder_b.rglob("*"))
    pruned = prune(folder_a, REPORT_OUTPUT, keep=0, current=a_runs[0], suffixes=REPORT_SUFFIXES)
    assert pruned.runs == a_runs[1:]
    assert sorted(path.relative_to(folder_b) for path in folder_b.rglob("*")) == before_b
    assert len(b_runs) == 3 and folder_a != folder_b


def test_a_link_named_like_a_run_is_removed_never_followed(tmp_path):
    folder = tmp_path / "exports" / "recon.duckdb"
    outside = tmp_path / "precious"
    outside.mkdir()
    (outside / "keep.txt").write_text("not ours")
    current = run_stem("gnn_edge_weights", AS_OF, "11111111")
    (folder / current).mkdir(parents=True)
    (folder / run_stem("gnn_edge_weights", AS_OF, "22222222")).symlink_to(outside, target_is_directory=True)
    pruned = prune(folder, "gnn_edge_weights", keep=0, current=current)
    assert pruned.entries == 1 and (outside / "keep.txt").read_text() == "not ours"
    assert [path.name for path in folder.iterdir()] == [current]


def test_copy_whole_replaces_the_latest_copy_and_leaves_no_partial_file(tmp_path):
    source, latest = tmp_path / "run.html", tmp_path / "latest" / "report.html"
    latest.parent.mkdir()
    latest.write_text("previous")
    source.write_text("new")
    assert copy_whole(source, latest) == latest and latest.read_text() == "new"
    assert sorted(path.name for path in latest.parent.iterdir()) == ["report.html"]
