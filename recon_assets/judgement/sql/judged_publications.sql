-- Text, year, citation tag and centrality of every publication the judge reads: the evidence pool (temp table
-- judge_pool) and the works citing its publications (temp table judge_citing).
SELECT p.publication_id, p.year, p.title, p.abstract, c.centrality, p.first_author_tag AS citation
FROM publications AS p
JOIN publication_centrality AS c USING (publication_id)
WHERE p.publication_id IN (SELECT publication_id FROM judge_pool UNION SELECT citing_key FROM judge_citing)
ORDER BY p.publication_id
