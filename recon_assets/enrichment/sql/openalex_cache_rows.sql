-- The rows in openalex_cache (one column).
SELECT count(*) FROM openalex_cache
