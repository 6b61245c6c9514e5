-- reliability_report: the SUPERSEDED edges ($1) of the most central publications, at most $2 rows; total_superseded
-- counts them all.
SELECT
    e.research_area, e.dataset_short_name, e.dataset_doi, e.publication_doi, p.title, e.publication_year,
    e.centrality, e.reliability, e.dominant_signal, e.reason,
    count(*) OVER () AS total_superseded
FROM edge_reliability AS e
LEFT JOIN publications AS p USING (publication_id)
WHERE e.label = $1
ORDER BY e.centrality DESC, e.reliability, e.publication_doi, e.dataset_short_name, e.research_area
LIMIT $2
