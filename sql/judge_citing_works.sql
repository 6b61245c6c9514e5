-- Works citing the publications of the judge's evidence pool (temp table judge_pool, their direct edges): the KG's
-- own CITES, with each citing publication's year, citation tag and PageRank centrality (its weight as evidence).
-- Judged whatever their date (citing_pairs.py keeps those up to as_of); `source` says where the citation comes from.
SELECT c.cited_publication_id,
       c.citing_publication_id AS citing_key,
       p.year AS citing_year,
       p.first_author_tag AS citing_citation,
       pc.centrality AS citing_centrality,
       'kg' AS source
FROM publication_citations AS c
JOIN publications AS p ON p.publication_id = c.citing_publication_id
JOIN publication_centrality AS pc ON pc.publication_id = c.citing_publication_id
WHERE c.cited_publication_id IN (SELECT publication_id FROM judge_pool WHERE NOT via_successor)
ORDER BY c.cited_publication_id, c.citing_publication_id
