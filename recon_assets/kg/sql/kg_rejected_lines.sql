-- The rejected lines of temp table kg_elements, in file order, into kg_rejects under snapshot $1 from source $2 (the
-- caller deletes that snapshot's earlier rejects first).
INSERT INTO kg_rejects
SELECT $1, $2, line_number, element_id, reject_reason, raw_head FROM kg_elements
WHERE reject_reason IS NOT NULL
ORDER BY position
