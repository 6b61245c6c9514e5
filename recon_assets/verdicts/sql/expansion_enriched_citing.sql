-- Evidence expansion, round 2: the openalex_citing_works rows of the dataset DOIs of the list $1 (cited_kind
-- 'dataset'), one per (cited DOI, citing work) whatever the research area that fetched it (a row without a citing
-- work is its DOI's one row), every column, by cited DOI then citing work id.
SELECT DISTINCT ON (cited_doi, coalesce(citing_openalex_id, '')) *
FROM openalex_citing_works
WHERE cited_kind = 'dataset' AND list_contains($1, cited_doi)
ORDER BY cited_doi, coalesce(citing_openalex_id, '')
