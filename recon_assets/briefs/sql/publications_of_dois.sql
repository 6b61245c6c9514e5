-- The graph's publications of the canonical DOIs $1 (a list): each DOI the graph holds with its smallest publication id.
SELECT doi, min(publication_id) FROM publications WHERE list_contains($1, doi) GROUP BY doi
