-- The graph's publications a paper's citation gaps are searched among ($1: the paper's own DOI, left out; NULL for a
-- PDF), with a title or an abstract: their text as the offline judge reads it, their citations (OpenAlex
-- cited_by_count when a found record has one; the KG's citing publications always) and the datasets they use.
SELECT p.publication_id,
       p.doi,
       p.title,
       p.year,
       concat_ws('. ', p.title, p.abstract) AS text,
       o.cited_by_count AS openalex_citations,
       coalesce(k.citing, 0) AS kg_citations,
       coalesce(e.dataset_ids, []) AS dataset_ids
FROM publications AS p
LEFT JOIN (
    SELECT doi, max(cited_by_count) AS cited_by_count FROM openalex_works
    WHERE status = 'found' AND cited_by_count IS NOT NULL GROUP BY doi
) AS o ON o.doi = p.doi
LEFT JOIN (
    SELECT cited_publication_id, count(DISTINCT citing_publication_id) AS citing FROM publication_citations GROUP BY cited_publication_id
) AS k ON k.cited_publication_id = p.publication_id
LEFT JOIN (
    SELECT publication_id, list(DISTINCT dataset_id ORDER BY dataset_id) AS dataset_ids FROM dataset_publication_edges GROUP BY publication_id
) AS e ON e.publication_id = p.publication_id
WHERE p.doi IS DISTINCT FROM $1 AND coalesce(p.title, p.abstract) IS NOT NULL
ORDER BY p.publication_id
