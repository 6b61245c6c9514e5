-- reliability_report: the (research area, dataset) verdicts among $1 (e.g. STALE, CONTRADICTED), with why, the ones
-- resting on the most evidence first; at most $2 rows (report_verdict_counts.sql counts them all). reliable_bar is the
-- reliability from which the verdict rules counted an edge in n_reliable_edges.
SELECT
    research_area, dataset_short_name, dataset_version, dataset_doi, verdict, n_edges, n_reliable_edges,
    CAST(json_extract(verdict_rules, '$.reliable') AS DOUBLE) AS reliable_bar, staleness_reason, contradiction_reason, reason
FROM dataset_verdicts
WHERE list_contains($1, verdict)
ORDER BY verdict, n_edges DESC, research_area, dataset_short_name, dataset_id
LIMIT $2
