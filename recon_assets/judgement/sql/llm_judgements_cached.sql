-- Stored LLM answers for the candidate pairs in the temporary table llm_candidate_keys (a pair listed more than once
-- read once), for the models in the list parameter $1 and the prompt version $2.
SELECT j.*
FROM llm_judgements AS j
JOIN (SELECT DISTINCT dataset_id, older_publication_id, newer_publication_id FROM llm_candidate_keys) AS k
    USING (dataset_id, older_publication_id, newer_publication_id)
WHERE list_contains($1, j.model) AND j.prompt_version = $2
