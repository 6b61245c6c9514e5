-- When the citing works of each cited OpenAlex work $1 (a list of ids) were last fetched into openalex_citing_cache.
SELECT openalex_id, fetched_at FROM openalex_citing_cache WHERE list_contains($1, openalex_id)
