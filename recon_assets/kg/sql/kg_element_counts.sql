-- One scan of temp table kg_elements: accepted nodes grouped by their label list, accepted relationships by type,
-- rejects as one group per element type (accepted, element_type, labels, rel_type, count).
SELECT reject_reason IS NULL AS accepted, element_type,
       CASE WHEN accepted AND element_type = 'node' THEN labels END,
       CASE WHEN accepted AND element_type = 'relationship' THEN rel_type END,
       count(*)
FROM kg_elements GROUP BY ALL
