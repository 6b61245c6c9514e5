"""`duckdb_files.database_problem`: the one check `recon explain`, `recon ask` and `recon paper` run on the database a
user gives them, before reading it. Each row is a case one of the three once got wrong or said differently."""

import sqlite3
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from recon_assets.storage.duckdb_files import database_problem
from recon_assets.shared.table_docs import TABLE_DOCS
from recon_assets.storage.tables import create_tables


def _duckdb_with(path, *tables):
    """A DuckDB file holding `tables` as recon_assets creates them (from their DDL), empty."""
    with duckdb.connect(str(path)) as con:
        create_tables(con, *tables)
    return path


def test_a_database_with_the_tables_has_no_problem(tmp_path):
    database = _duckdb_with(tmp_path / "recon.duckdb", "datasets", "publications")
    assert database_problem(database, ("datasets", "publications"), "graph") is None
    assert database_problem(database) is None


def test_no_file_names_where_it_looked_and_what_to_do(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert database_problem(tmp_path / "none.duckdb", ("edge_reliability",), "scores") == (
        f"no database file at {tmp_path / 'none.duckdb'} (--db, else RECON_DB_PATH, else data/recon.duckdb under the "
        "current folder): run `recon run` first, or give --db"
    )
    assert database_problem(tmp_path, ("edge_reliability",), "scores").startswith("no database file at ")  # a folder


@pytest.mark.parametrize("content", [b"", b'{"type": "node", "id": "1"}\n', None])
def test_a_file_that_is_not_duckdb_is_refused_without_opening_it(tmp_path, content):
    """A JSON file read as "holds no scores yet (Catalog Error ...)" in `recon explain`; a 0-byte file, which DuckDB
    would make a database of, was written into by `recon paper`; a SQLite file made DuckDB try to download its
    extension. The file is left as it was."""
    database = tmp_path / "recon.duckdb"
    if content is None:
        with sqlite3.connect(database) as con:
            con.execute("CREATE TABLE edge_reliability (doi TEXT)")
    else:
        database.write_bytes(content)
    before = database.read_bytes()
    assert database_problem(database, ("edge_reliability",), "scores") == (
        f"{database} is not a DuckDB database file (no DuckDB header): give the --db of a `recon run`"
    )
    assert database.read_bytes() == before


def test_a_database_without_the_tables_names_the_missing_ones(tmp_path):
    database = _duckdb_with(tmp_path / "recon.duckdb", "publications")
    assert database_problem(database, ("datasets", "publications"), "graph") == (
        f"{database} holds no graph yet (no datasets table): run `recon run --db {database}` first"
    )


def test_tables_of_recon_names_another_program_wrote_are_named_and_a_users_own_tables_are_not(tmp_path):
    """Hostile pass (2026-12-04): a DuckDB file of another program holding `edge_reliability(x)` was told to "run
    `recon run --db` first", which replaced its tables. A table of one of recon_assets' names without recon_assets'
    mark, not shaped as an older version's, is another program's (`ownership`); a table of another name is the user's."""
    database = _duckdb_with(tmp_path / "recon.duckdb", "datasets", "publications")
    with duckdb.connect(str(database)) as con:
        con.execute("CREATE TABLE my_notes (id INTEGER)")
    assert database_problem(database, ("datasets", "publications"), "graph") is None
    other = tmp_path / "other.duckdb"
    with duckdb.connect(str(other)) as con:
        con.execute("CREATE TABLE edge_reliability (x INTEGER); CREATE TABLE publications (doi VARCHAR)")
    # the whole file, not only the tables the command reads (hostile pass 28: `recon ask` checked edge_reliability
    # alone, and its run failed midway on another table it writes)
    assert database_problem(other, ("edge_reliability",), "scores") == (
        f"{other} holds tables named as recon_assets' own that recon_assets did not write (edge_reliability (no "
        f"recon_assets mark; 0 of its {len(TABLE_DOCS['edge_reliability'])} columns; 1 it does not declare; 1 without a "
        f"comment); publications (no recon_assets mark; 1 of its {len(TABLE_DOCS['publications'])} columns; 1 without a "
        "comment)), e.g. another program's: recon_assets leaves them as they are and writes nothing in their place; give "
        "another --db, or rename them"
    )


def test_a_database_another_process_writes_is_said_to_be_unreadable_not_empty(tmp_path):
    """`recon explain` once reported a database locked by a running `recon run` as holding "no scores yet"."""
    database = _duckdb_with(tmp_path / "recon.duckdb", "edge_reliability")
    holder = subprocess.Popen(
        [sys.executable, "-c", "import duckdb, sys; con = duckdb.connect(sys.argv[1]); print('ready', flush=True); sys.stdin.read()",
         str(database)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "ready"
        problem = database_problem(database, ("edge_reliability",), "scores")
    finally:
        holder.communicate("")
    assert problem.startswith(f"cannot read {database}: IOException: ") and "lock" in problem
    assert "\n" not in problem


def test_a_motherduck_database_without_its_token_is_said_in_one_line(monkeypatch):
    monkeypatch.delenv("MOTHERDUCK_TOKEN", raising=False)
    problem = database_problem(Path("md:recon"), ("datasets",), "graph")
    assert problem.startswith("cannot read md:recon: MissingTokenError: md:recon is a MotherDuck database but MOTHERDUCK_TOKEN")


def test_a_users_tables_in_another_schema_are_not_recons(tmp_path):
    """Hostile pass 29: a file holding only a user's `s.edge_reliability` and `s.publications` was taken to hold the
    scores (the catalog was read across schemas), and `recon ask` then wrote three tables into it and failed; recon
    reads and writes the current schema only, and a table's digest there is 'absent'."""
    from recon_assets.shared.data_versions import ABSENT, table_digest

    database = tmp_path / "other_schema.duckdb"
    with duckdb.connect(str(database)) as con:
        con.execute("CREATE SCHEMA s; CREATE TABLE s.edge_reliability (x INTEGER); CREATE TABLE s.publications (doi VARCHAR, note VARCHAR)")
        con.execute("INSERT INTO s.publications VALUES ('10.1/x', 'mine')")
        assert table_digest(con, "publications") == ABSENT  # `recon run`'s staleness read main.publications, absent
    assert database_problem(database, ("edge_reliability",), "scores") == (
        f"{database} holds no scores yet (no edge_reliability table): run `recon run --db {database}` first"
    )
