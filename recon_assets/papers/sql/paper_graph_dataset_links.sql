-- The datasets the graph links the publication of DOI $1 to by USES_DATASET (dataset_publication_edges): each dataset
-- with the sorted relationship ids of its edges.
SELECT e.dataset_id, list_sort(flatten(list(e.relationship_ids)))
FROM dataset_publication_edges AS e
JOIN publications AS p USING (publication_id)
WHERE p.doi = $1
GROUP BY e.dataset_id
ORDER BY e.dataset_id
