-- Evidence expansion, round 2: the openalex_citing_works rows of the dataset DOIs of the list $1 (cited_kind
-- 'dataset'), whatever the research area that fetched them. A DOI's status is its best-informed rows': fetched,
-- then none or not_in_openalex (OpenAlex answered), then not_asked, so one area that was not asked never hides the
-- works another area fetched. Of those rows, one per (cited DOI, citing work), the latest answer (a row without a
-- citing work is its DOI's one row); every column, by cited DOI then citing work id.
WITH ranked AS (
    SELECT *, CASE status WHEN 'fetched' THEN 0 WHEN 'none' THEN 1 WHEN 'not_in_openalex' THEN 1 ELSE 2 END AS answer_rank
    FROM openalex_citing_works
    WHERE cited_kind = 'dataset' AND list_contains($1, cited_doi)
    QUALIFY answer_rank = min(answer_rank) OVER (PARTITION BY cited_doi)
)
SELECT DISTINCT ON (cited_doi, coalesce(citing_openalex_id, '')) * EXCLUDE (answer_rank)
FROM ranked
ORDER BY cited_doi, coalesce(citing_openalex_id, ''), fetched_at DESC NULLS LAST
