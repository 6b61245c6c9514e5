-- Evidence pool for the offline judge: every edge of every dataset used in the research areas $1,
-- whatever the area of the publication (a newer paper in another area still speaks to the same dataset).
SELECT e.dataset_id, e.publication_id
FROM dataset_publication_edges AS e
WHERE e.dataset_id IN (
    SELECT e2.dataset_id
    FROM dataset_publication_edges AS e2
    JOIN publication_research_areas AS a USING (publication_id)
    WHERE list_contains($1, a.research_area)
)
ORDER BY e.dataset_id, e.publication_id
