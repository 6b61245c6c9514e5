-- The stored llm_answers row of purpose $1, messages' SHA-256 $2 and prompt version $3, of the first model of the
-- list $4 that has one (judgement/llm_cache.py ANSWER_COLUMNS, in order); no row when none has.
SELECT purpose, input_sha256, model, prompt_version, content, request_id, prompt_tokens, completion_tokens, latency_ms,
       answered_at
FROM llm_answers
WHERE purpose = $1 AND input_sha256 = $2 AND prompt_version = $3 AND list_contains($4, model)
ORDER BY list_position($4, model)
LIMIT 1
