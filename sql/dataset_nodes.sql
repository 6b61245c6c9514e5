-- Dataset nodes of the current snapshot. The dataset version is not a property: it lives inside
-- shortName / longName / doi (parsed downstream).
SELECT node_id,
       line_number,
       properties->>'globalId' AS global_id,
       -- The first of doi / DOI that holds a value: an empty or 'N/A' doi must not hide a real DOI.
       coalesce(list_filter([properties->>'doi', properties->>'DOI'], lambda v: NOT regexp_full_match(v, '(?i)\s*(n/a)?\s*'))[1],
                properties->>'doi', properties->>'DOI') AS doi_raw,
       properties->>'shortName' AS short_name,
       properties->>'longName' AS long_name,
       properties->>'cmrId' AS cmr_id,
       properties->>'daac' AS daac,
       properties->>'abstract' AS abstract,
       nullif(properties->>'temporalExtentStart', '') AS temporal_start,
       nullif(properties->>'temporalExtentEnd', '') AS temporal_end,
       -- PageRank is positive and finite by construction; anything else is treated as missing (and recomputed).
       CASE WHEN isfinite(pr) AND pr > 0 THEN pr END AS pagerank
FROM (
    SELECT *, TRY_CAST(coalesce(properties->>'pagerank_publication_dataset', properties->>'pagerank_global') AS DOUBLE) AS pr
    FROM kg_nodes
)
WHERE list_contains(labels, 'Dataset')
ORDER BY line_number
