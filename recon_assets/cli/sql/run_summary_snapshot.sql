-- `recon run`'s summary: the snapshot loaded last, with its line, node, relationship and rejected counts.
SELECT snapshot_id, lines_read, nodes_accepted, relationships_accepted, rejected, ingested_at
FROM kg_snapshots ORDER BY loaded_at DESC LIMIT 1
