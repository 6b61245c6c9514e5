-- The openalex_cache rows of the DOIs $1 (a list; a DOI listed twice gives its row twice): DOI, status and the work
-- as JSON text, for `openalex_records.unusable_cache_rows`. A join on the unnested DOIs: they may be every DOI of the
-- research areas.
SELECT doi, status, CAST(work AS VARCHAR) AS work
FROM openalex_cache
JOIN (SELECT unnest($1::VARCHAR[]) AS doi) AS wanted USING (doi)
