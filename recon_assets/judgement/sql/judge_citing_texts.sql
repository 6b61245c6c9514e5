-- The texts the judge compares a judged publication with: every KG publication it reads (temp table judge_texts, the
-- rows of judged_publications.sql) and every work OpenAlex lists that the KG lacks (temp table judge_citing, keys
-- beginning with $1, as the first of its rows gives it). One row per key: key, year, title, abstract and centrality
-- (the KG publication's PageRank centrality; NULL for a work OpenAlex lists).
SELECT publication_id AS key, year, title, abstract, centrality
FROM judge_texts
UNION ALL
SELECT key, year, title, abstract, centrality
FROM (
    SELECT DISTINCT ON (citing_key)
           citing_key AS key, citing_year AS year, citing_title AS title, citing_abstract AS abstract, NULL::DOUBLE AS centrality
    FROM judge_citing
    WHERE starts_with(citing_key, $1)
    ORDER BY citing_key, cited_publication_id
)
