-- Store the starts of the rejected lines read back from the export (kg_reject_heads: position, raw_head, an Arrow
-- table kg/ingest.py registers) in temp table kg_elements.
UPDATE kg_elements SET raw_head = heads.raw_head
FROM kg_reject_heads AS heads
WHERE kg_elements.position = heads.position
