-- Evidence expansion, round 1: the OpenAlex work id of each dataset DOI of the list $2 whose cached openalex_cache
-- work has status $1 (found): (doi, work id as OpenAlex gives it, https://openalex.org/W123).
SELECT doi, json_extract_string(work, '$.id') FROM openalex_cache WHERE status = $1 AND list_contains($2, doi)
