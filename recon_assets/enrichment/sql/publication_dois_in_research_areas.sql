-- The canonical DOI of every publication in the research areas $1 (a list of slugs), once per area.
SELECT DISTINCT a.research_area, p.doi
FROM publications AS p
JOIN publication_research_areas AS a USING (publication_id)
WHERE p.doi IS NOT NULL AND list_contains($1, a.research_area)
ORDER BY a.research_area, p.doi
