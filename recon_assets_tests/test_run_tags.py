"""One run-tag module: every `recon/...` tag the product sets is named in `shared.run_tags`, and only there."""

import ast
from pathlib import Path

from recon_assets.shared import run_tags
from recon_assets.shared.sql_files import PACKAGE_DIR

PREFIX = "recon/"


def tags_spelled(path: Path) -> list[str]:
    """'line: tag' for each string constant of the module at `path` that starts with `recon/`."""
    return [
        f"{node.lineno}: {node.value}" for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith(PREFIX)
    ]


def test_every_run_tag_is_spelled_in_run_tags_only():
    owner = Path(run_tags.__file__)
    spelled = {
        str(path.relative_to(PACKAGE_DIR)): found
        for path in sorted(PACKAGE_DIR.rglob("*.py")) if path != owner and (found := tags_spelled(path))
    }
    assert spelled == {}


def test_run_tags_are_distinct():
    tags = {name: value for name, value in vars(run_tags).items() if name.endswith("_TAG")}
    assert all(value.startswith(PREFIX) for value in tags.values())
    assert len(set(tags.values())) == len(tags) == len(tags_spelled(Path(run_tags.__file__)))


def test_a_spelled_tag_is_found(tmp_path):
    module = tmp_path / "m.py"
    module.write_text('TAGS = {"recon/as_of": "2026-01-01"}\nPATH = "data/recon/x"\n')
    assert tags_spelled(module) == ["1: recon/as_of"]
