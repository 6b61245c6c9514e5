-- The rows of publications: build_publications' merged rows (temp table merged_publications), each with node_ids, the
-- KG node ids merged into it (temp table publication_members: publication_id, node_id, completeness, line_number),
-- the most complete node first, then in line order.
SELECT p.*, m.node_ids
FROM merged_publications AS p
JOIN (
    SELECT publication_id, list(node_id ORDER BY completeness DESC, line_number) AS node_ids
    FROM publication_members
    GROUP BY publication_id
) AS m USING (publication_id)
ORDER BY publication_id
