-- The graph's USES_DATASET edges as (dataset, publication) pairs, each once (several relationships may join a pair):
-- what a steward's row may name (`judgement.steward.resolve`) and the dispute evaluation's edges.
SELECT DISTINCT dataset_id, publication_id FROM dataset_publication_edges
