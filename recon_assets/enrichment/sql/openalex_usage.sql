-- OpenAlex list calls spent, per UTC day, run and asset: the ledger of the one daily budget that openalex_works and
-- openalex_citing_works draw on (OpenAlexResource.daily_list_calls). A single work by id or DOI costs nothing.
CREATE TABLE IF NOT EXISTS openalex_usage (
    day         DATE NOT NULL,
    run_id      VARCHAR NOT NULL,
    asset       VARCHAR NOT NULL,
    list_calls  BIGINT NOT NULL,
    requests    BIGINT NOT NULL,
    recorded_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (day, run_id, asset)
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN openalex_usage.day IS 'UTC day (OpenAlex''s daily budget resets at midnight UTC).';
COMMENT ON COLUMN openalex_usage.run_id IS 'Dagster run that spent them.';
COMMENT ON COLUMN openalex_usage.asset IS 'Asset that spent them (openalex_works, openalex_citing_works).';
COMMENT ON COLUMN openalex_usage.list_calls IS 'OpenAlex list calls spent: a list or filter page 1, a search page 10, a single work 0.';
COMMENT ON COLUMN openalex_usage.requests IS 'HTTP requests sent, single lookups and retries included.';
COMMENT ON COLUMN openalex_usage.recorded_at IS 'When the row was last added to (UTC).';
