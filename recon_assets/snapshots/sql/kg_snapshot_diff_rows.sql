-- kg_snapshot_diff's rows (its columns, by name and in order): the 'previous' record of kg_snapshot_history against the
-- 'current' one.
-- Nodes and relationships added and removed per label / type (a multiset difference: parallel copies count), named
-- (the first 10 by name: kg_snapshot_history_elements.name, else the key of a record from before names were kept), the
-- publications whose DOI or year changed, and the scored edges whose label changed, with every recorded input of
-- their two scorings that differs: the KG snapshot (graph), the OpenAlex/Crossref record (enrichment: its fetch time
-- or the values the row recorded), the scoring settings (their SHA-256), as_of, and the coherence and dispute
-- judgements (judgement).
WITH snapshots AS (
    SELECT max(snapshot_id) FILTER (WHERE role = 'previous') AS previous_id,
           max(snapshot_id) FILTER (WHERE role = 'current') AS current_id
    FROM kg_snapshot_history
),
previous_elements AS (SELECT * FROM kg_snapshot_history_elements WHERE role = 'previous'),
current_elements AS (SELECT * FROM kg_snapshot_history_elements WHERE role = 'current'),
element_counts AS (
    SELECT coalesce(c.element, p.element) AS element,
           coalesce(c.element_type, p.element_type) AS element_type,
           sum(greatest(coalesce(c.copies, 0) - coalesce(p.copies, 0), 0)) AS added,
           sum(greatest(coalesce(p.copies, 0) - coalesce(c.copies, 0), 0)) AS removed,
           list(coalesce(c.name, p.name, element_key) ORDER BY coalesce(c.name, p.name, element_key))
               FILTER (WHERE coalesce(c.copies, 0) > coalesce(p.copies, 0)) AS added_names,
           list(coalesce(p.name, c.name, element_key) ORDER BY coalesce(p.name, c.name, element_key))
               FILTER (WHERE coalesce(p.copies, 0) > coalesce(c.copies, 0)) AS removed_names
    FROM current_elements AS c
    FULL JOIN previous_elements AS p USING (element, element_type, element_key)
    GROUP BY ALL
),
element_changes AS (
    SELECT element || '_added' AS change, element_type, added AS elements, added_names AS names FROM element_counts WHERE added > 0
    UNION ALL
    SELECT element || '_removed', element_type, removed, removed_names FROM element_counts WHERE removed > 0
),
publications AS (
    SELECT element_key, p.doi AS doi_before, c.doi AS doi_after, p.year AS year_before, c.year AS year_after
    FROM current_elements AS c
    JOIN previous_elements AS p USING (element, element_type, element_key)
    WHERE element = 'node' AND element_type = 'Publication'
),
edges AS (
    SELECT research_area, dataset_id, publication_id, p.label AS before, c.label AS after,
           list_filter([
               CASE WHEN p.snapshot_id <> c.snapshot_id THEN 'graph' END,
               CASE WHEN p.openalex_fetched_at IS DISTINCT FROM c.openalex_fetched_at OR p.enrichment_digest <> c.enrichment_digest
                    THEN 'enrichment' END,
               CASE WHEN p.settings_digest <> c.settings_digest THEN 'settings' END,
               CASE WHEN p.as_of <> c.as_of THEN 'as_of' END,
               CASE WHEN p.judgement_digest <> c.judgement_digest THEN 'judgement' END
           ], lambda cause: cause IS NOT NULL) AS causes,
           concat_ws('; ',
               CASE WHEN p.snapshot_id <> c.snapshot_id THEN 'KG snapshot ' || p.snapshot_id || ' -> ' || c.snapshot_id END,
               CASE WHEN p.openalex_fetched_at IS DISTINCT FROM c.openalex_fetched_at
                    THEN 'OpenAlex record fetched ' || coalesce(strftime(p.openalex_fetched_at, '%Y-%m-%d'), 'never') || ' -> '
                         || coalesce(strftime(c.openalex_fetched_at, '%Y-%m-%d'), 'never') END,
               CASE WHEN p.enrichment_digest <> c.enrichment_digest THEN 'OpenAlex/Crossref values of the edge changed' END,
               CASE WHEN p.settings_digest <> c.settings_digest
                    THEN 'scoring settings ' || p.settings_digest[:12] || ' -> ' || c.settings_digest[:12] END,
               CASE WHEN p.as_of <> c.as_of THEN 'as_of ' || p.as_of || ' -> ' || c.as_of END,
               CASE WHEN p.judgement_digest <> c.judgement_digest THEN 'coherence or dispute judgement changed' END
           ) AS why,
           'reliability ' || round(p.reliability, 3) || ' -> ' || round(c.reliability, 3) AS scores
    FROM kg_snapshot_history_edges AS c
    JOIN kg_snapshot_history_edges AS p USING (research_area, dataset_id, publication_id)
    WHERE c.role = 'current' AND p.role = 'previous' AND c.label <> p.label
)
SELECT s.previous_id AS previous_snapshot_id, s.current_id AS current_snapshot_id, change, element_type, elements,
       list_slice(names, 1, 10) AS names, NULL AS element_key, NULL AS research_area, NULL AS dataset_id,
       NULL AS publication_id, NULL AS before, NULL AS after, ['graph'] AS causes,
       CASE WHEN change LIKE '%_added' THEN 'in snapshot ' || s.current_id || ', not in ' || s.previous_id
            ELSE 'in snapshot ' || s.previous_id || ', not in ' || s.current_id END
       || ': ' || array_to_string(list_slice(names, 1, 10), ', ')
       || CASE WHEN len(names) > 10 THEN ' and ' || (len(names) - 10) || ' more' ELSE '' END AS reason
FROM element_changes, snapshots AS s
UNION ALL
SELECT s.previous_id, s.current_id, 'publication_doi_changed', 'Publication', 1, NULL, element_key, NULL, NULL, NULL,
       doi_before, doi_after, ['graph'], 'the DOI the KG gives the publication (normalised) changed'
FROM publications, snapshots AS s WHERE doi_before IS DISTINCT FROM doi_after
UNION ALL
SELECT s.previous_id, s.current_id, 'publication_year_changed', 'Publication', 1, NULL, element_key, NULL, NULL, NULL,
       CAST(year_before AS VARCHAR), CAST(year_after AS VARCHAR), ['graph'], 'the year the KG gives the publication (normalised) changed'
FROM publications, snapshots AS s WHERE year_before IS DISTINCT FROM year_after
UNION ALL
SELECT s.previous_id, s.current_id, 'edge_label_changed', 'USES_DATASET', 1, NULL, NULL, research_area, dataset_id, publication_id,
       before, after, causes,
       CASE WHEN why = '' THEN 'none of the recorded inputs of the two scorings differs (a code change?); ' || scores
            ELSE why || '; ' || scores END
FROM edges, snapshots AS s
ORDER BY 3, 4, 7, 8, 9, 10
