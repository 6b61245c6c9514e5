"""Where the KG export comes from: a local file, or the real KG on Hugging Face through `hub_source` (huggingface_hub)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import dagster as dg
from pydantic import Field

from recon_assets.kg.hub_source import DEFAULT_DEADLINE_SECONDS as HUB_DEADLINE_SECONDS
from recon_assets.kg.hub_source import PINNED_REVISION, REPO_ID, check_token_transport, download_kg_export
from recon_assets.shared.credentials import redact
from recon_assets.shared.paths import SAMPLE_DIR
from recon_assets.shared.run_tags import KG_SOURCE_TAG, tag_run
from recon_assets.shared.switches import checked_switch

SAMPLE_KG_PATH = SAMPLE_DIR / "graph.json"
LOCAL, HUGGING_FACE = "local", "huggingface"


def kg_source(setting: str) -> str:
    """Where the KG export comes from: RECON_KG_SOURCE `setting` 'huggingface' (the real KG, `HuggingFaceKgExport`),
    or 'local' / '' (a file, `LocalKgExport`; the default).

    Raises:
        ValueError: another setting (a misspelt source never falls back to the shipped sample unsaid).
    """
    return checked_switch("RECON_KG_SOURCE", setting, (LOCAL, HUGGING_FACE)) or LOCAL


@dataclass(frozen=True)
class KgExportFile:
    """A KG export on local disk and a label saying where it came from (kept in kg_snapshots.source)."""

    path: Path
    source: str


class KgExportSource(dg.ConfigurableResource):
    """Where the KG export file comes from; `fetch` puts it on local disk."""

    def fetch(self, log) -> KgExportFile:
        raise NotImplementedError(f"{type(self).__name__} does not say where the KG export comes from")

    def source(self) -> str:
        """Where the export comes from, as the recon/kg_source run tag says it."""
        raise NotImplementedError(f"{type(self).__name__} does not say where the KG export comes from")

    def check_key_transport(self) -> None:
        """Refuse to start when a key would go over plain HTTP to another machine; a local file sends none."""

    def setup_for_execution(self, context: dg.InitResourceContext) -> None:
        self.check_key_transport()
        tag_run(context, {KG_SOURCE_TAG: redact(self.source())})  # a path or URL may carry a credential


class LocalKgExport(KgExportSource):
    """A KG export file on local disk (APOC JSON-lines, GraphML or Cypher)."""

    path: str

    def source(self) -> str:
        """The file's absolute path as given (links not followed: naming a source must not fail, even on a
        symbolic-link loop; reading it does, with a clear error)."""
        return str(Path(self.path).expanduser().absolute())

    def fetch(self, log) -> KgExportFile:
        path = Path(self.path).expanduser().resolve()
        log.info(f"KG export: local file {path}")
        return KgExportFile(path, str(path))


class HuggingFaceKgExport(KgExportSource):
    """The real KG export from Hugging Face (`nasa-gesdisc/nasa-eo-knowledge-graph`) at a pinned revision.

    The token, if any, is read by huggingface_hub itself from HF_TOKEN; it is never logged or stored, nor sent over
    plain HTTP to another machine (`hub_source.check_token_transport`, when it starts).
    """

    filename: str = "graph.json"
    revision: str = PINNED_REVISION
    deadline_seconds: float = Field(
        allow_inf_nan=False, default=HUB_DEADLINE_SECONDS, gt=0, description="Total seconds the download may take (the file is about 1.56 GB)."
    )

    def source(self) -> str:
        return f"hf://{REPO_ID}@{self.revision}/{self.filename}"

    def check_key_transport(self) -> None:
        """Raises key_transport.PlainHttpRefused: `hub_source.check_token_transport`."""
        check_token_transport()

    def fetch(self, log) -> KgExportFile:
        log.info(f"KG export: downloading {REPO_ID}/{self.filename} at revision {self.revision} (cached after the first time)")
        download = download_kg_export(self.filename, revision=self.revision, deadline_seconds=self.deadline_seconds)
        log.info(f"KG export: {download.path} ({download.size_bytes:,} bytes, sha256 {download.sha256}, commit {download.commit_sha})")
        return KgExportFile(download.path, f"hf://{REPO_ID}@{download.commit_sha or self.revision}/{self.filename}")
