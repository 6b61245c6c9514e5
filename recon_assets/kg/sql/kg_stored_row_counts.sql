-- The rows stored of the current snapshot: (kg_nodes rows, kg_relationships rows, kg_rejects rows of snapshot $1).
SELECT (SELECT count(*) FROM kg_nodes), (SELECT count(*) FROM kg_relationships),
       (SELECT count(*) FROM kg_rejects WHERE snapshot_id = $1)
