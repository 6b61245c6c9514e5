-- The judged pairs (temp table judge_pair_candidates: judge_pairs.sql's rows, in their order) that hold a stored LLM
-- answer (llm_judgements, whatever its model or prompt version), in the same order: offline, only these can be
-- answered.
SELECT c.*
FROM judge_pair_candidates AS c
WHERE EXISTS (
    SELECT 1
    FROM llm_judgements AS j
    WHERE j.dataset_id = c.dataset_id AND j.older_publication_id = c.older_publication_id
      AND j.newer_publication_id = c.newer_publication_id
)
ORDER BY c.rowid
