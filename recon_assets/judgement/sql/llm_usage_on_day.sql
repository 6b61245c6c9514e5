-- Requests and tokens the stored LLM answers of model $1 spent on the UTC day $2: the coherence judge's
-- (llm_judgements: one row per pair, its request's tokens shared by the pairs it answered, so counted once per
-- request_id) and the other prompts' (llm_answers: one row per request).
SELECT count(*) AS requests, coalesce(sum(tokens), 0) AS tokens
FROM (
    SELECT request_id, max(coalesce(prompt_tokens, 0) + coalesce(completion_tokens, 0)) AS tokens
    FROM llm_judgements
    WHERE model = $1 AND request_id IS NOT NULL AND CAST(timezone('UTC', judged_at) AS DATE) = $2
    GROUP BY request_id
    UNION ALL
    SELECT request_id, coalesce(prompt_tokens, 0) + coalesce(completion_tokens, 0) AS tokens
    FROM llm_answers
    WHERE model = $1 AND request_id IS NOT NULL AND CAST(timezone('UTC', answered_at) AS DATE) = $2
)
