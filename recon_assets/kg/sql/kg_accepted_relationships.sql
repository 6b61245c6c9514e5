-- The accepted relationships of temp table kg_elements (kg_elements.sql), in file order, into the just-made
-- kg_relationships.
INSERT INTO kg_relationships
SELECT element_id, line_number, rel_type, start_id, end_id, properties FROM kg_elements
WHERE reject_reason IS NULL AND element_type = 'relationship'
ORDER BY position
