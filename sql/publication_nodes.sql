-- Publication nodes of the current snapshot, properties as the real KG spells them:
-- `doi` or `DOI`, `year` as a string (kept as JSON text to see its real type), `authors` a string or a list,
-- centrality in `pagerank_publication_dataset` (the builder's name) or `pagerank_global`.
SELECT node_id,
       line_number,
       properties->>'globalId' AS global_id,
       -- The first of doi / DOI that holds a value: an empty or 'N/A' doi must not hide a real DOI.
       coalesce(list_filter([properties->>'doi', properties->>'DOI'], lambda v: NOT regexp_full_match(v, '(?i)\s*(n/a)?\s*'))[1],
                properties->>'doi', properties->>'DOI') AS doi_raw,
       properties->>'title' AS title,
       CAST(properties->'year' AS VARCHAR) AS year_json,
       properties->>'abstract' AS abstract,
       CAST(properties->'authors' AS VARCHAR) AS authors_json,
       -- PageRank is positive and finite by construction; anything else is treated as missing (and recomputed).
       CASE WHEN isfinite(pr) AND pr > 0 THEN pr END AS pagerank
FROM (
    SELECT *, TRY_CAST(coalesce(properties->>'pagerank_publication_dataset', properties->>'pagerank_global') AS DOUBLE) AS pr
    FROM kg_nodes
)
WHERE list_contains(labels, 'Publication')
ORDER BY line_number
