-- The matched datasets of the paper $1 (last named first) as `papers.gaps.UsedDataset`s: id, name with version, and
-- for a replaced version its successor's id and name (dataset_lineage).
SELECT d.dataset_id,
       concat_ws(' ', d.name, d.version),
       l.successor_dataset_id,
       nullif(concat_ws(' ', l.successor_family, l.successor_version), '')
FROM paper_datasets AS d
LEFT JOIN dataset_lineage AS l ON l.dataset_id = d.dataset_id AND l.superseded
WHERE d.paper_key = $1 AND d.matched
ORDER BY d.position DESC
