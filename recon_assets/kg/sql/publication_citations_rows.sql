-- The rows of publication_citations: distinct citing -> cited pairs of kg_citation_pairs (kg_citation_pairs.sql)
-- with their relationships; a self-citation (two merged nodes citing each other) says nothing about the paper and is left out.
SELECT citing_publication_id,
       cited_publication_id,
       list(relationship_id ORDER BY relationship_id) AS relationship_ids
FROM kg_citation_pairs
WHERE citing_publication_id <> cited_publication_id
GROUP BY citing_publication_id, cited_publication_id
ORDER BY citing_publication_id, cited_publication_id
