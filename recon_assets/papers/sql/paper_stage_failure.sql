-- The error paper_stage_failures records for the paper $1's stage $2 (no row: the stage did not fail).
SELECT error FROM paper_stage_failures WHERE paper_key = $1 AND stage = $2
