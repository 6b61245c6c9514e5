-- The year the KG snapshot $1 was ingested (kg_snapshots): the latest publication year a Publication node may give is
-- the next one.
SELECT year(ingested_at) FROM kg_snapshots WHERE snapshot_id = $1
