-- What the paper's ($1) scores are computed from, one row: its dataset uses' superseded flags (NULL: status unknown)
-- and its claims' confidences, each in position order, its high and medium citation gaps, and its claims' verdicts in
-- position order (empty lists when a table holds no row of the paper).
SELECT coalesce((SELECT list(superseded ORDER BY position) FROM paper_datasets WHERE paper_key = $1), []) AS superseded,
       coalesce((SELECT list(confidence ORDER BY position) FROM paper_claims WHERE paper_key = $1), []) AS confidences,
       (SELECT count(*) FILTER (WHERE severity = 'high') FROM paper_citation_gaps WHERE paper_key = $1) AS high,
       (SELECT count(*) FILTER (WHERE severity = 'medium') FROM paper_citation_gaps WHERE paper_key = $1) AS medium,
       coalesce((SELECT list(verdict ORDER BY position) FROM claim_verdicts WHERE paper_key = $1), []) AS verdicts
