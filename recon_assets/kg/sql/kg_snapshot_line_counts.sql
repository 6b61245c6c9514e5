-- What kg_snapshots recorded of snapshot $1's export: (lines_read, nodes_accepted, relationships_accepted, rejected).
SELECT lines_read, nodes_accepted, relationships_accepted, rejected FROM kg_snapshots WHERE snapshot_id = $1
