-- Accepted relationships of one type ($1), with the ScienceKeyword name of the end node (for research areas).
SELECT r.relationship_id, r.start_id, r.end_id, e.properties->>'name' AS end_name
FROM kg_relationships AS r
JOIN kg_nodes AS e ON e.node_id = r.end_id
WHERE r.rel_type = $1
ORDER BY r.line_number
