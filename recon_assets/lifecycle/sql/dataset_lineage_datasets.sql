-- The datasets whose lineage dataset_lineage builds (lifecycle/lineage.py dataset_lineage), one row per dataset in
-- dataset_id order: (dataset_id, short_name, long_name, doi, cmr_id).
SELECT dataset_id, short_name, long_name, doi, cmr_id FROM datasets ORDER BY dataset_id
