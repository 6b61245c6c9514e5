-- kg_snapshot_diff's edge label changes per cause (cause, changes; an edge counted under each of its causes).
SELECT cause, count(*)
FROM (SELECT unnest(causes) AS cause FROM kg_snapshot_diff WHERE change = 'edge_label_changed')
GROUP BY 1 ORDER BY 1
