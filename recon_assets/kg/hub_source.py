"""Fetch the NASA EO knowledge-graph export from its Hugging Face dataset repo at a pinned revision.

The KG (DOI 10.57967/hf/3463) ships as Neo4j exports `graph.json` (APOC JSON-lines, about 1.56 GB),
`graph.graphml` and `graph.cypher`. Downloads go through `huggingface_hub.hf_hub_download`, so its
cache layout, offline mode (`HF_HUB_OFFLINE=1`) and token handling (`HF_TOKEN`, read by the library
itself, never by this module) apply unchanged; a token is never sent to a plain-http HF_ENDPOINT on another machine
(`check_token_transport`). Every file is checked against the size and SHA-256 its
revision's LFS pointer records before it is used, online and offline (`download_kg_export`), and the
whole fetch has a total deadline. An error leaving this module's functions carries no secret in its chain
(`credentials.redacted_causes`): a hub echoing the token in an error is stored redacted.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import httpx2
from huggingface_hub import constants, get_hf_file_metadata, get_token, hf_hub_download, hf_hub_url, is_offline_mode

from recon_assets.kg.checksum import file_sha256
from recon_assets.shared.credentials import redact, redacted_causes
from recon_assets.shared.deadlines import DeadlineExceeded, call_with_deadline
from recon_assets.shared.key_transport import check_key_transport

REPO_ID = "nasa-gesdisc/nasa-eo-knowledge-graph"
REPO_TYPE = "dataset"
# Commit 79ce32b "Update NASA Knowledge Graph Dataset to version v1.1.0" (parent 87308e5), which rewrote all three
# export files: https://huggingface.co/datasets/nasa-gesdisc/nasa-eo-knowledge-graph/commit/79ce32b663a96dd093513bb68d82f5ca2996cfe9
# It is the newest commit whose full sha is on record. v1.2.0 (Oct 2025, commit dbf47ac) and v2.0.0 are newer;
# move the pin once their full shas are read from the repo's history.
PINNED_REVISION = "79ce32b663a96dd093513bb68d82f5ca2996cfe9"

_COMMIT_SHA = re.compile(r"[0-9a-f]{40}")
_SHA256 = re.compile(r"[0-9a-f]{64}")
# Total seconds the metadata request and the download of one export may take: graph.json is about 1.56 GB, so 2 h
# allows a connection down to about 0.2 MB/s; only a stalled or dripping server reaches it (`HuggingFaceKgExport`
# sets it per run).
DEFAULT_DEADLINE_SECONDS = 7200.0


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


@redacted_causes()
def download_kg_export(
    filename: str = "graph.json",
    *,
    revision: str = PINNED_REVISION,
    cache_dir: Path | None = None,
    deadline_seconds: float = DEFAULT_DEADLINE_SECONDS,
) -> HubDownload:
    """Download (or reuse from cache) one KG export file, check it against the revision's LFS pointer, checksum it.

    Online, the pointer is what the hub reports for the file at `revision` (`get_hf_file_metadata`: `X-Linked-Etag`,
    the LFS object's SHA-256, and `X-Linked-Size`, its size; https://huggingface.co/docs/huggingface_hub/package_reference/file_download),
    and it is recorded beside the cache (`_record_pointer`). Offline (HF_HUB_OFFLINE, or the hub unreachable), the
    file must match a pointer recorded so by an earlier online call and the blob huggingface_hub filed it under. A file that matches neither
    (a stub or a partial copy left in a shared cache) is refused: it is never taken for the pinned KG.

    Args:
        filename: path inside the dataset repo, e.g. "graph.json", "graph.graphml", "graph.cypher".
        revision: branch, tag or commit sha; defaults to `PINNED_REVISION` so runs are reproducible.
        cache_dir: Hugging Face cache root; None means the library default (`$HF_HOME/hub`).
        deadline_seconds: total seconds the metadata request and the download may take together
            (`deadlines.call_with_deadline`; the library's own timeouts bound each read only).
    Returns:
        `HubDownload` with the cached path, the resolved commit, the file's SHA-256 and size in bytes.
    Raises:
        KgDownloadError: the hub is unreachable or too slow (deadline), the file or revision does not exist, offline
            mode is on and the file is not cached or was never checked online, or the file differs from the LFS
            pointer's size or SHA-256; the library's exception is kept as `__cause__`, a `credentials.RedactedCause`
            holding its type, redacted text and traceback.
    """
    offline = is_offline_mode()
    check_token_transport()
    what = f"{filename!r} from Hugging Face dataset {REPO_ID!r} at revision {revision!r}"

    def fetch() -> tuple[Path, LfsPointer | None]:
        pointer = None
        if not offline:
            try:
                pointer = _hub_pointer(filename, revision)
            except httpx2.TransportError:
                # Hub unreachable: like hf_hub_download, fall back to the cache, checked against the recorded pointer.
                pointer = None
        local = hf_hub_download(repo_id=REPO_ID, filename=filename, repo_type=REPO_TYPE, revision=revision, cache_dir=cache_dir)
        return Path(local), pointer

    try:
        local, pointer = call_with_deadline(fetch, seconds=deadline_seconds, what=f"the download of {what}")
    # HfHubHTTPError (404, 401, 5xx) subclasses httpx2.HTTPError, as do transport failures on the CDN download;
    # LocalEntryNotFoundError (no network or offline, and no cached copy) is a FileNotFoundError.
    except (httpx2.HTTPError, OSError, DeadlineExceeded) as error:
        reason = "offline mode is on (HF_HUB_OFFLINE) and no cached copy exists" if offline and not isinstance(error, DeadlineExceeded) else redact(error)
        raise KgDownloadError(f"cannot fetch {what}: {reason}") from error
    commit = _snapshot_commit(local, filename)
    size, sha256 = local.stat().st_size, file_sha256(local)
    if pointer is None:
        pointer = _recorded_pointer(local, filename, commit)
        if pointer is None:
            raise KgDownloadError(
                f"offline: the cached copy of {what} ({local}) was never checked against the revision's LFS pointer: "
                "run once online (without HF_HUB_OFFLINE) to check it, or pass a local export with --kg"
            )
    if (size, sha256) != (pointer.size, pointer.sha256):
        raise KgDownloadError(
            f"the cached copy of {what} ({local}, {size:,} bytes, sha256 {sha256}) is not the file the revision's LFS "
            f"pointer records ({pointer.size:,} bytes, sha256 {pointer.sha256}): refused. Delete it (`hf cache delete`) "
            "and download again"
        )
    _record_pointer(local, filename, commit, pointer)
    return HubDownload(
        path=local, repo_id=REPO_ID, filename=filename, revision=revision, commit_sha=commit, sha256=sha256, size_bytes=size
    )


@dataclass(frozen=True)
class LfsPointer:
    """What a revision's Git LFS pointer records of a file: its size in bytes and the SHA-256 of its content."""

    size: int
    sha256: str


@dataclass(frozen=True)
class HubFileVersion:
    """What the hub reports of a file at a revision without downloading it: the commit the revision resolves to
    (None if the hub did not say) and the file's LFS pointer."""

    commit_sha: str | None
    pointer: LfsPointer


def hub_file_version(filename: str, revision: str) -> HubFileVersion:
    """The commit `revision` resolves to and the LFS pointer of `filename` there, from one HEAD request on its
    resolve URL (`get_hf_file_metadata`: `X-Repo-Commit`, `X-Linked-Etag`, `X-Linked-Size`).

    Raises:
        KgDownloadError: the hub reports no LFS SHA-256 (a plain Git file: its etag is a 40-hex Git blob id) or no size.
        httpx2.HTTPError: the hub is unreachable or answers with an error (huggingface_hub's HfHubHTTPError included).
        key_transport.PlainHttpRefused: see `check_token_transport`.
    """
    check_token_transport()
    metadata = get_hf_file_metadata(hf_hub_url(REPO_ID, filename, repo_type=REPO_TYPE, revision=revision))
    etag = (metadata.etag or "").strip('"')
    if not _SHA256.fullmatch(etag) or metadata.size is None:
        raise KgDownloadError(
            f"the hub reports no LFS SHA-256 and size for {filename!r} at revision {revision!r} (etag {etag!r}): "
            "nothing to check the download against"
        )
    return HubFileVersion(metadata.commit_hash, LfsPointer(metadata.size, etag))


def check_token_transport() -> None:
    """Refuse to ask the hub when huggingface_hub would send a token (HF_TOKEN, or one stored by `hf auth login`) to
    its endpoint (HF_ENDPOINT, read by the library at import) over plain HTTP to another machine; offline mode
    (HF_HUB_OFFLINE) sends nothing.

    Raises:
        key_transport.PlainHttpRefused: see `key_transport.check_key_transport`.
    """
    if not is_offline_mode() and get_token():
        check_key_transport("HF_ENDPOINT", constants.ENDPOINT, "HF_TOKEN")


def _hub_pointer(filename: str, revision: str) -> LfsPointer:
    """The LFS pointer of `filename` at `revision`, as the hub reports it (`hub_file_version`)."""
    return hub_file_version(filename, revision).pointer


def _pointer_record(local: Path, filename: str, commit: str | None) -> Path | None:
    """Where the checked pointer of this cached file is kept: `<repo folder>/recon_lfs_pointers/<commit>/<filename>.json`
    beside huggingface_hub's own `snapshots`, `blobs` and `refs` (which it leaves alone)."""
    if commit is None:
        return None
    repo_folder = local.parents[len(PurePosixPath(filename).parts)].parent
    return repo_folder / "recon_lfs_pointers" / commit / f"{filename}.json"


def _record_pointer(local: Path, filename: str, commit: str | None, pointer: LfsPointer) -> None:
    """Keep the checked pointer for offline runs; a cache this process cannot write to (a read-only shared cache)
    keeps none, and an offline run then says the copy was never checked."""
    record = _pointer_record(local, filename, commit)
    if record is None:
        return
    try:
        record.parent.mkdir(parents=True, exist_ok=True)
        record.write_text(json.dumps({"size": pointer.size, "sha256": pointer.sha256, "checked_against": "hub X-Linked-Size / X-Linked-Etag"}))
    except OSError:
        pass


def _recorded_pointer(local: Path, filename: str, commit: str | None) -> LfsPointer | None:
    """The pointer recorded by an earlier online call, when it agrees with the blob huggingface_hub filed the file
    under (`blobs/<sha256>`, named by the etag it downloaded it with); else None."""
    record = _pointer_record(local, filename, commit)
    if record is None or not record.is_file():
        return None
    try:
        data = json.loads(record.read_text())
        pointer = LfsPointer(int(data["size"]), str(data["sha256"]))
    except (ValueError, KeyError, TypeError):
        return None
    return pointer if local.resolve().name == pointer.sha256 else None


def _snapshot_commit(local: Path, filename: str) -> str | None:
    # The cache stores every file at <repo folder>/snapshots/<commit sha>/<filename>, whatever revision was asked for
    # (https://huggingface.co/docs/huggingface_hub/guides/manage-cache), so the resolved commit is that folder's name.
    snapshot = local.parents[len(PurePosixPath(filename).parts) - 1]
    if snapshot.parent.name == "snapshots" and _COMMIT_SHA.fullmatch(snapshot.name):
        return snapshot.name
    return None
