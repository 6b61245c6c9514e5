-- Every USES_DATASET relationship behind the Dataset→Publication edges of the current snapshot, with the globalId
-- of its Publication (start) and Dataset (end) node: what Neo4j MATCHes the relationship by. NULL when the node has
-- no globalId property.
SELECT e.dataset_id, e.publication_id, r.relationship_id,
       s.properties->>'globalId' AS publication_global_id,
       t.properties->>'globalId' AS dataset_global_id
FROM dataset_publication_edges AS e, unnest(e.relationship_ids) AS u(relationship_id)
JOIN kg_relationships AS r ON r.relationship_id = u.relationship_id
JOIN kg_nodes AS s ON s.node_id = r.start_id
JOIN kg_nodes AS t ON t.node_id = r.end_id
ORDER BY e.dataset_id, e.publication_id, r.relationship_id
