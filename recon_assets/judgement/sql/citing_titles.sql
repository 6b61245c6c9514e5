-- Works citing the publications of the research areas $1, with the titles a recorded dispute is read from: the KG's
-- own CITES (source 'kg') and the works OpenAlex lists as citing them (openalex_citing_works, source 'openalex'; a
-- KG publication when its DOI is one). One row per (cited publication, citing work), however many of the areas hold
-- the cited publication; a pair in both sources is the KG's.
WITH cited_in_areas AS (
    SELECT DISTINCT publication_id FROM publication_research_areas WHERE list_contains($1, research_area)
),
kg AS (
    SELECT c.cited_publication_id,
           cited.title AS cited_title,
           c.citing_publication_id AS citing_key,
           citing.doi AS citing_doi,
           citing.title AS citing_title,
           citing.year AS citing_year,
           'kg' AS source
    FROM publication_citations AS c
    JOIN publications AS cited ON cited.publication_id = c.cited_publication_id
    JOIN publications AS citing ON citing.publication_id = c.citing_publication_id
    WHERE c.cited_publication_id IN (SELECT publication_id FROM cited_in_areas)
),
openalex AS (
    -- two OpenAlex works with the DOI of one KG publication are one citing work: the smaller OpenAlex id speaks
    SELECT DISTINCT ON (cited.publication_id, coalesce(known.publication_id, 'openalex:' || w.citing_openalex_id))
           cited.publication_id AS cited_publication_id,
           cited.title AS cited_title,
           coalesce(known.publication_id, 'openalex:' || w.citing_openalex_id) AS citing_key,
           w.citing_doi,
           w.citing_title,
           w.citing_year,
           'openalex' AS source
    FROM openalex_citing_works AS w
    JOIN publications AS cited ON cited.doi = w.cited_doi
    LEFT JOIN publications AS known ON known.doi = w.citing_doi
    WHERE w.cited_kind = 'publication' AND w.status = 'fetched'
      AND cited.publication_id IN (SELECT publication_id FROM cited_in_areas)
    ORDER BY cited.publication_id, coalesce(known.publication_id, 'openalex:' || w.citing_openalex_id), w.citing_openalex_id
)
SELECT * FROM kg
UNION ALL
SELECT * FROM openalex
WHERE NOT EXISTS (
    SELECT 1 FROM kg WHERE kg.cited_publication_id = openalex.cited_publication_id AND kg.citing_key = openalex.citing_key
)
ORDER BY cited_publication_id, citing_key
