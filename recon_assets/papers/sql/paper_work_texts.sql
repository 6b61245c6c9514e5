-- Title, abstract and year of the graph's publications $1 (a list of ids) a claim is judged against.
SELECT publication_id, title, abstract, year FROM publications WHERE list_contains($1, publication_id)
