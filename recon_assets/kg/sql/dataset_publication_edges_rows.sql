-- The rows of dataset_publication_edges: the KG's Publication-[:USES_DATASET]->Dataset relationships, each end read
-- as the publication / dataset whose node_ids hold it, gathered per (dataset, publication) pair: several
-- relationships when merged publication nodes used the same dataset.
SELECT d.dataset_id,
       p.publication_id,
       list(r.relationship_id ORDER BY r.relationship_id) AS relationship_ids
FROM kg_relationships AS r
JOIN (SELECT unnest(node_ids) AS node_id, publication_id FROM publications) AS p ON p.node_id = r.start_id
JOIN (SELECT unnest(node_ids) AS node_id, dataset_id FROM datasets) AS d ON d.node_id = r.end_id
WHERE r.rel_type = 'USES_DATASET'
GROUP BY d.dataset_id, p.publication_id
ORDER BY d.dataset_id, p.publication_id
