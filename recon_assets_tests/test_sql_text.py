"""SQL text lives in named SQL files (`recon_assets/<domain>/sql/<name>.sql`, issue 23 "one storage seam"), run
through the store's operations (`Tables`: `con.query`, `query_rows`, `query_row`, `run_sql`, ...) or, below the
storage seam (`shared/`), as `con.execute(load_sql(name), params)`. Only the storage folder, the DuckDB port, builds SQL
in Python (table and column names formatted in, DuckDB's own statements). Read with `ast` from every other module:
a connection's `execute`, `executemany` or `sql` run on anything but `load_sql(...)`, and a string that opens like a
SQL statement (docstrings aside), fail with the file and line."""

import ast
import re
from pathlib import Path

import pytest

from recon_assets.shared.sql_files import PACKAGE_DIR

# The port: engine-specific SQL (DDL replacement, migrations, DuckDB's SET/RESET) is built here and nowhere else.
PORT = "storage"
SQL_TEXT_CALLS = {"execute", "executemany", "sql"}
# A SQL statement's opening, as the code writes it (upper case); Cypher's `CREATE (n:Label ...)` and an OpenAlex or
# Crossref `select` of fields do not match.
STATEMENT = re.compile(
    r"^\s*(SELECT\b|WITH\s+\w+\s+AS\s*\(|INSERT\s+(OR\s+\w+\s+)?INTO\b|UPDATE\s+\w+\s+SET\b|DELETE\s+FROM\b|DESCRIBE\b|"
    r"(CREATE|DROP)\s+(OR\s+REPLACE\s+)?(TEMP\s+|TEMPORARY\s+)?(TABLE|VIEW|SCHEMA|INDEX)\b|ALTER\s+TABLE\b|COPY\b|ATTACH\b)"
)
# (module path under recon_assets, how the SQL text opens): why it stays in Python.
KEPT = {
    ("shared/table_docs.py", "DROP SCHEMA IF EXISTS"): (
        "the column docs are read by running each declaring file in a schema of its own on a private in-memory DuckDB "
        "(its name formatted in: a schema's name cannot be bound); the catalog read is shared/sql/declared_column_comments"
    ),
}


def text_of(node: ast.AST) -> str | None:
    """The text a string literal or f-string stands for (an f-string's placeholders as `{}`); None for other nodes."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(part.value if isinstance(part, ast.Constant) else "{}" for part in node.values)
    return None


def docstrings(tree: ast.Module) -> set[int]:
    """The ids of the module's, classes' and functions' docstring nodes."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                found.add(id(first.value))
    return found


def kept(module: str, text: str) -> bool:
    return any(module == path and text.lstrip().startswith(opening) for path, opening in KEPT)


def sql_text_in(path: Path) -> list[str]:
    """'<module>:<line>: <what>' for each SQL text `path` holds or runs outside a named SQL file (KEPT aside)."""
    module = path.relative_to(PACKAGE_DIR).as_posix()
    tree = ast.parse(path.read_text(), filename=str(path))
    # docstrings, and an f-string's literal parts (the f-string is read whole)
    skipped = docstrings(tree) | {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for part in node.values}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SQL_TEXT_CALLS and node.args:
            first = node.args[0]
            named = isinstance(first, ast.Call) and getattr(first.func, "id", getattr(first.func, "attr", None)) == "load_sql"
            if not named and not kept(module, text_of(first) or ""):
                found.append(f"{module}:{node.lineno}: .{node.func.attr}() runs SQL that is not load_sql(<name>)")
        text = text_of(node)
        if text is not None and id(node) not in skipped and STATEMENT.match(text) and not kept(module, text):
            found.append(f"{module}:{node.lineno}: SQL text {text.strip()[:60]!r}")
    return found


MODULES = sorted(path for path in PACKAGE_DIR.rglob("*.py") if path.relative_to(PACKAGE_DIR).parts[0] != PORT)


def test_no_module_outside_the_storage_port_holds_or_runs_sql_text():
    found = sorted({line for path in MODULES for line in sql_text_in(path)})
    assert found == [], (
        "SQL text outside a named SQL file: put it in recon_assets/<domain>/sql/<name>.sql and run it through the store "
        "(con.query / query_rows / query_row / run_sql; below the seam, con.execute(load_sql(name), params)), or add "
        "it to KEPT with the reason:\n" + "\n".join(found)
    )


@pytest.mark.parametrize(
    "source, flagged",
    [
        ('con.execute("SELECT count(*) FROM openalex_cache")', 2),  # the call and the text
        ('con.execute(f"DESCRIBE {table}")', 2),
        ("con.execute(sql)", 1),  # SQL text from elsewhere
        ('con.execute(load_sql("openalex_cache_rows"), [])', 0),
        ('con.query_rows("openalex_match_counts")', 0),
        ('WHERE = "WITH edges AS (SELECT 1)"', 1),
        ('CYPHER = "CREATE (n:Publication {doi: $doi})"', 0),
        ('params = {"select": "doi,title"}', 0),
        ('def f():\n    """SELECT is named in this docstring."""', 0),
    ],
)
def test_the_check_flags_sql_text_and_its_runs_not_named_files(tmp_path, monkeypatch, source, flagged):
    package = tmp_path / "recon_assets"
    (package / "kg").mkdir(parents=True)
    (package / "kg" / "module.py").write_text(source + "\n")
    monkeypatch.setattr(f"{__name__}.PACKAGE_DIR", package)
    found = sql_text_in(package / "kg" / "module.py")
    assert len(found) == flagged, found
    assert all(line.startswith("kg/module.py:1: ") for line in found)
