-- The research areas a question's scope may name: each area's name (its key where it has none), once, sorted.
SELECT DISTINCT coalesce(research_area_name, research_area) FROM publication_research_areas ORDER BY 1
