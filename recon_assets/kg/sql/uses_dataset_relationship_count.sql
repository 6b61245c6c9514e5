-- How many USES_DATASET relationships the KG holds (before they are grouped into dataset_publication_edges).
SELECT count(*) FROM kg_relationships WHERE rel_type = 'USES_DATASET'
