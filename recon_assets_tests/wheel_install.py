"""recon_assets installed from a wheel built from this checkout, in a fresh virtual environment (issue 13: the SQL,
the shipped sample and the instance settings are package data, so `pip install .` followed by `recon run` works).

Only recon_assets comes from the wheel. Its dependencies (Dagster, DuckDB, pandas, ...: hundreds of MB) are not
installed again: the fresh environment sees the site-packages of the environment running the tests through a `.pth`
line, which adds that folder to sys.path after the new environment's own site-packages (the wheel's recon_assets comes
first) and, being a plain path, does not run that folder's own `.pth` files (the editable install's finder, which
would map `recon_assets` back to the checkout). Installing every dependency from the network would make the test
slow and dependent on the network; this keeps what the test is about real: the package as pip installs it, from
its wheel, run from a folder outside the checkout with no PYTHONPATH.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from recon_assets_tests.pipeline_runs import REPO_ROOT

# What the wheel is built from: the files pyproject.toml packages (the checkout's build/ and egg-info are left alone).
SOURCES = ("pyproject.toml", "README.md", "recon_assets", "recon_assets_tests")


def install_from_wheel(workdir: Path) -> Path:
    """Build recon_assets' wheel from the checkout and install it alone into a fresh venv under `workdir`.

    Returns:
        The venv's `bin` folder, holding the `recon` command pip made from `[project.scripts]`.

    Raises:
        subprocess.CalledProcessError: building or installing the wheel failed.
    """
    source = workdir / "source"
    source.mkdir(parents=True)
    for name in SOURCES:
        path = REPO_ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(path, source / name)
    wheels = workdir / "wheels"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    # --no-build-isolation: the build backend (setuptools, a test dependency) is the installed one, no download.
    subprocess.run([*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", str(wheels), str(source)], check=True, capture_output=True)
    venv = workdir / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, capture_output=True)
    python = venv / "bin" / "python"
    (wheel,) = wheels.glob("recon_assets-*.whl")
    subprocess.run([*pip, "--python", str(python), "install", "--no-deps", "--no-index", str(wheel)], check=True, capture_output=True)
    venv_site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], check=True, capture_output=True, text=True
    ).stdout.strip()
    Path(venv_site, "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return venv / "bin"


def clean_environment(**settings: str) -> dict[str, str]:
    """The test process's environment without PYTHONPATH and RECON_* (nothing pointing at the checkout), plus `settings`."""
    kept = {name: value for name, value in os.environ.items() if name != "PYTHONPATH" and not name.startswith("RECON_")}
    return {**kept, **settings}
