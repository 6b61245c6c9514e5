-- One row per KG CITES relationship between publications, each end read as the publication whose node_ids hold it.
-- Both ends can be the same publication when the cited and citing nodes merged (nodes differing only in DOI spelling).
CREATE OR REPLACE TEMP VIEW kg_citation_pairs AS
SELECT r.relationship_id,
       citing.publication_id AS citing_publication_id,
       cited.publication_id AS cited_publication_id
FROM kg_relationships AS r
JOIN (SELECT unnest(node_ids) AS node_id, publication_id FROM publications) AS citing ON citing.node_id = r.start_id
JOIN (SELECT unnest(node_ids) AS node_id, publication_id FROM publications) AS cited ON cited.node_id = r.end_id
WHERE r.rel_type = 'CITES';
