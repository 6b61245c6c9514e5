-- When each of the DOIs $1 (a list) was last fetched into openalex_cache (a DOI the cache lacks has no row).
SELECT doi, fetched_at
FROM openalex_cache
JOIN (SELECT unnest($1::VARCHAR[]) AS doi) AS wanted USING (doi)
