"""Fetch the NASA EO knowledge-graph export from its Hugging Face dataset repo at a pinned revision.

The KG (DOI 10.57967/hf/3463) ships as Neo4j exports `graph.json` (APOC JSON-lines, about 1.56 GB),
`graph.graphml` and `graph.cypher`. Downloads go through `huggingface_hub.hf_hub_download`, so its
cache layout, offline mode (`HF_HUB_OFFLINE=1`) and token handling (`HF_TOKEN`, read by the library
itself, never by this module) apply unchanged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import httpx2
from huggingface_hub import hf_hub_download, is_offline_mode

from recon_assets.credentials import redact
from recon_assets.kg.checksum import file_sha256

REPO_ID = "nasa-gesdisc/nasa-eo-knowledge-graph"
REPO_TYPE = "dataset"
# Commit 79ce32b "Update NASA Knowledge Graph Dataset to version v1.1.0" (parent 87308e5), which rewrote all three
# export files: https://huggingface.co/datasets/nasa-gesdisc/nasa-eo-knowledge-graph/commit/79ce32b663a96dd093513bb68d82f5ca2996cfe9
# It is the newest commit whose full sha is on record. v1.2.0 (Oct 2025, commit dbf47ac) and v2.0.0 are newer;
# move the pin once their full shas are read from the repo's history.
PINNED_REVISION = "79ce32b663a96dd093513bb68d82f5ca2996cfe9"

_COMMIT_SHA = re.compile(r"[0-9a-f]{40}")


class KgDownloadError(RuntimeError):
    """The KG export could not be fetched: hub unreachable, file or revision missing, or offline without a cached copy."""


@dataclass(frozen=True)
class HubDownload:
    """One KG export file as it sits in the local Hugging Face cache.

    `revision` is what was asked for (branch, tag or sha); `commit_sha` is the 40-hex commit the hub resolved it to
    (None if the cache layout did not reveal it); `sha256` is the hex digest of the file's bytes; `size_bytes` its length.
    """

    path: Path
    repo_id: str
    filename: str
    revision: str
    commit_sha: str | None
    sha256: str
    size_bytes: int


def download_kg_export(
    filename: str = "graph.json", *, revision: str = PINNED_REVISION, cache_dir: Path | None = None
) -> HubDownload:
    """Download (or reuse from cache) one KG export file and checksum it.

    Args:
        filename: path inside the dataset repo, e.g. "graph.json", "graph.graphml", "graph.cypher".
        revision: branch, tag or commit sha; defaults to `PINNED_REVISION` so runs are reproducible.
        cache_dir: Hugging Face cache root; None means the library default (`$HF_HOME/hub`).
    Returns:
        `HubDownload` with the cached path, the resolved commit, the file's SHA-256 and size in bytes.
    Raises:
        KgDownloadError: the hub is unreachable, the file or revision does not exist, or offline mode is on and the
            file is not cached; the library's exception is kept as `__cause__`.
    """
    try:
        local = Path(
            hf_hub_download(
                repo_id=REPO_ID, filename=filename, repo_type=REPO_TYPE, revision=revision, cache_dir=cache_dir
            )
        )
    # HfHubHTTPError (404, 401, 5xx) subclasses httpx2.HTTPError, as do transport failures on the CDN download;
    # LocalEntryNotFoundError (no network or offline, and no cached copy) is a FileNotFoundError.
    except (httpx2.HTTPError, OSError) as error:
        reason = "offline mode is on (HF_HUB_OFFLINE) and no cached copy exists" if is_offline_mode() else redact(error)
        raise KgDownloadError(
            f"cannot fetch {filename!r} from Hugging Face dataset {REPO_ID!r} at revision {revision!r}: {reason}"
        ) from error
    return HubDownload(
        path=local,
        repo_id=REPO_ID,
        filename=filename,
        revision=revision,
        commit_sha=_snapshot_commit(local, filename),
        sha256=file_sha256(local),
        size_bytes=local.stat().st_size,
    )


def _snapshot_commit(local: Path, filename: str) -> str | None:
    # The cache stores every file at <repo folder>/snapshots/<commit sha>/<filename>, whatever revision was asked for
    # (https://huggingface.co/docs/huggingface_hub/guides/manage-cache), so the resolved commit is that folder's name.
    snapshot = local.parents[len(PurePosixPath(filename).parts) - 1]
    if snapshot.parent.name == "snapshots" and _COMMIT_SHA.fullmatch(snapshot.name):
        return snapshot.name
    return None
