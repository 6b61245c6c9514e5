-- The paper's ($1) stage $2 completed: its failure row goes.
DELETE FROM paper_stage_failures WHERE paper_key = $1 AND stage = $2
