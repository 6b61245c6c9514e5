-- The graph's publications a paper is read against, one row each: id, DOI, title, year and text (title. abstract, as
-- the offline judge reads them), leaving out the paper itself when it was given by DOI ($1; NULL for a PDF).
SELECT publication_id, doi, title, year, concat_ws('. ', title, abstract) AS text
FROM publications
WHERE doi IS DISTINCT FROM $1 AND coalesce(title, abstract) IS NOT NULL
ORDER BY publication_id
