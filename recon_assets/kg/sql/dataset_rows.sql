-- The rows of datasets: one per dataset_id of the Dataset nodes (temp table dataset_node_keys: dataset_node_keys'
-- rows, one per node); when the key repeats, each column takes the first non-missing value in line order, and
-- node_ids lists the nodes in line order.
SELECT dataset_id,
       arg_min(doi, line_number) FILTER (WHERE doi IS NOT NULL) AS doi,
       arg_min(doi_raw, line_number) FILTER (WHERE doi_raw IS NOT NULL) AS doi_raw,
       arg_min(short_name, line_number) FILTER (WHERE short_name IS NOT NULL) AS short_name,
       arg_min(long_name, line_number) FILTER (WHERE long_name IS NOT NULL) AS long_name,
       arg_min(cmr_id, line_number) FILTER (WHERE cmr_id IS NOT NULL) AS cmr_id,
       arg_min(daac, line_number) FILTER (WHERE daac IS NOT NULL) AS daac,
       arg_min(abstract, line_number) FILTER (WHERE abstract IS NOT NULL) AS abstract,
       arg_min(temporal_start, line_number) FILTER (WHERE temporal_start IS NOT NULL) AS temporal_start,
       arg_min(temporal_end, line_number) FILTER (WHERE temporal_end IS NOT NULL) AS temporal_end,
       arg_min(pagerank, line_number) FILTER (WHERE pagerank IS NOT NULL) AS pagerank,
       list(node_id ORDER BY line_number) AS node_ids
FROM dataset_node_keys
GROUP BY dataset_id
ORDER BY dataset_id
