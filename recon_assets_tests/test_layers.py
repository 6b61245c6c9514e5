"""The package layout follows the flow: a module imports only from its own package or from a package earlier in the
flow, never from a later one (issue 23, "The layout shows the flow with no arrow running back up"). Imports are read
with `ast` from every module, deferred imports inside functions included."""

import ast
from pathlib import Path

import pytest

from recon_assets.shared.sql_files import PACKAGE_DIR

# The flow, earliest first; packages in one tuple are peers and import neither each other nor anything after them.
# shared/ is below all, the storage seam just above it, then what each asset reads and writes (`declarations`, which
# the domains' assets import); snapshots reads the scored edges, so it comes after scoring, beside the report and
# the exports; the paper analysis (whose report page uses the report's rendering) comes after them, then the briefs (an
# unscoped question is read by the papers' dataset detector);
# automation (jobs, schedules, sensors), the definitions and the CLI sit on top.
FLOW: tuple[tuple[str, ...], ...] = (
    ("shared",),
    ("storage",),
    ("declarations",),
    ("kg",),
    ("lifecycle",),
    ("centrality",),
    ("enrichment",),
    ("judgement",),
    ("reliability",),
    ("verdicts",),
    ("evaluation",),
    ("report", "exports", "snapshots"),
    ("papers",),
    ("briefs",),
    ("automation",),
    ("definitions",),
    ("cli",),
)
RANK = {package: rank for rank, peers in enumerate(FLOW) for package in peers}
# Package data only: no Python module imports from it or lives in it beside its __init__.
DATA_ONLY = {"reference"}


def imported_packages(path: Path, package_dir: Path) -> list[tuple[int, str]]:
    """(line, first part below recon_assets) of each `recon_assets.<part>...` that the module at `path` imports, a
    relative import resolved against the module's own package."""
    module_parts = path.relative_to(package_dir.parent).with_suffix("").parts
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module_parts[: len(module_parts) - node.level]
                names = [".".join((*base, node.module) if node.module else base)]
            else:
                names = [node.module or ""]
            if names == [package_dir.name]:  # `from recon_assets import kg`
                names = [f"{package_dir.name}.{alias.name}" for alias in node.names]
        else:
            continue
        found += [(node.lineno, name.split(".")[1]) for name in names if name.startswith(package_dir.name + ".")]
    return found


def owner(path: Path, package_dir: Path) -> str:
    """The package below recon_assets that the module at `path` belongs to (a top-level module is its own)."""
    parts = path.relative_to(package_dir).parts
    return parts[0] if len(parts) > 1 else Path(parts[0]).stem


def arrows_back_up(package_dir: Path) -> list[str]:
    """Every import running against FLOW, as 'path:line: importer -> imported', and every package FLOW does not
    place, as 'path: package not in FLOW'."""
    found = []
    for path in sorted(package_dir.rglob("*.py")):
        source = owner(path, package_dir)
        if source == "__init__":
            continue
        where = path.relative_to(package_dir.parent)
        if source not in RANK:
            if not (source in DATA_ONLY and path.name == "__init__.py"):
                found.append(f"{where}: package {source} not in FLOW")
            continue
        for line, target in imported_packages(path, package_dir):
            if target != source and RANK.get(target, len(FLOW)) >= RANK[source]:
                found.append(f"{where}:{line}: {source} -> {target}")
    return found


def test_no_import_runs_back_up_the_flow():
    assert arrows_back_up(PACKAGE_DIR) == []


def test_every_package_is_placed_in_the_flow():
    packages = {path.name for path in PACKAGE_DIR.iterdir() if (path / "__init__.py").exists()}
    modules = {path.stem for path in PACKAGE_DIR.glob("*.py") if path.stem != "__init__"}
    assert packages | modules <= set(RANK) | DATA_ONLY


@pytest.mark.parametrize(
    ("module", "source", "arrow"),
    [
        ("kg/diff.py", "from recon_assets.reliability.assets import edge_reliability\n", "kg -> reliability"),
        ("judgement/x.py", "def f():\n    from recon_assets.reliability import signals\n", "judgement -> reliability"),
        ("judgement/x.py", "import recon_assets.verdicts.critic\n", "judgement -> verdicts"),
        ("report/x.py", "from recon_assets import exports\n", "report -> exports"),  # peers
        ("centrality/x.py", "from ..judgement import cues\n", "centrality -> judgement"),
        ("shared/x.py", "from recon_assets.kg.doi import canonical_doi\n", "shared -> kg"),
        ("kg/x.py", "from recon_assets.nowhere import y\n", "kg -> nowhere"),
    ],
)
def test_an_arrow_back_up_is_found(tmp_path, module, source, arrow):
    package = tmp_path / "recon_assets"
    (package / module).parent.mkdir(parents=True)
    (package / module).write_text(source)
    assert arrows_back_up(package) == [f"recon_assets/{module}:{source.count(chr(10))}: {arrow}"]


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("reliability/x.py", "from recon_assets.judgement.dispute_status import DEBATED\nfrom recon_assets.shared import paths\n"),
        ("kg/x.py", "from . import doi\nfrom .doi import canonical_doi\nimport recon_assets.kg.years\n"),
        ("cli/x.py", "def f():\n    from recon_assets.definitions import defs\n"),
        ("snapshots/x.py", "from recon_assets.reliability.assets import edge_reliability\n"),
    ],
)
def test_an_arrow_down_the_flow_passes(tmp_path, module, source):
    package = tmp_path / "recon_assets"
    (package / module).parent.mkdir(parents=True)
    (package / module).write_text(source)
    assert arrows_back_up(package) == []
