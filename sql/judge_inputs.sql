-- Evidence pool for the offline judge: every publication speaking to a dataset used in the research areas $1
-- (dataset_evidence_edges: its edges and its successor version's), whatever the area of the publication
-- (a newer paper in another area still speaks to the same dataset).
SELECT v.dataset_id, v.publication_id, v.via_successor
FROM dataset_evidence_edges AS v
WHERE v.dataset_id IN (
    SELECT e2.dataset_id
    FROM dataset_publication_edges AS e2
    JOIN publication_research_areas AS a USING (publication_id)
    WHERE list_contains($1, a.research_area)
)
ORDER BY v.dataset_id, v.publication_id
