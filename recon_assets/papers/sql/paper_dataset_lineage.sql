-- The lifecycle (dataset_lineage) of the datasets $1 (a list of dataset ids) a paper uses, with current_version: the
-- version that ends each one's successor chain within its family (MYD11A1 V005 -> V006 -> V061: V061), which the
-- lifecycle line names when the successor has itself been replaced ("replaced by MYD11A1 V006 (now V061)").
SELECT dataset_id, superseded, successor_family, successor_version, superseded_since, succession_basis, current_version
FROM dataset_lineage
WHERE list_contains($1, dataset_id)
