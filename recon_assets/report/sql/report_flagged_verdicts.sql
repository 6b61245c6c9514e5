-- reliability_report: the (research area, dataset) verdicts among $1 (e.g. STALE, CONTRADICTED), with why, the ones
-- resting on the most evidence first; at most $2 rows (report_verdict_counts.sql counts them all).
SELECT
    research_area, dataset_short_name, dataset_version, dataset_doi, verdict, n_edges, n_reliable_edges,
    staleness_reason, contradiction_reason, reason
FROM dataset_verdicts
WHERE list_contains($1, verdict)
ORDER BY verdict, n_edges DESC, research_area, dataset_short_name, dataset_id
LIMIT $2
