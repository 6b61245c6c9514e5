-- The recorded comments (recorded_disputes, relation 'comment') as `papers.gaps.Comment`s: the publication commented
-- on (id, DOI) and the comment (key, DOI, title, year), each once.
SELECT DISTINCT r.publication_id, p.doi, r.other_key, r.other_doi, r.other_title, r.other_year
FROM recorded_disputes AS r
LEFT JOIN publications AS p ON p.publication_id = r.publication_id
WHERE r.relation = 'comment'
ORDER BY ALL
