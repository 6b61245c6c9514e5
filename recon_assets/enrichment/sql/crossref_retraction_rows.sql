-- The crossref_retractions rows of the requested (research_area, doi) pairs ($1 areas, $2 DOIs, aligned; the DOIs of
-- publication_dois_in_research_areas.sql), read from crossref_cache as this run left it: checked, with the notices
-- and checked_at of the DOI's last successful check, when the cache holds the DOI; else error with this run's error
-- text ($3 DOIs, $4 texts, aligned) or 'not checked', no notices and checked_at NULL: never checked is not "not retracted".
WITH requested AS (
    SELECT unnest($1::VARCHAR[]) AS research_area, unnest($2::VARCHAR[]) AS doi
),
errors AS (
    SELECT unnest($3::VARCHAR[]) AS doi, unnest($4::VARCHAR[]) AS error
)
SELECT r.research_area,
       r.doi,
       CASE WHEN c.doi IS NULL THEN 'error' ELSE 'checked' END AS status,
       coalesce(c.notice_dois, []) AS notice_dois,
       CASE WHEN c.doi IS NULL THEN coalesce(e.error, 'not checked') END AS error,
       c.checked_at
FROM requested AS r
LEFT JOIN crossref_cache AS c USING (doi)
LEFT JOIN errors AS e USING (doi)
ORDER BY r.research_area, r.doi
