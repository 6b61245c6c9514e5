-- The graph's publications a steward's row is matched to (`judgement.steward.resolve`): id and DOI.
SELECT publication_id, doi FROM publications
