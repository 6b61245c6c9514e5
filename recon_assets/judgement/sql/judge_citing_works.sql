-- Works citing the publications of the judge's evidence pool (temp table judge_pool, their direct edges): the KG's
-- own CITES (source 'kg'), with each citing publication's year, citation tag and PageRank centrality (its weight as
-- evidence), and the works OpenAlex lists as citing them (openalex_citing_works, source 'openalex'): a KG
-- publication when its DOI is one (judged on the KG's text), else keyed 'openalex:<id>' with its own title, abstract
-- and citation count (citing_pairs weighs it by citation centrality). A pair in both sources is the KG's.
-- Judged whatever their date (citing_pairs.py keeps those up to as_of).
WITH pool AS (
    SELECT DISTINCT publication_id FROM judge_pool WHERE NOT via_successor
),
kg AS (
    SELECT c.cited_publication_id,
           c.citing_publication_id AS citing_key,
           p.year AS citing_year,
           p.first_author_tag AS citing_citation,
           pc.centrality AS citing_centrality,
           NULL::BIGINT AS citing_cited_by_count,
           NULL::VARCHAR AS citing_title,
           NULL::VARCHAR AS citing_abstract,
           'kg' AS source
    FROM publication_citations AS c
    JOIN publications AS p ON p.publication_id = c.citing_publication_id
    JOIN publication_centrality AS pc ON pc.publication_id = c.citing_publication_id
    WHERE c.cited_publication_id IN (SELECT publication_id FROM pool)
),
openalex AS (
    SELECT DISTINCT ON (cited.publication_id, w.citing_openalex_id)
           cited.publication_id AS cited_publication_id,
           coalesce(known.publication_id, 'openalex:' || w.citing_openalex_id) AS citing_key,
           coalesce(known.year, w.citing_year) AS citing_year,
           coalesce(known.first_author_tag, w.citing_citation) AS citing_citation,
           pc.centrality AS citing_centrality,
           w.citing_cited_by_count,
           CASE WHEN known.publication_id IS NULL THEN w.citing_title END AS citing_title,
           CASE WHEN known.publication_id IS NULL THEN w.citing_abstract END AS citing_abstract,
           'openalex' AS source
    FROM openalex_citing_works AS w
    JOIN publications AS cited ON cited.doi = w.cited_doi
    LEFT JOIN publications AS known ON known.doi = w.citing_doi
    LEFT JOIN publication_centrality AS pc ON pc.publication_id = known.publication_id
    WHERE w.cited_kind = 'publication' AND w.status = 'fetched'
      AND cited.publication_id IN (SELECT publication_id FROM pool)
    ORDER BY cited.publication_id, w.citing_openalex_id, known.publication_id
)
SELECT * FROM kg
UNION ALL
SELECT * FROM openalex
WHERE NOT EXISTS (
    SELECT 1 FROM kg WHERE kg.cited_publication_id = openalex.cited_publication_id AND kg.citing_key = openalex.citing_key
)
ORDER BY cited_publication_id, citing_key
