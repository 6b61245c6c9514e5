-- The latest history row of every (research_area, dataset_id) of the research areas $1: its verdict now,
-- the verdict before it and when it changed.
SELECT research_area, dataset_id, verdict, previous_verdict, changed_at
FROM dataset_verdict_history
WHERE list_contains($1, research_area)
QUALIFY row_number() OVER (PARTITION BY research_area, dataset_id ORDER BY changed_at DESC) = 1
