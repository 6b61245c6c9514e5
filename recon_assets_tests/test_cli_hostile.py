"""A hostile user's inputs to the reading commands (`recon explain`, `recon brief`, `recon ask`, `recon paper`), called
in process through `recon_assets.cli.main.main`: each unusable input should be refused in one `error: ...` line with
exit status 2, before any run is launched. Rows marked xfail are breaks found on 2026-12-03 and not fixed yet; the others are fixed, or were never broken.
"""

import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

import recon_assets
from recon_assets.cli.launched_runs import installed_code_only
from recon_assets.cli.main import main

# One path component longer than NAME_MAX (255 bytes on Linux): stat() fails with ENAMETOOLONG, not ENOENT.
_LONG_NAME = "a" * 300


def _one_error_line(err: str) -> None:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), err[:2000]
    assert "Traceback" not in err


@pytest.mark.parametrize("command", [["explain", "10.3390/rs12081239"], ["brief", "q1"]])
def test_a_db_path_with_an_overlong_name_is_refused_in_one_line(command, tmp_path, capsys):
    """Bug row: Path.is_file() raises ENAMETOOLONG (Python 3.11 swallows only ENOENT, ENOTDIR, EBADF, ELOOP): a
    traceback and exit 1."""
    database = tmp_path / f"{_LONG_NAME}.duckdb"
    assert main([*command, "--db", str(database)]) == 2
    _one_error_line(capsys.readouterr().err)


@pytest.mark.parametrize("source", ["10.1234/" + "a" * 5000, "/tmp/" + _LONG_NAME + ".pdf"])
def test_paper_with_an_overlong_source_is_refused_in_one_line(source, tmp_path, capsys, monkeypatch):
    """Bug row: `recon paper` tried Path(source).is_file() first, and a DOI or path over the system's limits raised
    ENAMETOOLONG: a traceback and exit 1."""
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("RECON_OPENALEX", "offline")
    assert main(["paper", source, "--db", str(tmp_path / "none.duckdb")]) == 2
    _one_error_line(capsys.readouterr().err)


def test_brief_on_a_duckdb_file_of_another_program_is_unusable_input(tmp_path, capsys):
    """Bug row: `recon brief` on a DuckDB file of another program said 'no brief for question ...' with a hint about
    question_file_sensor and exited 1, where `recon explain` says the file holds no scores and exits 2."""
    database = tmp_path / "other.duckdb"
    with duckdb.connect(str(database)) as con:
        con.execute("CREATE TABLE foo (x INTEGER)")
    assert main(["brief", "q1", "--db", str(database)]) == 2
    err = capsys.readouterr().err
    _one_error_line(err)
    assert "question_file_sensor" not in err


@pytest.mark.parametrize("name", ["empty.duckdb", "text.duckdb"])
@pytest.mark.parametrize("command", [["explain", "10.3390/rs12081239"], ["brief", "q1"]])
def test_a_file_that_is_no_duckdb_database_is_refused_in_one_line(name, command, tmp_path, capsys):
    database = tmp_path / name
    database.write_bytes(b"" if name == "empty.duckdb" else b"hello world\n")
    assert main([*command, "--db", str(database)]) == 2
    err = capsys.readouterr().err
    _one_error_line(err)
    assert "not a DuckDB database file" in err


@pytest.mark.parametrize("doi, status", [("10.1234/" + "a" * 3000, 1), ("not-a-doi-" + "b" * 3000, 2)])
def test_explain_echoes_a_3000_character_doi_clipped(doi, status, sample_run, capsys):
    """Hostile pass (2026-12-04): `recon explain` echoed a 3,000-character DOI whole in its one line."""
    assert main(["explain", doi, "--db", str(sample_run.database)]) == status
    (line,) = capsys.readouterr().err.splitlines()
    assert len(line) < 250 and f"{doi[:100]}... ({len(doi):,} characters)" in line


def test_explain_of_a_doi_with_control_characters_is_refused_in_one_line(capsys):
    assert main(["explain", "10.3390/\x1b[31mRED"]) == 2
    err = capsys.readouterr().err
    _one_error_line(err)
    assert "\x1b" not in err


def test_the_processes_recon_starts_never_import_a_recon_assets_folder_of_the_current_directory(tmp_path):
    """Bug row: `recon run` from a folder holding a `recon_assets/` package ran that folder's code in its code server
    and runs (`python -m` puts the current directory first on sys.path), not the installed code."""
    (tmp_path / "recon_assets").mkdir()
    (tmp_path / "recon_assets" / "__init__.py").write_text("")
    command = [sys.executable, "-c", "import recon_assets; print(recon_assets.__file__)"]
    imported = subprocess.run(command, cwd=tmp_path, env=installed_code_only(), capture_output=True, text=True, check=True)
    assert Path(imported.stdout.strip()).resolve() == Path(recon_assets.__file__).resolve()
    unsafe = subprocess.run(command, cwd=tmp_path, env={**os.environ, "PYTHONSAFEPATH": ""}, capture_output=True, text=True, check=True)
    assert Path(unsafe.stdout.strip()).parent == tmp_path / "recon_assets"  # what happened before


def test_the_code_server_recon_run_starts_loads_the_installed_code_not_the_current_folders(tmp_path, monkeypatch):
    """Hostile pass (2026-12-04): the runs of `recon run` imported other code than the command (every run then ended
    "still stale after its own run: code version changed"). `dagster api grpc` makes the current folder its
    location's working directory, put first on sys.path where the server and each run worker import the module,
    whatever PYTHONSAFEPATH says: the code server is started with --empty-working-directory."""
    from recon_assets.cli.launched_runs import CodeServer

    planted = tmp_path / "cwd" / "recon_assets"
    planted.mkdir(parents=True)
    (planted / "__init__.py").write_text("")
    (planted / "definitions.py").write_text("raise ImportError('the current folder\\'s recon_assets was imported')\n")
    monkeypatch.chdir(planted.parent)
    (tmp_path / "server").mkdir()
    (tmp_path / "home").mkdir()
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "home"))
    with CodeServer(tmp_path / "server") as server:
        server.workspace()  # LaunchError with the planted module's line when it is loaded
        assert "current folder's recon_assets" not in server.console_text()
