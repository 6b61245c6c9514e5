-- The lifecycle (dataset_lineage) of the datasets $1 (a list of dataset ids) a paper uses.
SELECT dataset_id, superseded, successor_family, successor_version, superseded_since, succession_basis
FROM dataset_lineage
WHERE list_contains($1, dataset_id)
