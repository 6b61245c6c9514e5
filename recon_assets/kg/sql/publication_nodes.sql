-- Publication nodes of the current snapshot, properties as the real KG spells them:
-- `doi` or `DOI`, `year` as a string (kept as JSON text to see its real type), `authors` a string or a list,
-- centrality in `pagerank_publication_dataset` (the builder's name) or `pagerank_global`.
SELECT node_id,
       line_number,
       properties->>'globalId' AS global_id,
       kg_doi_raw(properties) AS doi_raw,
       properties->>'title' AS title,
       CAST(properties->'year' AS VARCHAR) AS year_json,
       properties->>'abstract' AS abstract,
       CAST(properties->'authors' AS VARCHAR) AS authors_json,
       kg_pagerank(properties) AS pagerank
FROM kg_nodes
WHERE list_contains(labels, 'Publication')
ORDER BY line_number
