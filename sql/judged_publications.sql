-- Text, year and centrality of the publications in the evidence pool (temp table judge_pool).
SELECT p.publication_id, p.year, p.title, p.abstract, c.centrality
FROM publications AS p
JOIN publication_centrality AS c USING (publication_id)
WHERE p.publication_id IN (SELECT publication_id FROM judge_pool)
ORDER BY p.publication_id
