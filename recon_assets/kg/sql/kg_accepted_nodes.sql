-- The accepted nodes of temp table kg_elements (kg_elements.sql), in file order, into the just-made kg_nodes.
INSERT INTO kg_nodes
SELECT element_id, line_number, labels, properties FROM kg_elements
WHERE reject_reason IS NULL AND element_type = 'node'
ORDER BY position
