-- Add what asset $3 spent in run $2 on the UTC day $1 (list calls $4, requests $5, recorded at $6) to the ledger
-- openalex_usage: a retried step adds to its run's row.
INSERT INTO openalex_usage VALUES ($1, $2, $3, $4, $5, $6)
ON CONFLICT (day, run_id, asset) DO UPDATE SET
    list_calls = openalex_usage.list_calls + excluded.list_calls,
    requests = openalex_usage.requests + excluded.requests,
    recorded_at = excluded.recorded_at
