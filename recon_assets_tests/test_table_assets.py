"""Each asset's declaration (`recon_assets.declarations`, `shared.table_assets`) is held to its code: the project
modules its code reaches, the SQL files it loads, and every table its SQL (files and inline text) reads or writes.

What the asset's code is: its function and, from it, every top-level function, class or constant of a project module
it names, and what those name in turn (`asset_reach`, read with `ast`). The modules holding what is reached are the
asset's modules, except the asset modules themselves (the thin Dagster shell, whose functions are walked but not
versioned), the framework (shared, storage, the declarations) and the resources (the services a run talks to: what
they answer is an input, not code). The tables a SQL text reads are sqlglot's parse of it in DuckDB's dialect.
"""

from __future__ import annotations

import ast
import importlib.util
import logging
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import dagster as dg
import pytest
import sqlglot
from sqlglot import exp

from recon_assets.automation.run_inputs import RUN_INPUTS
from recon_assets.declarations import ASSET_TABLES
from recon_assets.definitions import ASSETS
from recon_assets.shared.sql_files import PACKAGE_DIR, load_sql
from recon_assets.shared.table_assets import PACKAGE, TableAsset, TableGraph

# sqlglot reads DuckDB's RESET and SET VARIABLE as plain commands, and says so for each: no table is in them.
logging.getLogger("sqlglot").setLevel(logging.ERROR)

# Packages (and the declarations) that are the frame every asset runs in, not the code that decides its rows.
FRAMEWORK = ("shared", "storage", "declarations")
# Calls whose string arguments name SQL files or tables, as functions (`create_tables(con, ...)`) or as the table
# store's methods (`con.create(...)`): their string arguments, in order, are what each names.
SQL_OR_TEXT = {"load_sql", "sql_path", "query", "query_rows", "query_row", "run_sql", "arrow"}  # a SQL file's name, or SQL text (it has a space)
TABLES_CREATED = {"create_tables", "create"}  # DDL files, each named by its table
TABLE_WRITTEN = {"replace_table", "replace_partitions", "upsert", "replace_table_from_query", "delete_partitions"}  # (table, [SQL name])
TABLE_READ = {"table_metadata", "table_description_metadata", "add_partition_metadata", "table", "table_rows", "partition_rows"}
SQL_TEXT = {"execute", "executemany", "sql"}  # connection methods run on SQL text
TABLE_NAMES = {table for declared in ASSET_TABLES.values() for table in (*declared.reads, *declared.writes, *declared.keeps)}
ASSET_FUNCTIONS = {asset.key.to_user_string(): asset.op.compute_fn.decorated_fn for asset in ASSETS}
ASSET_MODULES = {function.__module__ for function in ASSET_FUNCTIONS.values()}


def relative(module: str) -> str:
    return module.removeprefix(f"{PACKAGE}.")


# Every project module parsed when this file is imported, before any test runs (pytest-xdist workers collect every
# file first): parsed later in a worker where other tests had run, one module raised CPython 3.11.7's
# "SystemError: AST constructor recursion depth mismatch" (two clean-clone CIs, 2026-12-03; never with -n 0).
_MODULE_TREES = {
    ".".join((PACKAGE, *path.relative_to(PACKAGE_DIR).with_suffix("").parts)).removesuffix(".__init__"): ast.parse(path.read_text())
    for path in PACKAGE_DIR.rglob("*.py")
}


def module_tree(module: str) -> ast.Module:
    return _MODULE_TREES.get(module) or _parsed(module)


@cache
def _parsed(module: str) -> ast.Module:
    return ast.parse(Path(importlib.util.find_spec(module).origin).read_text())


def _is_package(module: str) -> bool:
    spec = importlib.util.find_spec(module)
    return spec is not None and spec.submodule_search_locations is not None


