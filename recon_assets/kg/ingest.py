"""Load one KG export into DuckDB: accepted nodes and relationships, every other line as a reject with its reason.

Conservation holds for every file: lines read = nodes accepted + relationships accepted + rejects.
A file without a single accepted node never replaces the current snapshot.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import duckdb
import pandas as pd

from recon_assets.kg.checksum import file_sha256
from recon_assets.kg.export_reader import RAW_TEXT_LIMIT, KgExportError, KgFormat, ReadStats, detect_format, read_export
from recon_assets.kg.schema import RELATIONSHIP_TYPES
from recon_assets.sql_files import load_sql
from recon_assets.storage import transaction


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
    con: duckdb.DuckDBPyConnection,
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
        KgExportError: the file is missing, empty, unreadable or of an unknown format (see `detect_format`);
            no node or edge element could be read from it; or not one node was accepted - then its rejects are
            kept in kg_rejects (under its snapshot id) while kg_nodes, kg_relationships and kg_snapshots keep the
            current snapshot.
    """
    fmt = detect_format(path)
    sha256 = file_sha256(path)
    snapshot_id = snapshot_id_for(sha256)
    con.execute(load_sql("kg_snapshot"))
    known = _stored_summary(con, snapshot_id)
    if known is not None and _is_current(con, known):
        progress(f"snapshot {snapshot_id} ({path.name}) is already loaded: nothing to ingest")
        return known
    stats = _stage_lines(con, path, fmt, progress)
    con.execute(load_sql("kg_elements"))
    summary = _summarise(con, snapshot_id, sha256, source, fmt, path.stat().st_size, stats, known)
    if summary.nodes_accepted == 0:
        # Nothing to swap in (a relationship needs accepted endpoints): keep the reasons, keep the last good snapshot.
        with transaction(con):
            _replace_rejects(con, summary)
        _drop_staging(con)
        raise KgExportError(f"no node of {path} was accepted: {summary.lines_read:,} lines, all rejected - see kg_rejects")
    _replace_current(con, summary)
    progress(
        f"snapshot {snapshot_id}: {summary.lines_read:,} lines, {summary.nodes_accepted:,} nodes, "
        f"{summary.relationships_accepted:,} relationships, {summary.rejected:,} rejected"
    )
    return summary


def _stage_lines(con: duckdb.DuckDBPyConnection, path: Path, fmt: KgFormat, progress: Callable[[str], None]) -> ReadStats:
    con.execute("CREATE OR REPLACE TEMP TABLE kg_lines (position BIGINT, line_number BIGINT, raw VARCHAR, read_error VARCHAR)")
    types = pd.DataFrame(
        [(name, start, end) for name, (start, end) in RELATIONSHIP_TYPES.items()],
        columns=["rel_type", "start_label", "end_label"],
    )
    con.execute("CREATE OR REPLACE TEMP TABLE kg_relationship_types AS SELECT * FROM types")
    stats = ReadStats()
    for batch in read_export(path, fmt, stats):
        con.execute("INSERT INTO kg_lines SELECT * FROM batch")
        progress(f"read {stats.lines_read:,} lines of {path.name}")
    return stats


def _summarise(con, snapshot_id, sha256, source, fmt, size_bytes, stats, known) -> SnapshotSummary:
    now = datetime.now(timezone.utc)
    accepted = "reject_reason IS NULL"
    node_counts = dict(
        con.execute(f"SELECT label, count(*) FROM (SELECT unnest(labels) AS label FROM kg_elements WHERE {accepted} AND element_type = 'node') GROUP BY ALL ORDER BY 1").fetchall()
    )
    relationship_counts = dict(
        con.execute(f"SELECT rel_type, count(*) FROM kg_elements WHERE {accepted} AND element_type = 'relationship' GROUP BY ALL ORDER BY 1").fetchall()
    )
    nodes, relationships, rejected = con.execute(
        f"""SELECT count(*) FILTER ({accepted} AND element_type = 'node'),
                   count(*) FILTER ({accepted} AND element_type = 'relationship'),
                   count(*) FILTER (reject_reason IS NOT NULL) FROM kg_elements"""
    ).fetchone()
    return SnapshotSummary(
        snapshot_id=snapshot_id,
        sha256=sha256,
        source=source,
        format=str(fmt),
        size_bytes=size_bytes,
        lines_read=stats.lines_read,
        nodes_accepted=nodes,
        relationships_accepted=relationships,
        rejected=rejected,
        node_counts=node_counts,
        relationship_counts=relationship_counts,
        ingested_at=known.ingested_at if known else now,
        loaded_at=now,
    )


