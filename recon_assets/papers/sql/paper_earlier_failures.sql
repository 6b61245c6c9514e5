-- The paper's ($1) failed stages as its report shows them: every stage but the report's own ($2; its failure in an
-- earlier run is not this report's news), by stage.
SELECT * FROM paper_stage_failures WHERE paper_key = $1 AND stage <> $2 ORDER BY stage
