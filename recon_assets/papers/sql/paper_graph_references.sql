-- The works the graph's publication of DOI $1 cites (publication_citations): each cited publication's DOI and title,
-- as a paper given by DOI reads its reference list.
SELECT cited.doi, cited.title
FROM publications AS paper
JOIN publication_citations AS c ON c.citing_publication_id = paper.publication_id
JOIN publications AS cited ON cited.publication_id = c.cited_publication_id
WHERE paper.doi = $1
ORDER BY cited.doi, cited.title