def _replace_current(con: duckdb.DuckDBPyConnection, summary: SnapshotSummary) -> None:
    with transaction(con):
        con.execute("DELETE FROM kg_nodes")
        con.execute("DELETE FROM kg_relationships")
        con.execute(
            "INSERT INTO kg_nodes SELECT element_id, line_number, labels, properties FROM kg_elements "
            "WHERE reject_reason IS NULL AND element_type = 'node' ORDER BY position"
        )
        con.execute(
            "INSERT INTO kg_relationships SELECT element_id, line_number, rel_type, start_id, end_id, properties "
            "FROM kg_elements WHERE reject_reason IS NULL AND element_type = 'relationship' ORDER BY position"
        )
        _replace_rejects(con, summary)
        con.execute("DELETE FROM kg_snapshots WHERE snapshot_id = ?", [summary.snapshot_id])
        con.execute(
            "INSERT INTO kg_snapshots VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                summary.snapshot_id, summary.sha256, summary.source, summary.format, summary.size_bytes,
                summary.lines_read, summary.nodes_accepted, summary.relationships_accepted, summary.rejected,
                json.dumps(summary.node_counts), json.dumps(summary.relationship_counts), summary.ingested_at, summary.loaded_at,
            ],
        )
    _drop_staging(con)


def _replace_rejects(con: duckdb.DuckDBPyConnection, summary: SnapshotSummary) -> None:
    con.execute("DELETE FROM kg_rejects WHERE snapshot_id = ?", [summary.snapshot_id])
    con.execute(
        "INSERT INTO kg_rejects SELECT ?, ?, line_number, element_id, reject_reason, left(raw, ?) "
        "FROM kg_elements WHERE reject_reason IS NOT NULL ORDER BY position",
        [summary.snapshot_id, summary.source, RAW_TEXT_LIMIT],
    )


def _drop_staging(con: duckdb.DuckDBPyConnection) -> None:
    con.execute("DROP TABLE kg_lines")
    con.execute("DROP TABLE kg_elements")


def current_snapshot_id(con: duckdb.DuckDBPyConnection) -> str | None:
    """Id of the snapshot whose nodes are in kg_nodes (the one ingested last), or None before any ingest."""
    row = con.execute("SELECT snapshot_id FROM kg_snapshots ORDER BY loaded_at DESC LIMIT 1").fetchone()
    return row[0] if row else None


def _stored_summary(con: duckdb.DuckDBPyConnection, snapshot_id: str) -> SnapshotSummary | None:
    cursor = con.execute("SELECT * FROM kg_snapshots WHERE snapshot_id = ?", [snapshot_id])
    row = cursor.fetchone()
    if row is None:
        return None
    values = dict(zip([column[0] for column in cursor.description], row))
    values["node_counts"] = json.loads(values["node_counts"])
    values["relationship_counts"] = json.loads(values["relationship_counts"])
    return SnapshotSummary(**values, reused=True)


def _is_current(con: duckdb.DuckDBPyConnection, summary: SnapshotSummary) -> bool:
    return current_snapshot_id(con) == summary.snapshot_id and con.execute("SELECT count(*) FROM kg_nodes").fetchone()[0] == summary.nodes_accepted
