-- The snapshot kg_snapshot_history keeps as role 'previous' (the one the current snapshot is compared with); no row
-- when only one snapshot has been recorded.
SELECT snapshot_id FROM kg_snapshot_history WHERE role = 'previous'
