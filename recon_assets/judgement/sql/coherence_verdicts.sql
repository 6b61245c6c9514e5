-- The verdicts coherence_judgements holds for the research areas $1 (a list), one row per judged pair: the
-- per-partition figures of the asset's materialization.
SELECT research_area, verdict FROM coherence_judgements WHERE list_contains($1, research_area)
