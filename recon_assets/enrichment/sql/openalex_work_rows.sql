-- The requested (research_area, doi) pairs ($1 areas, $2 DOIs, aligned; the DOIs of publication_dois_in_research_areas.sql)
-- with what openalex_cache holds for each as this run left it: its status (found, not_found), work (JSON text) and
-- fetched_at; a DOI the cache does not hold is a mismatch when this run's lookup answered with another DOI's work
-- ($5 DOIs, $6 what it answered with, aligned), else an error with this run's text ($3 DOIs, $4 texts, aligned) or
-- 'not fetched'. The found works' columns are read from the JSON in Python (openalex_records.openalex_rows).
WITH requested AS (
    SELECT unnest($1::VARCHAR[]) AS research_area, unnest($2::VARCHAR[]) AS doi
),
errors AS (
    SELECT unnest($3::VARCHAR[]) AS doi, unnest($4::VARCHAR[]) AS error
),
mismatches AS (
    SELECT unnest($5::VARCHAR[]) AS doi, unnest($6::VARCHAR[]) AS error
)
SELECT r.research_area,
       r.doi,
       CASE WHEN c.doi IS NOT NULL THEN c.status WHEN m.doi IS NOT NULL THEN 'mismatch' ELSE 'error' END AS status,
       CASE WHEN c.doi IS NOT NULL THEN NULL ELSE coalesce(m.error, e.error, 'not fetched') END AS error,
       CAST(c.work AS VARCHAR) AS work,
       c.fetched_at
FROM requested AS r
LEFT JOIN openalex_cache AS c USING (doi)
LEFT JOIN mismatches AS m USING (doi)
LEFT JOIN errors AS e USING (doi)
ORDER BY r.research_area, r.doi
