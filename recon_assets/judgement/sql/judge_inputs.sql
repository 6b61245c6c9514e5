-- Evidence pool for the offline judge over the research areas $1 (the temp view judge_area_pool of
-- dataset_evidence_edges.sql): each (dataset, publication) once, however many of the areas share it.
SELECT DISTINCT dataset_id, publication_id, via_successor
FROM judge_area_pool
WHERE list_contains($1, research_area)
ORDER BY dataset_id, publication_id
