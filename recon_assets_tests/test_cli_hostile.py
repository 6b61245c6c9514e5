"""A hostile user's inputs to the reading commands (`recon explain`, `recon brief`, `recon ask`, `recon paper`), called
in process through `recon_assets.cli.main.main`: each unusable input should be refused in one `error: ...` line with
exit status 2, before any run is launched. Rows marked xfail are breaks found on 2026-12-03 and not fixed yet; the others are fixed, or were never broken.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

import recon_assets
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


def _code_server_loads(cwd: Path, home: Path, pythonpath: str | None = None) -> subprocess.CompletedProcess:
    """Start the code server of `recon run`, `recon paper` and `recon ask` (`CodeServer`) from a process whose current
    folder is `cwd`, with PYTHONPATH `pythonpath` (unset when None), as those commands start it; its output. The
    process runs with -P, as the `recon` console script runs: no current folder on its own sys.path."""
    script = ("import sys, tempfile, pathlib, recon_assets; from recon_assets.cli.launched_runs import CodeServer; "
              "print(recon_assets.__file__, flush=True); folder = pathlib.Path(tempfile.mkdtemp()); "
              "server = CodeServer(folder); server.workspace(); server.close(); print('served', flush=True)")
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"} | {"DAGSTER_HOME": str(home)}
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    return subprocess.run([sys.executable, "-P", "-c", script], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def _planted(folder: Path, marker: str) -> Path:
    """A copy of the installed `recon_assets` package in `folder` whose definitions module raises ImportError(marker)."""
    copy = folder / "recon_assets"
    shutil.copytree(Path(recon_assets.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__", "*.pdf", "*.jsonl"))
    (copy / "definitions.py").write_text(f"raise ImportError({marker!r})\n")
    return copy


def test_the_code_server_loads_the_code_the_command_imported_whatever_the_current_folder_or_pythonpath(tmp_path):
    """Hostile passes (2026-12-04, 12-05): the runs imported other code than the command, and every run then ended
    "still stale after its own run: code version changed". `dagster api grpc` took the current folder as its
    location's working directory (a `recon_assets/` folder there was the code the runs ran), and drops sys.path[0],
    which under the PYTHONSAFEPATH set then was the PYTHONPATH copy the command ran. The server's working directory
    is now the folder of the package the command imported."""
    (home := tmp_path / "home").mkdir()
    _planted(tmp_path / "cwd", "the current folder's recon_assets was imported")
    served = _code_server_loads(tmp_path / "cwd", home)
    assert served.stdout.splitlines() == [recon_assets.__file__, "served"], served.stderr[-2000:]
    copy = _planted(tmp_path / "path", "the PYTHONPATH copy the command ran was imported")
    loaded = _code_server_loads(tmp_path, home, pythonpath=str(copy.parent))
    assert loaded.stdout.splitlines()[0] == str(copy / "__init__.py")  # the command ran the copy ...
    assert "the PYTHONPATH copy the command ran was imported" in loaded.stderr  # ... and so did its code server


@pytest.mark.parametrize("command", [
    ["ask", "Is IMERG precipitation good for flood mapping?"], ["paper", "10.1016/j.rse.2020.111869"], ["explain", "10.3390/rs12081239"],
], ids=["ask", "paper", "explain"])
def test_a_reading_command_refuses_a_file_holding_another_programs_table_of_a_recon_name(command, tmp_path, capsys, monkeypatch):
    """Hostile pass 28: `recon ask` checked only edge_reliability and `recon paper` only datasets and publications,
    so their runs failed midway, having written, on a user's research_briefs or paper_scores (or `ask` said "run
    `recon run` first", which refuses the file). The whole file is checked before any run; the file is unchanged."""
    from recon_assets.storage.tables import create_tables

    database = tmp_path / "recon.duckdb"
    with duckdb.connect(str(database)) as con:
        create_tables(con, "edge_reliability", "datasets", "publications")
        con.execute("CREATE TABLE research_briefs (my_id INTEGER, note VARCHAR); INSERT INTO research_briefs VALUES (1, 'mine')")
    before = database.read_bytes()
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("RECON_OPENALEX", "offline")
    assert main([*command, "--db", str(database)]) == 2
    err = capsys.readouterr().err
    _one_error_line(err)
    assert "holds a table named as recon_assets' own that recon_assets did not write (research_briefs (" in err
    assert database.read_bytes() == before
