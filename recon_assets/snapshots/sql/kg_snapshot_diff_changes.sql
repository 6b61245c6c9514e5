-- kg_snapshot_diff's nodes and relationships per change (change, elements), for the asset's metadata.
SELECT change, sum(elements) FROM kg_snapshot_diff GROUP BY 1 ORDER BY 1
