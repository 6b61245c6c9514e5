-- The scored edges of the pool's publications to the scope's datasets ($1, a list of dataset ids; NULL: every
-- dataset), with whether the dataset version is replaced (edge_reliability.dataset_superseded).
SELECT e.publication_id, e.dataset_id, e.dataset_short_name, e.dataset_version, e.label, e.reliability, e.reason,
       e.dataset_superseded, e.as_of
FROM edge_reliability AS e
WHERE $1 IS NULL OR list_contains($1, e.dataset_id)
ORDER BY e.publication_id, e.dataset_id, e.research_area;
