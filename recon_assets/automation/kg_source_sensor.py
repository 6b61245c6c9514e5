"""A sensor watching the configured KG source: it requests a re-ingest and re-scoring when the export changes.

A local export is watched by its SHA-256, hashed only when its size or modification time differ from the last look
(both kept in the sensor's cursor with the digest); the Hugging Face export by the SHA-256 the hub reports for the file
at the configured revision (one HEAD request, `hub_source.hub_file_version`; a pinned commit never changes, a branch
such as `main` does). The digest is compared with the `sha256` of the last kg_snapshot materialization: a new one
requests a run of `kg_refresh_job` over every research area, tagged with the source and digest. Stopped by default.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import dagster as dg
import httpx2
from huggingface_hub import is_offline_mode

from recon_assets.kg.checksum import file_sha256
from recon_assets.kg.hub_source import REPO_ID, KgDownloadError, hub_file_version
from recon_assets.kg.partitions import every_research_area_tags
from recon_assets.kg.resources import HuggingFaceKgExport, KgExportSource, LocalKgExport
from recon_assets.automation.jobs import kg_refresh_job
from recon_assets.shared.credentials import redact, redacted_causes
from recon_assets.shared.run_tags import KG_SHA256_TAG, KG_SOURCE_TAG

# Seconds between two looks: a new KG version comes every few months; a look at the hub is one HEAD request.
MINIMUM_INTERVAL_SECONDS = 300


@dataclass(frozen=True)
class SourceCursor:
    """What the sensor saw last (kept as JSON in its cursor): the source, for a local file its size in bytes and
    modification time in ns, the SHA-256 seen, and the SHA-256 a refresh was last requested for."""

    source: str = ""
    size: int | None = None
    mtime_ns: int | None = None
    sha256: str | None = None
    requested: str | None = None

    @classmethod
    def parse(cls, text: str | None) -> SourceCursor:
        """The cursor from its JSON; an empty, unreadable or foreign cursor is a first look."""
        try:
            return cls(**json.loads(text)) if text else cls()
        except (ValueError, TypeError):
            return cls()

    def dump(self) -> str:
        return json.dumps(asdict(self))


class SourceUnavailable(Exception):
    """The source cannot be looked at now (file missing or unreadable, hub unreachable or offline): the tick skips."""


def look_at_local_file(path: Path, seen: SourceCursor) -> tuple[SourceCursor, bool]:
    """The local export's SHA-256 in a new cursor, and whether it was hashed (False: size and mtime were those of the
    last look, whose digest is reused).

    Raises:
        SourceUnavailable: the path does not exist, cannot be resolved (a symbolic-link loop), is not a regular file,
            is empty, cannot be read, or changed while it was hashed (the next tick looks again).
    """
    source = str(path)
    try:
        path = path.expanduser().resolve()
    except RuntimeError as error:  # pathlib's "Symlink loop from ..." (Python 3.11)
        raise SourceUnavailable(f"KG source {source} cannot be read: {redact(error)}") from error
    source = str(path)
    try:
        stat = path.stat()
        if not path.is_file():
            raise SourceUnavailable(f"KG source {source} is not a regular file")
        if stat.st_size == 0:
            raise SourceUnavailable(f"KG source {source} is empty: no snapshot to ingest (is it still being written?)")
        if seen.source == source and (seen.size, seen.mtime_ns) == (stat.st_size, stat.st_mtime_ns) and seen.sha256:
            return seen, False
        digest = file_sha256(path)
        after = path.stat()
    except FileNotFoundError as error:
        raise SourceUnavailable(f"KG source {source} does not exist: set RECON_KG_PATH to the export file") from error
    except OSError as error:
        raise SourceUnavailable(f"KG source {source} cannot be read: {redact(error)}") from error
    if (after.st_size, after.st_mtime_ns) != (stat.st_size, stat.st_mtime_ns):
        raise SourceUnavailable(f"KG source {source} changed while it was hashed: looking again at the next tick")
    return replace(seen, source=source, size=stat.st_size, mtime_ns=stat.st_mtime_ns, sha256=digest), True


@redacted_causes()
def look_at_hub(filename: str, revision: str, seen: SourceCursor) -> SourceCursor:
    """The Hugging Face export's SHA-256 at `revision`, from the hub, in a new cursor naming the resolved commit.

    Raises:
        SourceUnavailable: offline mode is on (HF_HUB_OFFLINE), the hub is unreachable or answers with an error, or it
            reports no LFS SHA-256 for the file.
    """
    if is_offline_mode():
        raise SourceUnavailable("HF_HUB_OFFLINE is set: the Hugging Face revision cannot be looked at")
    try:
        version = hub_file_version(filename, revision)
    except (httpx2.HTTPError, OSError, KgDownloadError) as error:
        raise SourceUnavailable(f"cannot look at {REPO_ID}/{filename}@{revision} on Hugging Face: {redact(error)}") from error
    source = f"hf://{REPO_ID}@{version.commit_sha or revision}/{filename}"
    return replace(seen, source=source, size=None, mtime_ns=None, sha256=version.pointer.sha256)


def ingested_sha256(instance: dg.DagsterInstance) -> str | None:
    """The `sha256` metadata of the last kg_snapshot materialization on `instance`, or None."""
    event = instance.get_latest_materialization_event(dg.AssetKey("kg_snapshot"))
    if event is None or event.asset_materialization is None:
        return None
    entry = event.asset_materialization.metadata.get("sha256")
    return entry.value if entry is not None else None


@dg.sensor(
    job=kg_refresh_job, minimum_interval_seconds=MINIMUM_INTERVAL_SECONDS, default_status=dg.DefaultSensorStatus.STOPPED,
    description="Requests kg_refresh_job over every research area when the configured KG export's SHA-256 changes.",
)
def kg_source_sensor(context: dg.SensorEvaluationContext, kg_export: KgExportSource):
    """Look at the configured KG source; request a re-ingest and re-scoring when its SHA-256 is not the one last
    ingested. Skips, with the reason, when it is unchanged, a refresh for it was already requested, or the source
    cannot be looked at (the next tick looks again; nothing is raised, so a missing file never fails tick after tick)."""
    seen = SourceCursor.parse(context.cursor)
    try:
        if isinstance(kg_export, LocalKgExport):
            now, hashed = look_at_local_file(Path(kg_export.path), seen)
            how = "hashed" if hashed else "size and modification time unchanged"
        elif isinstance(kg_export, HuggingFaceKgExport):
            now, how = look_at_hub(kg_export.filename, kg_export.revision, seen), "as reported by the hub"
        else:
            return _skip(f"{type(kg_export).__name__} is a KG source this sensor cannot watch")
    except SourceUnavailable as error:
        return _skip(error)
    context.update_cursor(now.dump())
    digest = now.sha256
    if digest == ingested_sha256(context.instance):
        return _skip(f"unchanged: {now.source} has sha256 {digest} ({how}), the snapshot last ingested")
    if digest == seen.requested:
        return _skip(
            f"a refresh for {now.source} sha256 {digest} was already requested (run key kg/{digest}); it has not "
            "materialized kg_snapshot yet: see the run in the UI"
        )
    context.update_cursor(replace(now, requested=digest).dump())
    return dg.RunRequest(
        run_key=f"kg/{digest}", tags={**every_research_area_tags(), KG_SOURCE_TAG: redact(now.source), KG_SHA256_TAG: digest},
    )


def _skip(reason: object) -> dg.SkipReason:
    """A tick's skip, its reason `redact`ed: Dagster stores it with the tick and shows it in the UI, and it quotes
    paths and library errors (a file-system error names the path; a path may hold anything)."""
    return dg.SkipReason(redact(reason))
