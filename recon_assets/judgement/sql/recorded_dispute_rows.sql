-- The rows of recorded_disputes for the research areas $1: each dispute or correction found (temp table
-- found_disputes: merge_recorded_disputes' rows) once for every one of these areas its publication is in, recorded
-- at $2.
SELECT a.research_area, d.*, $2::TIMESTAMPTZ AS recorded_at
FROM found_disputes AS d
JOIN publication_research_areas AS a USING (publication_id)
WHERE list_contains($1, a.research_area)
ORDER BY a.research_area, d.publication_id, d.relation, d.other_key
