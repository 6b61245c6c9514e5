"""Load one KG export into DuckDB: accepted nodes and relationships, every other line as a reject with its reason.

Conservation holds for every file: lines read = nodes accepted + relationships accepted + rejects.
A file without a single accepted node never replaces the current snapshot.

The SQL is in recon_assets/kg/sql, run through the store's operations (`storage.tables.Tables`): kg_elements judges
the lines, kg_reject_offsets and kg_elements_reject_heads add the rejected lines' starts, kg_element_counts counts
them; kg_snapshot_tables_drop, kg_snapshot, kg_accepted_nodes, kg_accepted_relationships, kg_rejected_lines and
kg_snapshot_record store them. What is DuckDB's own is the DuckDB port's (`storage.tables`): the lines reach DuckDB
as an Arrow stream it reads as view kg_lines (`register`), the raw-text limit is a session variable
(`tables.session_variable`), the node properties are written with ZSTD (`tables.zstd_compression`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import duckdb
import pandas as pd
import pyarrow as pa

from recon_assets.kg.export_reader import (
    LINE_SCHEMA,
    RAW_TEXT_LIMIT,
    KgExportError,
    KgFormat,
    ReadStats,
    detect_format,
    graphml_element_tags,
    json_line_heads,
    read_export,
)
from recon_assets.kg.schema import RELATIONSHIP_TYPES
from recon_assets.storage.tables import Tables, session_variable, transaction, zstd_compression


@dataclass(frozen=True)
class SnapshotSummary:
    """One row of `kg_snapshots`; `reused` is True when this exact file was already the current snapshot."""

    snapshot_id: str
    sha256: str
    source: str
    format: str
    size_bytes: int
    lines_read: int
    nodes_accepted: int
    relationships_accepted: int
    rejected: int
    node_counts: dict[str, int]
    relationship_counts: dict[str, int]
    ingested_at: datetime
    loaded_at: datetime
    reused: bool = False


def snapshot_id_for(sha256: str) -> str:
    """Snapshot id = first 16 hex digits of the file's SHA-256 (64 bits: collisions are not a practical concern)."""
    return sha256[:16]


def ingest_export(
    con: duckdb.DuckDBPyConnection | Tables,
    path: Path,
    source: str,
    *,
    progress: Callable[[str], None] = lambda message: None,
) -> SnapshotSummary:
    """Stream `path` into kg_nodes / kg_relationships / kg_rejects and record it in kg_snapshots.

    Re-ingesting the file that is already the current snapshot does nothing and returns the stored summary
    with `reused=True`; a previously seen but not current file is loaded again without a second
    kg_snapshots row.

    Raises:
        KgExportError: the file is missing, empty, unreadable or of an unknown format (see `detect_format`); it is
            incomplete (ends inside an element, or changed size or modification time while it was read: a copy
            still under way); nothing is stored then;
            no node or edge element could be read from it; or not one node was accepted - then its rejects are
            kept in kg_rejects (under its snapshot id) while kg_nodes, kg_relationships and kg_snapshots keep the
            current snapshot.
    """
    con = Tables.of(con)
    fmt = detect_format(path)
    before = path.stat()
    size_bytes = before.st_size
    con.create("kg_snapshot")
    # The file is hashed in a thread while it is read (hashlib and file reads release the GIL). Only a file of
    # the current snapshot's size can be that snapshot, so only then is the hash awaited before reading.
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="kg-sha256") as pool:
        hashing = pool.submit(_sha256_and_size, path)
        current = _latest_snapshot(con)
        if current is not None and current.size_bytes == size_bytes and _is_loaded(con, current, hashing.result()[0]):
            progress(f"snapshot {current.snapshot_id} ({path.name}) is already loaded: nothing to ingest")
            return current
        try:
            stats = _judge_lines(con, path, fmt, progress)
        except KgExportError:
            _drop_staging(con)
            raise
        sha256, hashed_bytes = hashing.result()
    _refuse_incomplete_file(con, path, before, hashed_bytes, stats)
    snapshot_id = snapshot_id_for(sha256)
    known = _stored_summary(con, snapshot_id)
    summary = _summarise(con, snapshot_id, sha256, source, fmt, size_bytes, stats, known)
    unread = graphml_element_tags(path) - stats.elements_read if fmt is KgFormat.APOC_GRAPHML else 0
    if summary.nodes_accepted == 0 or unread > 0:
        # Nothing (or not all) to swap in: keep the reasons, keep the last good snapshot.
        with transaction(con):
            _replace_rejects(con, summary)
        _drop_staging(con)
        if unread > 0:
            raise KgExportError(
                f"{unread:,} node/edge elements of {path} could not be read past its GraphML syntax errors "
                f"(see kg_rejects); the current snapshot is kept"
            )
        raise KgExportError(f"no node of {path} was accepted: {summary.lines_read:,} lines, all rejected - see kg_rejects")
    _replace_current(con, summary)
    progress(
        f"snapshot {snapshot_id}: {summary.lines_read:,} lines, {summary.nodes_accepted:,} nodes, "
        f"{summary.relationships_accepted:,} relationships, {summary.rejected:,} rejected"
    )
    return summary


