-- Drop the openalex_cache rows of the DOIs $1 (a list), so they are asked again.
DELETE FROM openalex_cache WHERE list_contains($1, doi)
