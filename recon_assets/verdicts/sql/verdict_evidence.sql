-- The evidence of every dataset in the research areas $1: its scored edges (edge_reliability) with the
-- publication's citation tag, the dataset's lifecycle as the scores used it, and the settings they were
-- scored with (to score publications found by evidence expansion alike).
SELECT r.research_area,
       r.dataset_id,
       r.dataset_doi,
       r.dataset_short_name,
       r.publication_doi,
       p.first_author_tag AS citation,
       r.reliability,
       r.label,
       r.dataset_superseded,
       r.dataset_version,
       r.successor_version,
       r.superseded_since,
       l.collection_progress AS dataset_collection_progress,
       r.succession_basis,
       r.scoring_settings
FROM edge_reliability AS r
JOIN publications AS p USING (publication_id)
LEFT JOIN dataset_lineage AS l USING (dataset_id)
WHERE list_contains($1, r.research_area)
ORDER BY r.research_area, r.dataset_id, r.reliability DESC, r.publication_id
