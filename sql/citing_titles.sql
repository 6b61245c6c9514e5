-- Works citing the publications of the research areas $1, with the titles a recorded dispute is read from: the KG's
-- own CITES (source 'kg'). One row per (research area, cited publication, citing work).
SELECT a.research_area,
       c.cited_publication_id,
       cited.title AS cited_title,
       c.citing_publication_id AS citing_key,
       citing.doi AS citing_doi,
       citing.title AS citing_title,
       citing.year AS citing_year,
       'kg' AS source
FROM publication_citations AS c
JOIN publication_research_areas AS a ON a.publication_id = c.cited_publication_id
JOIN publications AS cited ON cited.publication_id = c.cited_publication_id
JOIN publications AS citing ON citing.publication_id = c.citing_publication_id
WHERE list_contains($1, a.research_area)
ORDER BY a.research_area, c.cited_publication_id, c.citing_publication_id
