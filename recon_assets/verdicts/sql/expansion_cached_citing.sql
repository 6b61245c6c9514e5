-- Evidence expansion, round 1: the cached works (status $3, found) whose referenced_works hold a dataset DOI's work id,
-- the lists $1 (dataset DOIs) and $2 (their work ids) paired by position: (dataset_doi, work JSON, fetched_at), by
-- dataset DOI then the citing work's DOI.
SELECT t.dataset_doi, c.work, c.fetched_at
FROM openalex_cache AS c
JOIN (SELECT unnest($1) AS dataset_doi, unnest($2) AS work_id) AS t
    ON list_contains(json_extract_string(c.work, '$.referenced_works[*]'), t.work_id)
WHERE c.status = $3
ORDER BY t.dataset_doi, c.doi
