-- Dataset→Publication edges whose publication is in one of the research areas $1 (a list of slugs),
-- with what scoring and the reason string need. An edge of a publication in several areas appears once per area.
SELECT a.research_area,
       e.dataset_id,
       e.publication_id,
       d.doi AS dataset_doi,
       d.short_name AS dataset_short_name,
       p.doi AS publication_doi,
       p.year AS publication_year,
       p.year_issue,
       p.first_author_tag AS citation,
       c.centrality
FROM dataset_publication_edges AS e
JOIN publication_research_areas AS a USING (publication_id)
JOIN publications AS p USING (publication_id)
JOIN datasets AS d USING (dataset_id)
JOIN publication_centrality AS c USING (publication_id)
WHERE list_contains($1, a.research_area)
ORDER BY a.research_area, e.dataset_id, e.publication_id