def _sha256_and_size(path: Path) -> tuple[str, int]:
    """(SHA-256 hex digest, number of bytes hashed) of the file, streamed (hashlib.file_digest)."""
    with path.open("rb") as handle:
        digest = hashlib.file_digest(handle, "sha256").hexdigest()
        return digest, handle.tell()


def _refuse_incomplete_file(
    con: Tables, path: Path, before: os.stat_result, hashed_bytes: int, stats: ReadStats
) -> None:
    """Raise KgExportError, before anything is stored, when the file read was not one whole, unchanging export:
    it ends inside an element (`stats.incomplete_end`), or its size or modification time changed between the start
    of the ingest and the end of reading and hashing it (a copy or download still writing to it). The current
    snapshot stays current; the staging table is dropped."""
    after = path.stat()
    problem = None
    if (after.st_size, after.st_mtime_ns) != (before.st_size, before.st_mtime_ns) or hashed_bytes != before.st_size:
        problem = (
            f"it changed while it was read (size {before.st_size:,} -> {after.st_size:,} bytes, {hashed_bytes:,} hashed; "
            f"modified {_mtime(before)} -> {_mtime(after)})"
        )
    elif stats.incomplete_end:
        problem = stats.incomplete_end
    if problem:
        _drop_staging(con)
        raise KgExportError(
            f"KG export {path} is incomplete: {problem}. It is truncated or still being copied: wait until it is "
            "complete and run again; the current snapshot is kept"
        )


def _mtime(stat: os.stat_result) -> str:
    return datetime.fromtimestamp(stat.st_mtime_ns / 1e9, timezone.utc).isoformat(timespec="microseconds")


def _judge_lines(con: Tables, path: Path, fmt: KgFormat, progress: Callable[[str], None]) -> ReadStats:
    """Fill temp table kg_elements (recon_assets/kg/sql/kg_elements.sql) from the file's lines.

    The lines are never stored: DuckDB pulls them batch by batch from the reader (view kg_lines) and parses
    batches on all its threads while the next one is read, keeping of each line only what its verdict needs. The
    start of a rejected JSON line is then read again from the file, at its byte offset.
    """
    types = pd.DataFrame(
        [(name, start, end) for name, (start, end) in RELATIONSHIP_TYPES.items()],
        columns=["rel_type", "start_label", "end_label"],
    )
    con.temp_table("kg_relationship_types", types)
    stats = ReadStats()
    failures: list[Exception] = []
    con.register("kg_lines", pa.RecordBatchReader.from_batches(LINE_SCHEMA, _batches(read_export(path, fmt, stats), failures)))
    try:
        with session_variable(con, "raw_text_limit", RAW_TEXT_LIMIT):
            con.run_sql("kg_elements")
    finally:
        con.unregister("kg_lines")
    if failures:
        raise failures[0]
    _read_back_reject_heads(con, path)
    skipped = ", ".join(f"{count:,} {kind}" for kind, count in stats.skipped_statements.items())
    # A Cypher export's statements without elements (transactions, schema, APOC's clean-up) are no lines: said here.
    progress(f"read {stats.lines_read:,} lines of {path.name}" + (f" (statements without elements skipped: {skipped})" if skipped else ""))
    return stats


def _read_back_reject_heads(con: Tables, path: Path) -> None:
    # Only the rejected lines' starts are read back, from the file by byte offset: keeping every line's start would
    # hold the whole export's text in the judging step.
    # Only JSON lines have a byte offset: a GraphML element's text was kept by the reader (recon_assets/kg/sql/kg_elements.sql).
    rejected = con.arrow("kg_reject_offsets")
    heads = pa.table({"position": rejected["position"], "raw_head": json_line_heads(path, rejected["byte_offset"].to_pylist())})
    con.register("kg_reject_heads", heads)
    try:
        con.run_sql("kg_elements_reject_heads")
    finally:
        con.unregister("kg_reject_heads")


