-- Each publication with the KG node ids merged into it: what its research areas are read from.
SELECT publication_id, node_ids FROM publications
