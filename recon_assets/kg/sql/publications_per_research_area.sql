-- How many publications each research area holds (publication_research_areas), by area.
SELECT research_area, count(*) FROM publication_research_areas GROUP BY 1 ORDER BY 1
