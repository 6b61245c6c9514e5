-- OpenAlex list calls every run spent on the UTC day $1, per asset (asset, list_calls), from the daily budget's
-- ledger openalex_usage.
SELECT asset, sum(list_calls)::BIGINT FROM openalex_usage WHERE day = $1 GROUP BY asset ORDER BY asset
