-- Record the current snapshot and its scoring as role 'current'. When the recorded 'current' is of another snapshot
-- it becomes 'previous' first (the last record of that snapshot); a record of the same snapshot is replaced.
-- Variable history_snapshot_id: the id of the snapshot in kg_nodes.
CREATE OR REPLACE TEMP TABLE kg_history_shift AS
SELECT count(*) > 0 AS shift FROM kg_snapshot_history WHERE role = 'current' AND snapshot_id <> getvariable('history_snapshot_id');
DELETE FROM kg_snapshot_history WHERE role = 'previous' AND (SELECT shift FROM kg_history_shift);
DELETE FROM kg_snapshot_history_elements WHERE role = 'previous' AND (SELECT shift FROM kg_history_shift);
DELETE FROM kg_snapshot_history_edges WHERE role = 'previous' AND (SELECT shift FROM kg_history_shift);
UPDATE kg_snapshot_history SET role = 'previous' WHERE role = 'current' AND (SELECT shift FROM kg_history_shift);
UPDATE kg_snapshot_history_elements SET role = 'previous' WHERE role = 'current' AND (SELECT shift FROM kg_history_shift);
UPDATE kg_snapshot_history_edges SET role = 'previous' WHERE role = 'current' AND (SELECT shift FROM kg_history_shift);
DELETE FROM kg_snapshot_history WHERE role = 'current';
DELETE FROM kg_snapshot_history_elements WHERE role = 'current';
DELETE FROM kg_snapshot_history_edges WHERE role = 'current';
INSERT INTO kg_snapshot_history VALUES ('current', getvariable('history_snapshot_id'), now());
-- Nodes keyed by globalId (the export's node ids are Neo4j's internal ids, renumbered by a re-import), one row per
-- label; Publication rows carry the DOI and year as the publications table normalised them. A node is named by the
-- DOI of the publication or dataset it was merged into, else by its key.
CREATE OR REPLACE TEMP TABLE kg_history_node_keys AS
WITH merged AS (
    SELECT unnest(node_ids) AS node_id, doi FROM publications WHERE doi IS NOT NULL
    UNION ALL
    SELECT unnest(node_ids) AS node_id, doi FROM datasets WHERE doi IS NOT NULL
),
dois AS (SELECT node_id, min(doi) AS doi FROM merged GROUP BY node_id),
keys AS (SELECT node_id, coalesce(properties->>'globalId', node_id) AS node_key, labels FROM kg_nodes)
SELECT node_id, node_key, labels, coalesce(d.doi, node_key) AS node_name
FROM keys LEFT JOIN dois AS d USING (node_id);
INSERT INTO kg_snapshot_history_elements
WITH publication_values AS (
    SELECT unnest(node_ids) AS node_id, doi, year FROM publications
)
SELECT 'current', 'node', label, n.node_key, count(*),
       min(p.doi) FILTER (WHERE label = 'Publication'), min(p.year) FILTER (WHERE label = 'Publication'), min(n.node_name)
FROM (SELECT node_id, node_key, node_name, unnest(labels) AS label FROM kg_history_node_keys) AS n
LEFT JOIN publication_values AS p USING (node_id)
GROUP BY label, n.node_key;
-- Relationships keyed by type and the MD5 of their endpoints' keys (32 hex digits instead of two 36-character
-- globalIds); parallel relationships of one type between the same nodes are counted (copies).
INSERT INTO kg_snapshot_history_elements
SELECT 'current', 'relationship', r.rel_type, md5(s.node_key || '>' || e.node_key), count(*), NULL, NULL,
       min(s.node_name || ' -> ' || e.node_name)
FROM kg_relationships AS r
JOIN kg_history_node_keys AS s ON s.node_id = r.start_id
JOIN kg_history_node_keys AS e ON e.node_id = r.end_id
GROUP BY ALL;
-- Each scored edge's label with what its scoring read: the snapshot, as_of, the settings (digest), the OpenAlex record's
-- fetch time and the digests of the enrichment and judgement values recorded in the row.
INSERT INTO kg_snapshot_history_edges
SELECT 'current', r.research_area, r.dataset_id, r.publication_id, r.label, r.reliability, r.snapshot_id, r.as_of,
       sha256(CAST(r.scoring_settings AS VARCHAR)), o.fetched_at,
       md5(CAST(struct_pack(r.openalex_status, r.cited_by_count, r.field_percentile_low, r.field_percentile_high,
                            r.is_retracted, r.retraction_source, r.year_source) AS VARCHAR)),
       md5(CAST(struct_pack(r.coherence_status, r.coherence, r.coherence_judges, r.dispute_status) AS VARCHAR))
FROM edge_reliability AS r
LEFT JOIN openalex_works AS o ON o.research_area = r.research_area AND o.doi = r.publication_doi;
DROP TABLE kg_history_node_keys;
DROP TABLE kg_history_shift;
