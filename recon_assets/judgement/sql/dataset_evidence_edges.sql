-- Who speaks to a dataset: every publication using it (via_successor false) and every publication using its
-- successor version (dataset_lineage.successor_dataset_id, one step; via_successor true) that does not use it
-- itself. The judge reads the second kind as newer evidence about the dataset's edges, never as edges.
CREATE OR REPLACE TEMP VIEW dataset_evidence_edges AS
SELECT e.dataset_id, e.publication_id, false AS via_successor
FROM dataset_publication_edges AS e
UNION ALL
SELECT l.dataset_id, s.publication_id, true AS via_successor
FROM dataset_lineage AS l
JOIN dataset_publication_edges AS s ON s.dataset_id = l.successor_dataset_id
WHERE l.superseded
  AND NOT EXISTS (
      SELECT 1 FROM dataset_publication_edges AS d WHERE d.dataset_id = l.dataset_id AND d.publication_id = s.publication_id
  )
;
-- The judge's evidence pool of each research area: every dataset used by a publication of the area, with
-- everyone speaking to it (above), whatever their own area. judge_inputs.sql judges it.
CREATE OR REPLACE TEMP VIEW judge_area_pool AS
WITH area_datasets AS (
    SELECT DISTINCT a.research_area, e.dataset_id
    FROM dataset_publication_edges AS e
    JOIN publication_research_areas AS a USING (publication_id)
)
SELECT DISTINCT d.research_area, v.dataset_id, v.publication_id, v.via_successor
FROM area_datasets AS d
JOIN dataset_evidence_edges AS v USING (dataset_id)
