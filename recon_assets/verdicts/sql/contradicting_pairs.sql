-- Judged pairs of the research areas $1 where the newer work contradicts the older publication and the contradiction
-- carries its edge as scored as of $2 (edge_reliability.coherence_status CONTRADICTED: a contradiction the works read
-- without objection outweigh does not, offline_judge.aggregate_edge_coherence), with both citation tags and years
-- (NULL when unknown) for the contradiction check.
SELECT j.research_area,
       j.dataset_id,
       o.first_author_tag AS older_citation,
       o.year AS older_year,
       j.newer_citation,
       j.newer_year
FROM coherence_judgements AS j
JOIN publications AS o ON o.publication_id = j.older_publication_id
JOIN edge_reliability AS e
  ON e.research_area = j.research_area AND e.dataset_id = j.dataset_id AND e.publication_id = j.older_publication_id
 AND e.as_of = $2
WHERE list_contains($1, j.research_area) AND j.verdict = 'CONTRADICTED' AND e.coherence_status = 'CONTRADICTED'
ORDER BY j.research_area, j.dataset_id, j.older_publication_id, j.newer_publication_id
