-- A question's retrieval pool (issue 21, "Retriever"): the publications with a scored edge to a dataset of the scope
-- ($1, a list of dataset ids; NULL: every dataset) and the publications citing them (a comment cites what it answers),
-- each with its best-known citation count up to as_of (edge_reliability.citations_as_of; NULL when none is known).
WITH users AS (
    SELECT DISTINCT publication_id FROM edge_reliability WHERE $1 IS NULL OR list_contains($1, dataset_id)
), pool AS (
    SELECT publication_id FROM users
    UNION
    SELECT c.citing_publication_id FROM publication_citations AS c JOIN users AS u ON c.cited_publication_id = u.publication_id
)
SELECT p.publication_id, p.doi, p.title, p.year, p.abstract, p.authors,
       (SELECT max(e.citations_as_of) FROM edge_reliability AS e WHERE e.publication_id = p.publication_id) AS cited_by_count
FROM publications AS p JOIN pool USING (publication_id)
ORDER BY p.publication_id;
