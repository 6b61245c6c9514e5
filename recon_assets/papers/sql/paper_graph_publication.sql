-- The graph's record of a paper given by DOI ($1): its title and abstract, from the publication of that DOI with the
-- smallest publication_id (no row when the graph lacks the DOI).
SELECT title, abstract FROM publications WHERE doi = $1 ORDER BY publication_id LIMIT 1
