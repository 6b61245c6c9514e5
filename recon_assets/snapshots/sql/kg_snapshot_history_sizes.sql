-- Rows kg_snapshot_history_elements and kg_snapshot_history_edges keep (both snapshots' records), for the asset's
-- metadata.
SELECT (SELECT count(*) FROM kg_snapshot_history_elements), (SELECT count(*) FROM kg_snapshot_history_edges)
