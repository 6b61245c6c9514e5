-- The graph's datasets a steward's row is matched to (`judgement.steward.resolve`): id and DOI.
SELECT dataset_id, doi FROM datasets
