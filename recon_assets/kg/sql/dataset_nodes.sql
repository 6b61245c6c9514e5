-- Dataset nodes of the current snapshot. The dataset version is not a property: it lives inside
-- shortName / longName / doi (parsed downstream).
SELECT node_id,
       line_number,
       properties->>'globalId' AS global_id,
       kg_doi_raw(properties) AS doi_raw,
       properties->>'shortName' AS short_name,
       properties->>'longName' AS long_name,
       properties->>'cmrId' AS cmr_id,
       properties->>'daac' AS daac,
       properties->>'abstract' AS abstract,
       nullif(properties->>'temporalExtentStart', '') AS temporal_start,
       nullif(properties->>'temporalExtentEnd', '') AS temporal_end,
       kg_pagerank(properties) AS pagerank
FROM kg_nodes
WHERE list_contains(labels, 'Dataset')
ORDER BY line_number
