-- The kg_snapshots row of snapshot $1, its columns in kg/ingest.py SnapshotSummary's order; no row when it was never
-- ingested.
SELECT snapshot_id, sha256, source, format, size_bytes, lines_read, nodes_accepted, relationships_accepted, rejected,
       node_counts, relationship_counts, ingested_at, loaded_at
FROM kg_snapshots
WHERE snapshot_id = $1
