"""Resources: where the KG export comes from, the DuckDB file, and the date scores are computed as of.

Each is configured from the environment when `definitions.py` is loaded (an empty variable counts as unset):
RECON_KG_PATH (a local export; default the shipped sample), RECON_KG_SOURCE=huggingface with
RECON_HF_FILENAME / RECON_HF_REVISION (the real KG), RECON_DB_PATH (default data/recon.duckdb) and
RECON_AS_OF (YYYY-MM-DD, default today).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import dagster as dg
from dagster_duckdb import DuckDBResource

from recon_assets.kg.hub_source import PINNED_REVISION, REPO_ID, download_kg_export

REPO_ROOT = Path(__file__).resolve().parents[1]
SAMPLE_KG_PATH = REPO_ROOT / "data" / "sample" / "graph.json"
DEFAULT_DB_PATH = Path("data") / "recon.duckdb"


@dataclass(frozen=True)
class KgExportFile:
    """A KG export on local disk and a label saying where it came from (kept in kg_snapshots.source)."""

    path: Path
    source: str


class KgExportSource(dg.ConfigurableResource):
    """Where the KG export file comes from; `fetch` puts it on local disk."""

    def fetch(self, log) -> KgExportFile:
        raise NotImplementedError(f"{type(self).__name__} does not say where the KG export comes from")


class LocalKgExport(KgExportSource):
    """A KG export file on local disk (APOC JSON-lines or GraphML)."""

    path: str

    def fetch(self, log) -> KgExportFile:
        path = Path(self.path).expanduser().resolve()
        log.info(f"KG export: local file {path}")
        return KgExportFile(path, str(path))


class HuggingFaceKgExport(KgExportSource):
    """The real KG export from Hugging Face (`nasa-gesdisc/nasa-eo-knowledge-graph`) at a pinned revision.

    The token, if any, is read by huggingface_hub itself from HF_TOKEN; it is never logged or stored.
    """

    filename: str = "graph.json"
    revision: str = PINNED_REVISION

    def fetch(self, log) -> KgExportFile:
        log.info(f"KG export: downloading {REPO_ID}/{self.filename} at revision {self.revision} (cached after the first time)")
        download = download_kg_export(self.filename, revision=self.revision)
        log.info(f"KG export: {download.path} ({download.size_bytes:,} bytes, sha256 {download.sha256}, commit {download.commit_sha})")
        return KgExportFile(download.path, f"hf://{REPO_ID}@{download.commit_sha or self.revision}/{self.filename}")


class AsOfDate(dg.ConfigurableResource):
    """The date every age, time window and year bound is measured against: `as_of` (YYYY-MM-DD), empty = today."""

    as_of: str = ""

    def date(self) -> date:
        """The as_of date.

        Raises:
            ValueError: `as_of` is not an ISO date (YYYY-MM-DD).
        """
        if not self.as_of:
            return date.today()
        try:
            return date.fromisoformat(self.as_of)
        except ValueError as error:
            raise ValueError(f"as_of must be a date YYYY-MM-DD, got {self.as_of!r}") from error


def resources_from_environment() -> dict[str, dg.ConfigurableResource]:
    """The resources, configured from RECON_* environment variables (see module docstring)."""
    if (os.environ.get("RECON_KG_SOURCE") or "local") == "huggingface":
        kg_export = HuggingFaceKgExport(
            filename=os.environ.get("RECON_HF_FILENAME") or "graph.json",
            revision=os.environ.get("RECON_HF_REVISION") or PINNED_REVISION,
        )
    else:
        kg_export = LocalKgExport(path=os.environ.get("RECON_KG_PATH") or str(SAMPLE_KG_PATH))
    database = Path(os.environ.get("RECON_DB_PATH") or DEFAULT_DB_PATH)
    database.parent.mkdir(parents=True, exist_ok=True)
    return {
        "kg_export": kg_export,
        "duckdb": DuckDBResource(database=str(database)),
        "as_of": AsOfDate(as_of=os.environ.get("RECON_AS_OF") or ""),
    }
