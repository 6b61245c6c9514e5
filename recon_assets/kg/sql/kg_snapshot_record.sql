-- One kg_snapshots row: snapshot_id $1, sha256 $2, source $3, format $4, size_bytes $5, lines_read $6, nodes_accepted
-- $7, relationships_accepted $8, rejected $9, node_counts $10 and relationship_counts $11 (JSON text), ingested_at
-- $12, loaded_at $13 (the caller deletes the snapshot's earlier row first).
INSERT INTO kg_snapshots
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
