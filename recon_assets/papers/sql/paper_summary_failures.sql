-- `recon paper`'s summary: the optional stages that failed for paper $1, and why.
SELECT stage, error FROM paper_stage_failures WHERE paper_key = $1 ORDER BY stage
