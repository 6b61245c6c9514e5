-- The rows of science_keywords: one per keyword_id of the ScienceKeyword nodes of the current snapshot; when the key
-- repeats (one name, several nodes) the first named node in line order names it and its relationships are summed.
WITH nodes AS (
    SELECT node_id,
           line_number,
           coalesce('kg:' || nullif(trim(properties->>'globalId'), ''), 'kg-node:' || node_id) AS keyword_id,
           nullif(trim(properties->>'name'), '') AS name
    FROM kg_nodes
    WHERE list_contains(labels, 'ScienceKeyword')
), links AS (
    SELECT n.keyword_id,
           n.node_id,
           list_filter(list(nullif(trim(p.properties->>'name'), '')) FILTER (WHERE r.rel_type = 'HAS_SUBCATEGORY'), lambda v: v IS NOT NULL) AS parents,
           count(*) FILTER (WHERE r.rel_type = 'HAS_SCIENCEKEYWORD') AS datasets,
           count(*) FILTER (WHERE r.rel_type = 'HAS_APPLIEDRESEARCHAREA') AS publications
    FROM nodes AS n
    LEFT JOIN kg_relationships AS r
      ON r.end_id = n.node_id AND r.rel_type IN ('HAS_SUBCATEGORY', 'HAS_SCIENCEKEYWORD', 'HAS_APPLIEDRESEARCHAREA')
    LEFT JOIN kg_nodes AS p ON p.node_id = r.start_id
    GROUP BY n.keyword_id, n.node_id
)
SELECT n.keyword_id,
       arg_min(n.name, n.line_number) FILTER (WHERE n.name IS NOT NULL) AS name,
       list_sort(list_distinct(flatten(list(coalesce(l.parents, []))))) AS parent_names,
       CAST(sum(l.datasets) AS INTEGER) AS datasets,
       CAST(sum(l.publications) AS INTEGER) AS publications,
       list(n.node_id ORDER BY n.line_number) AS node_ids
FROM nodes AS n
JOIN links AS l USING (keyword_id, node_id)
GROUP BY n.keyword_id
ORDER BY n.keyword_id
