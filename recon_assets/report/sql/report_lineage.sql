-- reliability_report: what the scores rest on, one row per (snapshot, as_of, scoring settings) found in
-- edge_reliability, with the snapshot's file (kg_snapshots) and how many edges carry it.
SELECT
    e.snapshot_id, s.source, s.sha256, s.format, e.as_of, e.scoring_settings, count(*) AS edges
FROM edge_reliability AS e
LEFT JOIN kg_snapshots AS s USING (snapshot_id)
GROUP BY e.snapshot_id, s.source, s.sha256, s.format, e.as_of, e.scoring_settings
ORDER BY edges DESC, e.snapshot_id, e.as_of
