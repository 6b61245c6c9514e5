-- The lifecycle (dataset_lineage) of the datasets $1 (a list of dataset ids) a paper uses, with current_version: the
-- version that ends each one's successor chain within its family (MYD11A1 V005 -> V006 -> V061: V061), which the
-- lifecycle line names when the successor has itself been replaced ("replaced by MYD11A1 V006 (now V061)").
WITH RECURSIVE chain(start_id, dataset_id, family, depth) AS (
    SELECT dataset_id, dataset_id, family, 0 FROM dataset_lineage WHERE list_contains($1, dataset_id)
    UNION ALL
    SELECT chain.start_id, lineage.successor_dataset_id, chain.family, chain.depth + 1
    FROM chain JOIN dataset_lineage AS lineage ON lineage.dataset_id = chain.dataset_id
    WHERE lineage.successor_dataset_id IS NOT NULL AND lineage.successor_family = chain.family
      AND chain.depth < 100  -- a successor cycle (never made by `lifecycle.versions.successors`) cannot loop
),
chain_end AS (SELECT start_id, arg_max(dataset_id, depth) AS end_id FROM chain GROUP BY start_id)
SELECT used.dataset_id, used.superseded, used.successor_family, used.successor_version, used.superseded_since,
       used.succession_basis, latest.version_text AS current_version
FROM dataset_lineage AS used
JOIN chain_end ON chain_end.start_id = used.dataset_id
LEFT JOIN dataset_lineage AS latest ON latest.dataset_id = chain_end.end_id
