"""The SQL lives beside the domain that owns it (`recon_assets/<domain>/sql/`) and is loaded by name: every name is
held by one file only, and every name the code loads resolves."""

import ast
from pathlib import Path

import pytest

from recon_assets.shared import sql_files
from recon_assets.shared.sql_files import PACKAGE_DIR, load_sql, sql_path
from recon_assets.shared.table_docs import DECLARING_FILES

from recon_assets_tests.pipeline_runs import REPO_ROOT

# Calls whose string arguments name SQL files (the first argument of the storage helpers is the connection), and the
# table store connection's methods (`storage.duckdb_store.Tables`) whose first argument names one (`con.query(name,
# params)`) or whose every argument does (`con.create(*names)`).
NAMING_CALLS = {"load_sql", "sql_path", "create_tables", "replace_table", "replace_table_from_query"}
FIRST_NAMING_METHODS = {"query", "query_rows", "query_row", "run_sql", "arrow"}
ALL_NAMING_METHODS = {"create"}


def sql_names_in(path: Path) -> set[str]:
    """The SQL names `path` passes to NAMING_CALLS and to `code_version(sql=[...])`: string literals, lists of them,
    or a name assigned one of those in the module (`TABLE = "llm_judgements"`, `tables = (...)` then `*tables`); in
    report/data.py also those passed to its `query` helper."""
    tree = ast.parse(path.read_text())
    assigned = {
        target.id: node.value
        for node in ast.walk(tree) if isinstance(node, ast.Assign)
        for target in node.targets if isinstance(target, ast.Name)
    }
    calls = NAMING_CALLS | ({"query"} if path.name == "data.py" and path.parent.name == "report" else set())

    def names(node: ast.AST) -> list[str]:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return [node.value]
        if isinstance(node, ast.Name) and node.id in assigned:
            return names(assigned[node.id])
        if isinstance(node, ast.Starred):
            return names(node.value)
        if isinstance(node, (ast.List, ast.Tuple)):
            return [name for element in node.elts for name in names(element)]
        return []

    found = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        called = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        on_con = isinstance(node.func, ast.Attribute) and getattr(node.func.value, "id", None) == "con"
        if called in calls or (on_con and called in ALL_NAMING_METHODS):
            found.update(name for argument in node.args for name in names(argument))
        if on_con and called in FIRST_NAMING_METHODS and node.args:
            found.update(names(node.args[0]))
        if called == "code_version":
            found.update(name for keyword in node.keywords if keyword.arg == "sql" for name in names(keyword.value))
    return found


def test_every_sql_file_name_is_held_by_one_domain_only():
    held = sql_files.sql_files()
    assert len(held) >= 75
    assert {name: paths for name, paths in held.items() if len(paths) > 1} == {}
    assert not list(PACKAGE_DIR.glob("sql/*.sql")), "the SQL lives in the domains' sql/ folders, not at the package root"


def test_every_sql_name_the_code_loads_resolves_to_its_file():
    sources = [*PACKAGE_DIR.rglob("*.py"), *(REPO_ROOT / "recon_assets_tests").glob("*.py")]
    used = {name for path in sources for name in sql_names_in(path)} | set(DECLARING_FILES)
    assert {"publications", "report_verdict_counts", "llm_judgements", "judge_inputs", "kg_snapshot"} <= used
    unresolved = []
    for name in sorted(used):
        try:
            assert sql_path(name).read_text() == load_sql(name)
        except FileNotFoundError:
            unresolved.append(name)
    assert unresolved == []


def test_every_sql_file_is_loaded_by_the_package():
    """No SQL file is left behind unread when the code that ran it goes."""
    used = {name for path in PACKAGE_DIR.rglob("*.py") for name in sql_names_in(path)} | set(DECLARING_FILES)
    assert set(sql_files.sql_files()) - used == set()


def test_a_name_held_twice_or_nowhere_is_a_clear_error(tmp_path, monkeypatch):
    for domain in ("kg", "verdicts"):
        (tmp_path / domain / "sql").mkdir(parents=True)
        (tmp_path / domain / "sql" / "datasets.sql").write_text("SELECT 1")
    (tmp_path / "kg" / "sql" / "publications.sql").write_text("SELECT 2")
    monkeypatch.setattr(sql_files, "PACKAGE_DIR", tmp_path)
    assert sql_files.sql_path.__wrapped__("publications") == tmp_path / "kg" / "sql" / "publications.sql"
    with pytest.raises(ValueError, match=r"SQL file name datasets\.sql is not unique: .*kg/sql/datasets\.sql, .*verdicts/sql/datasets\.sql"):
        sql_files.sql_path.__wrapped__("datasets")
    with pytest.raises(FileNotFoundError, match=r"no SQL file edges\.sql in any recon_assets/<domain>/sql/ folder"):
        sql_files.sql_path.__wrapped__("edges")