def _batches(tables: Iterator[pa.Table], failures: list[Exception]) -> Iterator[pa.RecordBatch]:
    # An exception raised inside DuckDB's scan would come out as a DuckDB error: it ends the stream and is
    # raised again, as itself (e.g. KgExportError), once DuckDB is done.
    try:
        for table in tables:
            yield from table.to_batches()
    except Exception as error:  # re-raised by _judge_lines
        failures.append(error)


def _summarise(con, snapshot_id, sha256, source, fmt, size_bytes, stats, known) -> SnapshotSummary:
    now = datetime.now(timezone.utc)
    # One scan of kg_elements: accepted nodes grouped by label list, accepted relationships by type, rejects as one group.
    groups = con.query_rows("kg_element_counts")
    node_counts: Counter[str] = Counter()
    relationship_counts: Counter[str] = Counter()
    nodes = rejected = 0
    for accepted, element_type, labels, rel_type, count in groups:
        if not accepted:
            rejected += count
        elif element_type == "node":
            nodes += count
            for label in labels:  # an accepted node has at least one label (recon_assets/kg/sql/kg_elements.sql)
                node_counts[label] += count
        else:
            relationship_counts[rel_type] += count
    return SnapshotSummary(
        snapshot_id=snapshot_id,
        sha256=sha256,
        source=source,
        format=str(fmt),
        size_bytes=size_bytes,
        lines_read=stats.lines_read,
        nodes_accepted=nodes,
        relationships_accepted=sum(relationship_counts.values()),
        rejected=rejected,
        node_counts=dict(sorted(node_counts.items())),
        relationship_counts=dict(sorted(relationship_counts.items())),
        ingested_at=known.ingested_at if known else now,
        loaded_at=now,
    )


def _replace_current(con: Tables, summary: SnapshotSummary) -> None:
    with transaction(con):
        # Dropped and made again (recon_assets/kg/sql/kg_snapshot.sql), not emptied: refilled in the transaction that
        # deleted them, DuckDB checks each new primary key against the deleted ones.
        con.run_sql("kg_snapshot_tables_drop")
        con.create("kg_snapshot")
        with zstd_compression(con):  # the node properties: long abstracts
            con.run_sql("kg_accepted_nodes")
        con.run_sql("kg_accepted_relationships")
        _replace_rejects(con, summary)
        con.delete_partitions("kg_snapshots", [summary.snapshot_id], column="snapshot_id")
        con.run_sql(
            "kg_snapshot_record",
            [
                summary.snapshot_id, summary.sha256, summary.source, summary.format, summary.size_bytes,
                summary.lines_read, summary.nodes_accepted, summary.relationships_accepted, summary.rejected,
                json.dumps(summary.node_counts), json.dumps(summary.relationship_counts), summary.ingested_at, summary.loaded_at,
            ],
        )
    _drop_staging(con)


def _replace_rejects(con: Tables, summary: SnapshotSummary) -> None:
    con.delete_partitions("kg_rejects", [summary.snapshot_id], column="snapshot_id")
    con.run_sql("kg_rejected_lines", [summary.snapshot_id, summary.source])


def _drop_staging(con: Tables) -> None:
    con.drop_temp_table("kg_elements", missing_ok=True)


def current_snapshot_id(con: duckdb.DuckDBPyConnection | Tables) -> str | None:
    """Id of the snapshot whose nodes are in kg_nodes (the one ingested last), or None before any ingest."""
    latest = _latest_snapshot(Tables.of(con))
    return latest.snapshot_id if latest else None


def _latest_snapshot(con: Tables) -> SnapshotSummary | None:
    """The stored summary of the snapshot loaded last (the one in kg_nodes), or None before any ingest."""
    return _summary(con.latest_row("kg_snapshots", "loaded_at"))


def _stored_summary(con: Tables, snapshot_id: str) -> SnapshotSummary | None:
    row = con.query_row("kg_stored_snapshot", [snapshot_id])
    return None if row is None else _summary(dict(zip((field.name for field in dataclasses.fields(SnapshotSummary)), row)))


def _summary(values: dict[str, object] | None) -> SnapshotSummary | None:
    """The `SnapshotSummary` (reused) of a kg_snapshots row ({column: value}), None for no row."""
    if values is None:
        return None
    values = dict(values)
    values["node_counts"] = json.loads(values["node_counts"])
    values["relationship_counts"] = json.loads(values["relationship_counts"])
    return SnapshotSummary(**values, reused=True)


def _is_loaded(con: Tables, current: SnapshotSummary, sha256: str) -> bool:
    """True when the file with this hash is the `current` snapshot and kg_nodes and kg_relationships hold all of it."""
    return current.snapshot_id == snapshot_id_for(sha256) and con.query_row("kg_loaded_counts") == (
        current.nodes_accepted, current.relationships_accepted
    )
