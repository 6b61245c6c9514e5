-- The canonical DOIs with more than one openalex_cache row, most rows first: (doi, rows).
SELECT doi, count(*) AS n FROM openalex_cache GROUP BY doi HAVING count(*) > 1 ORDER BY n DESC, doi
