-- The rows of kg_snapshot_diff that name what was added or removed (change, element_type, reason), for the run's log.
SELECT change, element_type, reason FROM kg_snapshot_diff WHERE names IS NOT NULL ORDER BY 1, 2
