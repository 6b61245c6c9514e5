-- The LLM's argumentation score of the paper $1 and the model that gave it (paper_llm_use, stage argumentation; no row
-- when none was given).
SELECT value, model FROM paper_llm_use WHERE paper_key = $1 AND stage = 'argumentation' AND value IS NOT NULL
