-- The openalex_citing_cache rows of the cited OpenAlex works $1 (a list of ids).
SELECT * FROM openalex_citing_cache WHERE list_contains($1, openalex_id)
