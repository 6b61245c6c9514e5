-- The graph's publications of DOI $1 (a paper given by DOI is one of them).
SELECT publication_id FROM publications WHERE doi = $1
