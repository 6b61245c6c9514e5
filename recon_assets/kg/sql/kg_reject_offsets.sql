-- The rejected JSON lines of temp table kg_elements (kg_elements.sql) by their byte offset in the export, for
-- kg/ingest.py to read their starts back from the file (a GraphML element has no offset: its start was kept).
SELECT position, byte_offset FROM kg_elements
WHERE reject_reason IS NOT NULL AND byte_offset IS NOT NULL
ORDER BY byte_offset
