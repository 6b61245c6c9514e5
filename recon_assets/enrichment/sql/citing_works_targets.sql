-- The works whose citing works are wanted for the research areas $1: every publication DOI of the area (its
-- openalex_works row: status, OpenAlex id, citation count) and the DOI of every dataset with an edge in the area
-- (its openalex_cache entry, NULL status when OpenAlex was never asked). One row per (research area, cited DOI).
WITH dataset_dois AS (
    SELECT DISTINCT a.research_area, d.doi
    FROM dataset_publication_edges AS e
    JOIN publication_research_areas AS a USING (publication_id)
    JOIN datasets AS d USING (dataset_id)
    WHERE d.doi IS NOT NULL AND list_contains($1, a.research_area)
)
SELECT research_area,
       doi AS cited_doi,
       'publication' AS cited_kind,
       status AS openalex_status,
       error AS openalex_error,
       regexp_extract(openalex_id, '[^/]+$') AS cited_openalex_id,
       cited_by_count
FROM openalex_works
WHERE list_contains($1, research_area)
UNION ALL
SELECT t.research_area,
       t.doi,
       'dataset',
       c.status,
       NULL,
       regexp_extract(json_extract_string(c.work, '$.id'), '[^/]+$'),
       -- TRY_CAST: the asset reads the dataset DOIs here first, then drops the cached records that fail their schema
       -- (`openalex_records.OpenAlexWork`) before it uses these values
       TRY_CAST(json_extract(c.work, '$.cited_by_count') AS BIGINT)
FROM dataset_dois AS t
LEFT JOIN openalex_cache AS c USING (doi)
ORDER BY 1, 3 DESC, 2
