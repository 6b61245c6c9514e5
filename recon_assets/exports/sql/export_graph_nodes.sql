-- Every Dataset and Publication of the current snapshot, as one node list: node_label ('Dataset' or 'Publication'),
-- node_id (dataset_id / publication_id), its canonical DOI, a name (dataset short name, publication title) and the
-- KG node ids it stands for. Ordered by node_label then node_id: the order node indices are given in.
SELECT 'Dataset' AS node_label, dataset_id AS node_id, doi, short_name AS name, node_ids AS kg_node_ids
FROM datasets
UNION ALL
SELECT 'Publication', publication_id, doi, title, node_ids
FROM publications
ORDER BY node_label, node_id
