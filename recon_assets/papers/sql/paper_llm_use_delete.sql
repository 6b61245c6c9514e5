-- Remove the paper's ($1) paper_llm_use rows of the stages $2 (a list), so no earlier run's row passes for this one's.
DELETE FROM paper_llm_use WHERE paper_key = $1 AND list_contains($2, stage)