@cache
def imported_names(module: str) -> dict[str, tuple[str, str | None]]:
    """{name bound in `module` by an import: (project module it comes from, the object's name there, or None when the
    name is the module itself)}, for imports from recon_assets only."""
    names: dict[str, tuple[str, str | None]] = {}
    for node in ast.walk(module_tree(module)):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and node.module.startswith(PACKAGE):
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                is_module = _is_package(node.module) and importlib.util.find_spec(full) is not None
                names[alias.asname or alias.name] = (full, None) if is_module else (node.module, alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(PACKAGE):
                    names[alias.asname or alias.name] = (alias.name, None)
    return names


@cache
def top_level(module: str) -> dict[str, ast.AST]:
    """{name: the node defining it} for `module`'s top-level functions, classes and assignments."""
    defined: dict[str, ast.AST] = {}
    for node in module_tree(module).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            defined[node.name] = node
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                for name in ast.walk(target):  # `A, B = ...` defines both
                    if isinstance(name, ast.Name):
                        defined[name.id] = node
    return defined


def module_kind(module: str) -> str:
    """'framework' (shared, storage), 'resources' (the services a run talks to), 'shell' (an asset module) or 'code'."""
    parts = relative(module).split(".")
    if parts[0] in FRAMEWORK or module == PACKAGE:
        return "framework"
    if parts[-1] == "resources":
        return "resources"
    return "shell" if module in ASSET_MODULES else "code"


@dataclass
class Reach:
    """What an asset's code reaches: project modules, SQL files loaded, inline SQL run, tables named to the helpers."""

    modules: set[str] = field(default_factory=set)
    sql: set[str] = field(default_factory=set)
    inline_sql: set[str] = field(default_factory=set)
    tables_read: set[str] = field(default_factory=set)
    tables_written: set[str] = field(default_factory=set)
    tables_created: set[str] = field(default_factory=set)
    registered: set[str] = field(default_factory=set)
    strings: set[str] = field(default_factory=set)
    local_names: set[str] = field(default_factory=set)


def strings(node: ast.AST, module: str) -> list[str]:
    """The string values `node` stands for: a literal, a list or tuple of them, `*names`, or a module constant."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Name) and isinstance(top_level(module).get(node.id), ast.Assign):
        return strings(top_level(module)[node.id].value, module)
    if isinstance(node, ast.Starred):
        return strings(node.value, module)
    if isinstance(node, (ast.List, ast.Tuple)):
        return [value for element in node.elts for value in strings(element, module)]
    return []


def read_calls(node: ast.AST, module: str, reach: Reach) -> None:
    """Add to `reach` the SQL names, inline SQL and table names the calls under `node` (in `module`) pass."""
    for call in (call for call in ast.walk(node) if isinstance(call, ast.Call)):
        called = call.func.id if isinstance(call.func, ast.Name) else getattr(call.func, "attr", "")
        named = [value for argument in call.args for value in strings(argument, module)]
        if not named:
            continue
        if called in SQL_OR_TEXT:
            (reach.inline_sql if " " in named[0].strip() else reach.sql).add(named[0])
        elif called in SQL_TEXT and isinstance(call.func, ast.Attribute):
            reach.inline_sql.add(named[0])
        elif called in TABLES_CREATED:
            reach.tables_created.update(named)
            reach.sql.update(named)
        elif called in TABLE_WRITTEN:
            reach.tables_written.add(named[0])
            reach.sql.update(named[1:2])
        elif called in TABLE_READ:
            reach.tables_read.add(named[0])
        elif called in ("register", "temp_table"):  # a Python object DuckDB reads as a view (or temporary table) of that name
            reach.registered.add(named[0])
        else:  # a helper building its SQL from a table's name (`_most_frequent(con, "dataset_verdicts", ...)`)
            reach.tables_read.update(value for value in named if value in TABLE_NAMES)


def bound_names(function: ast.FunctionDef) -> set[str]:
    """The names `function` binds (arguments and assignments, its nested functions' included): a frame DuckDB reads
    by its variable's name is no table, and a local variable is not the module-level name it shadows."""
    return {
        node.id if isinstance(node, ast.Name) else node.arg for node in ast.walk(function)
        if (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)) or isinstance(node, ast.arg)
    }


@cache
def asset_reach(name: str) -> Reach:
    """What the asset `name`'s code reaches (module docstring): from its function, every top-level function, class or
    constant of a project module it names, and what those name in turn."""
    reach = Reach()
    seen: set[tuple[str, str]] = set()

    # A work list, not recursion: ast.parse deep in a recursion raised CPython 3.11.7's "AST constructor recursion
    # depth mismatch" SystemError (clean-clone CI, 2026-12-03).
    function = ASSET_FUNCTIONS[name]
    pending = [(function.__module__, function.__name__)]

    def walk(module: str, top_name: str) -> None:
        pending.append((module, top_name))

    while pending:
        module, top_name = pending.pop()
        kind = module_kind(module)
        if (module, top_name) in seen or kind in ("framework", "resources"):
            continue
        seen.add((module, top_name))
        if kind == "code":
            reach.modules.add(relative(module))
        node = top_level(module).get(top_name)
        if node is None:
            if top_name in imported_names(module):  # `offline_judge.find_cue`: a name the module imports
                source, object_name = imported_names(module)[top_name]
                walk(source, object_name or "")
            continue  # else a module named as a whole (passed on, not called through)
        # a function's body and its arguments' defaults (`load_pairs(path=LABELLED_PAIRS)`)
        body = ast.Module(body=[*node.body, *map(ast.Expr, node.args.defaults)], type_ignores=[]) if isinstance(node, ast.FunctionDef) else node
        read_calls(body, module, reach)
        if kind == "code":
            reach.strings |= {child.value for child in ast.walk(body) if isinstance(child, ast.Constant) and isinstance(child.value, str)}
        local = bound_names(node) if isinstance(node, ast.FunctionDef) else set()
        reach.local_names |= local
        imported = imported_names(module)
        for child in ast.walk(body):
            if isinstance(child, ast.Name) and child.id in local:
                continue  # a local variable, not the module's name it shadows
            if isinstance(child, ast.Attribute) and isinstance(child.value, ast.Name) and child.value.id in imported:
                source, object_name = imported[child.value.id]
                if object_name is None:  # module.attribute: that attribute of the module
                    walk(source, child.attr)
            elif isinstance(child, ast.Name) and isinstance(child.ctx, ast.Load):
                if child.id in imported:
                    source, object_name = imported[child.id]
                    walk(source, object_name or "")
                elif child.id in top_level(module) and top_level(module)[child.id] is not node:
                    walk(module, child.id)

    return reach


def sql_tables(text: str) -> tuple[set[str], set[str], set[str]]:
    """(tables read, tables written, temporary objects created) by the SQL `text` (DuckDB dialect, parsed by sqlglot):
    a name defined by a WITH clause is no table; a macro or function created is no table either."""
    read, written, temporary = set(), set(), set()
    for statement in sqlglot.parse(text, read="duckdb"):
        if statement is None or isinstance(statement, exp.Comment):
            continue
        ctes = {cte.alias_or_name for cte in statement.find_all(exp.CTE)}
        target = None
        if isinstance(statement, (exp.Create, exp.Insert, exp.Update, exp.Delete, exp.Drop, exp.Alter)):
            target = statement.this
            while isinstance(target, (exp.Schema, exp.UserDefinedFunction)):
                target = target.this
            kind = statement.args.get("kind", "TABLE") if isinstance(statement, (exp.Create, exp.Drop)) else "TABLE"
            if str(kind).upper() in ("MACRO", "FUNCTION", "TABLE MACRO"):
                temporary.add(target.name)
            elif isinstance(statement, exp.Create) and statement.find(exp.TemporaryProperty):
                temporary.add(target.name)
            elif not isinstance(statement, exp.Drop):
                written.add(target.name)
        for table in statement.find_all(exp.Table):
            if table is not target and table.name not in ctes and not isinstance(table.this, exp.Anonymous):
                read.add(table.name)
    return read, written, temporary


def test_every_asset_is_declared_once_and_the_declarations_are_the_graphs():
    assert set(ASSET_TABLES) == set(ASSET_FUNCTIONS)
    for asset in ASSETS:
        (spec,) = asset.specs
        declared = ASSET_TABLES[spec.key.to_user_string()]
        assert [dep.asset_key for dep in spec.deps] == declared.deps, spec.key
        assert spec.code_version == declared.code_version, spec.key


@pytest.mark.parametrize("name", sorted(ASSET_FUNCTIONS))
def test_the_declared_modules_are_those_the_assets_code_reaches(name):
    """Hostile finding: coherence_judgements' code version left out `steward` and the citation centrality its body
    calls, so a change there re-judged nothing; edge_reliability's once left out the judgement modules edge_scores
    calls. Declared modules must be exactly the project modules the asset's code reaches (none forgotten, none stale)."""
    assert set(ASSET_TABLES[name].modules) == asset_reach(name).modules


# The package's data files an asset's code may read: every file but code, SQL and the shipped sample's.
DATA_FILES = [
    path for path in PACKAGE_DIR.rglob("*.*")
    if path.suffix not in (".py", ".pyc", ".sql") and "sample" not in path.relative_to(PACKAGE_DIR).parts[:1]
]


@pytest.mark.parametrize("name", sorted(ASSET_FUNCTIONS))
def test_the_declared_files_are_the_data_files_the_assets_code_names(name):
    """A data file the asset's code names (by its file name, or by a prefix ending in '_' that the code lists files
    by: "umm_json_") is in its code version: editing the curated lifecycle file or a cue re-computes what it decides."""
    strings = asset_reach(name).strings
    prefixes = tuple(text for text in strings if text.endswith("_"))
    named = {path for path in DATA_FILES if path.name in strings or path.name.startswith(prefixes)}
    assert set(ASSET_TABLES[name].file_paths) == named


@pytest.mark.parametrize("name", sorted(ASSET_FUNCTIONS))
def test_the_declared_sql_files_are_those_the_assets_code_loads(name):
    declared = ASSET_TABLES[name]
    assert set(declared.sql_names) == asset_reach(name).sql | (set(declared.sql_names) - set(declared.sql))


@cache
def sql_use(name: str) -> tuple[set[str], set[str], set[str]]:
    """(tables read, tables written, own temporary objects) by the asset `name`: its declared SQL files, its inline
    SQL and the tables it names to the store's helpers. A name the code binds to a frame or registers (DuckDB reads a
    Python object by its variable's name) is an own object unless a declared asset has a table of that name, which
    DuckDB reads first."""
    declared, reach = ASSET_TABLES[name], asset_reach(name)
    read, written, temporary = set(reach.tables_read), set(reach.tables_written), set()
    for sql in declared.sql_names:
        reads, writes, temporaries = sql_tables(load_sql(sql))
        read |= reads
        if sql in reach.tables_created and sql not in declared.writes:
            read |= writes  # creating a table it reads (empty, when missing) writes no row
        else:
            written |= writes
        temporary |= temporaries
    for text in reach.inline_sql:
        reads, writes, temporaries = sql_tables(text)
        read |= reads
        written |= writes
        temporary |= temporaries
    temporary |= {local for local in reach.local_names | reach.registered if local not in TABLE_NAMES}
    return read - temporary, written - temporary, temporary


@pytest.mark.parametrize("name", sorted(ASSET_FUNCTIONS))
def test_every_table_the_assets_sql_reads_or_writes_is_declared(name):
    """Every table a SQL file the asset runs or its inline SQL reads is one it declares it reads (or one of its own:
    written or kept), and every table it writes is declared written or kept."""
    declared = ASSET_TABLES[name]
    read, written, _ = sql_use(name)
    own = {*declared.writes, *declared.keeps}
    assert read - own - set(declared.reads) == set(), f"{name} reads tables it does not declare"
    assert written - own == set(), f"{name} writes tables it does not declare"


@pytest.mark.parametrize("name", sorted(ASSET_FUNCTIONS))
def test_every_declared_table_is_read_or_written(name):
    """A declared read that nothing reads would make the asset depend on (and be re-run by) a table it never uses;
    a declared write it never writes would make it that table's owner."""
    declared = ASSET_TABLES[name]
    read, written, _ = sql_use(name)
    assert set(declared.reads) - read == set()
    assert set(declared.writes) - written == set()


def test_the_sql_parser_tells_reads_from_writes_ctes_and_temporary_objects():
    read, written, temporary = sql_tables(
        "CREATE OR REPLACE TEMP MACRO f(x) AS x + 1;"
        "CREATE OR REPLACE TEMP VIEW v AS WITH c AS (SELECT * FROM a) SELECT * FROM c JOIN b USING (k);"
        "INSERT INTO t SELECT f(k) FROM v WHERE k IN (SELECT k FROM d);"
        "DELETE FROM t WHERE k = $1"
    )
    assert (read, written, temporary) == ({"a", "b", "v", "d"}, {"t"}, {"f", "v"})


def test_a_lineage_naming_an_undeclared_table_is_refused():
    graph = TableGraph(
        [TableAsset("source", writes=("raw",)), TableAsset("derived", reads=("raw",), writes=("derived",))]
    )
    assert graph["derived"].column_lineage({"x": [("raw", "y")]}) == {"x": [("source", "y")]}
    with pytest.raises(ValueError, match="derived's column lineage names tables it does not declare it reads: other"):
        graph["derived"].column_lineage({"x": [("other", "y")]})


@pytest.mark.parametrize(
    ("declarations", "message"),
    [
        ([TableAsset("a", writes=("t",)), TableAsset("b", writes=("t",))], "table t is written by both a and b"),
        ([TableAsset("a", writes=("t",)), TableAsset("b", reads=("u",))], "b reads u, which no declared asset writes or keeps"),
        ([TableAsset("a", writes=("t",)), TableAsset("a")], r"assets declared twice: \['a'\]"),
    ],
)
def test_a_graph_that_cannot_be_resolved_is_a_clear_error(declarations, message):
    with pytest.raises(ValueError, match=message):
        TableGraph(declarations)


def test_a_table_kept_by_several_assets_resolves_to_each_but_never_to_the_reader_itself():
    graph = TableGraph(
        [
            TableAsset("works", writes=("works",), keeps=("cache",), reads=("cache",)),
            TableAsset("citing", writes=("citing",), keeps=("cache",), reads=("cache", "works")),
            TableAsset("verdicts", writes=("verdicts",), reads=("cache",)),
        ]
    )
    assert graph["works"].deps == []
    assert graph["citing"].deps == [dg.AssetKey("works")]
    assert graph["verdicts"].deps == [dg.AssetKey("citing"), dg.AssetKey("works")]


def test_every_declared_run_input_is_an_observable_source_and_each_has_a_reader():
    """A run input (as_of, a settings digest, the KG export) is a dependency only through a declaration's
    `run_inputs`: a misspelt name would make a dependency on an asset that does not exist, and a source no declaration
    names would change nothing when its value does."""
    sources = {source.key.to_user_string() for source in RUN_INPUTS}
    declared = {name for asset in ASSET_TABLES.values() for name in asset.run_inputs}
    assert declared == sources


def test_an_asset_declaring_as_of_takes_the_as_of_resource():
    """An asset that says its rows depend on as_of must read it (the `AsOfDate` resource). The converse need not hold:
    the exports take it for their folder's name only, and a question's plan records the as_of it was asked on, so a
    new day re-plans no standing question."""
    readers = {name for name, asset in ASSET_TABLES.items() if "as_of" in asset.run_inputs}
    takes = {asset.key.to_user_string() for asset in ASSETS if "as_of" in asset.op.required_resource_keys}
    assert readers and readers <= takes, readers - takes


def test_turning_the_papers_opt_in_on_or_off_makes_paper_claims_stale_and_nothing_else(monkeypatch):
    """Hostile pass: RECON_PAPERS_ONLINE changed no run input, so turning the opt-in on left paper_claims fresh (its
    offline claims kept) and off left the LLM's claims standing. It is now `paper_settings`' data version, which only
    paper_claims declares; with the opt-in and the Groq judge both on it holds the day (an online answer can change)."""
    from datetime import datetime, timezone

    from recon_assets.automation.run_inputs import PAPER_SETTINGS, settings_versions

    for variable in ("RECON_PAPERS_ONLINE", "RECON_GROQ", "GROQ_API_KEY", "RECON_OPENALEX", "RECON_CROSSREF"):
        monkeypatch.delenv(variable, raising=False)
    off = settings_versions()
    monkeypatch.setenv("RECON_PAPERS_ONLINE", "online")
    opted_in_offline = settings_versions()
    monkeypatch.setenv("GROQ_API_KEY", "gsk_test_not_a_key")
    monkeypatch.setenv("RECON_GROQ", "online")
    both_on = settings_versions()
    assert len({off[PAPER_SETTINGS], opted_in_offline[PAPER_SETTINGS], both_on[PAPER_SETTINGS]}) == 3
    assert both_on[PAPER_SETTINGS].endswith("@" + datetime.now(timezone.utc).date().isoformat())
    assert {key: value for key, value in opted_in_offline.items() if key != PAPER_SETTINGS} == {
        key: value for key, value in off.items() if key != PAPER_SETTINGS
    }
    # and the stages that send a paper's text to Groq with it (issue 22: the datasets' reading, keyword refinement,
    # claim verdicts)
    assert [name for name, asset in ASSET_TABLES.items() if "paper_settings" in asset.run_inputs] == [
        "paper_datasets", "paper_claims", "paper_keywords", "claim_verdicts"]


def test_a_run_input_is_a_dependency_of_the_assets_that_declare_it():
    graph = TableGraph([TableAsset("source", writes=("raw",)), TableAsset("derived", reads=("raw",), run_inputs=("as_of",))])
    assert graph["derived"].deps == [dg.AssetKey("as_of"), dg.AssetKey("source")]
