"""One declaration per asset: the tables it reads, writes and keeps, the modules and SQL files that compute it and the
reference files it is read from. Everything that used to restate them is derived from it (dbt's `ref()` is the
model: the dependency is the reference):

- the asset's `deps`: each table read, resolved to the asset that writes it (`TableGraph`), and each run input it
  reads (`automation.run_inputs`);
- its `code_version`: a digest of its modules' source, its SQL files and reference files (`sql_files.code_version`);
- its column lineage: `{column: [(table, column)]}` with each table resolved to the asset that writes it.

recon_assets_tests/test_table_assets.py holds each declaration to the code: every project module the asset's code
reaches is declared, every SQL file it loads, and every table its SQL reads.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from types import MappingProxyType

import dagster as dg

from recon_assets.shared.sql_files import PACKAGE_DIR, code_version, sql_files

PACKAGE = "recon_assets"


@dataclass(frozen=True)
class TableAsset:
    """What one asset reads, writes and runs.

    Attributes:
        name: the asset's key.
        reads: tables whose rows decide the asset's rows (each resolves to a `deps` entry).
        writes: the tables it owns and writes, its own first (no other asset writes them).
        keeps: tables it updates besides and reads back (caches, usage records, histories); another asset may keep
            them too. Reading a table it keeps makes no dependency.
        modules: the project modules (dotted, under recon_assets: "reliability.signals") whose code decides its rows.
        sql: the SQL files it runs (names as for `sql_files.load_sql`); the DDL of the tables it writes is added
            (`sql_names`).
        files: reference files it is read from (package-relative paths or glob patterns, e.g. "reference/cmr/*.*").
        run_inputs: the inputs of a run that are not tables but decide its rows, by the name of their observable source
            asset (`automation.run_inputs`: "as_of", "kg_export", "enrichment_settings", "judge_settings",
            "scoring_settings", "paper_settings"); each is a `deps` entry, so a new value makes the asset stale.
    """

    name: str
    reads: tuple[str, ...] = ()
    writes: tuple[str, ...] = ()
    keeps: tuple[str, ...] = ()
    modules: tuple[str, ...] = ()
    sql: tuple[str, ...] = ()
    files: tuple[str, ...] = ()
    run_inputs: tuple[str, ...] = ()
    # filled by TableGraph: the asset that writes each table read (or the assets that keep it)
    upstream: Mapping[str, tuple[str, ...]] = field(default_factory=dict, compare=False, repr=False)

    @property
    def deps(self) -> list[dg.AssetKey]:
        """The asset keys it depends on: the writers of the tables it reads and its run inputs, sorted by name."""
        writers = {asset for assets in self.upstream.values() for asset in assets}
        return [dg.AssetKey(name) for name in sorted(writers | set(self.run_inputs))]

    @cached_property
    def code_version(self) -> str:
        """16 hex digits over the source of `modules`, `sql` and `files` (`sql_files.code_version`).

        Raises:
            ModuleNotFoundError: a module name does not resolve under recon_assets.
            FileNotFoundError, ValueError: a SQL name does not resolve (`sql_files.sql_path`), or a file pattern
                matches no file.
        """
        return code_version(sql=self.sql_names, files=[*(module_path(name) for name in self.modules), *self.file_paths])

    @property
    def sql_names(self) -> tuple[str, ...]:
        """`sql`, and the DDL file of each table it writes that has one of its own name (the store runs it)."""
        held = sql_files()
        return (*self.sql, *(table for table in self.writes if table in held and table not in self.sql))

    @property
    def file_paths(self) -> list[Path]:
        """The reference files `files` names, sorted within each pattern.

        Raises:
            FileNotFoundError: a pattern matches no file under recon_assets/.
        """
        paths = []
        for pattern in self.files:
            matched = sorted(PACKAGE_DIR.glob(pattern))
            if not matched:
                raise FileNotFoundError(f"{self.name}: no file matches {pattern!r} under {PACKAGE_DIR}")
            paths.extend(matched)
        return paths

    def asset_arguments(self) -> dict[str, object]:
        """The `@dg.asset` arguments the declaration decides: `deps` and `code_version`."""
        return {"deps": self.deps, "code_version": self.code_version}

    def column_lineage(self, lineage: Mapping[str, Sequence[tuple[str, str]]]) -> dict[str, list[tuple[str, str]]]:
        """`{column: [(upstream asset, column)]}` for `shared.metadata.table_description_metadata` from
        `{column: [(table read, column)]}`: each table resolved to the asset that writes it.

        Raises:
            ValueError: a table is not among `reads` (the lineage would name an input the asset does not declare).
        """
        undeclared = sorted({table for inputs in lineage.values() for table, _ in inputs} - set(self.upstream))
        if undeclared:
            raise ValueError(f"{self.name}'s column lineage names tables it does not declare it reads: {', '.join(undeclared)}")
        return {
            column: [(writer, name) for table, name in inputs for writer in self.upstream[table]]
            for column, inputs in lineage.items()
        }


def module_path(name: str) -> Path:
    """The source file of module `recon_assets.<name>`, found without importing it.

    Raises:
        ModuleNotFoundError: no such module.
    """
    spec = importlib.util.find_spec(f"{PACKAGE}.{name}")
    if spec is None or spec.origin is None:
        raise ModuleNotFoundError(f"no module {PACKAGE}.{name}")
    return Path(spec.origin)


class TableGraph(Mapping[str, TableAsset]):
    """The declarations of every asset, by name, each with its upstream assets resolved: a table read resolves to the
    asset that writes it, or, when no asset writes it, to the assets that keep it (a table an asset keeps itself
    resolves to nothing: it is the asset's own memory).

    Raises:
        ValueError: two declarations share a name, two assets write one table, or a table read is neither written
            nor kept by any asset.
    """

    def __init__(self, declarations: Iterable[TableAsset]):
        declared = list(declarations)
        names = [declaration.name for declaration in declared]
        if len(set(names)) != len(names):
            raise ValueError(f"assets declared twice: {sorted({name for name in names if names.count(name) > 1})}")
        writers: dict[str, str] = {}
        keepers: dict[str, list[str]] = {}
        for declaration in declared:
            for table in declaration.writes:
                if table in writers:
                    raise ValueError(f"table {table} is written by both {writers[table]} and {declaration.name}")
                writers[table] = declaration.name
            for table in declaration.keeps:
                keepers.setdefault(table, []).append(declaration.name)

        def upstream(declaration: TableAsset) -> dict[str, tuple[str, ...]]:
            resolved = {}
            for table in declaration.reads:
                if table in declaration.writes or table in declaration.keeps:
                    resolved[table] = ()
                elif table in writers:
                    resolved[table] = (writers[table],)
                elif table in keepers:
                    resolved[table] = tuple(keepers[table])
                else:
                    raise ValueError(f"{declaration.name} reads {table}, which no declared asset writes or keeps")
            return resolved

        self._declarations = MappingProxyType({
            declaration.name: replace(declaration, upstream=MappingProxyType(upstream(declaration)))
            for declaration in declared
        })

    def __getitem__(self, name: str) -> TableAsset:
        return self._declarations[name]

    def __iter__(self):
        return iter(self._declarations)

    def __len__(self) -> int:
        return len(self._declarations)
