-- Every OpenAlex answer worth keeping, by canonical DOI: the work (the `select`ed fields) or not_found.
-- Kept across runs: a refresh requests only DOIs missing here or fetched longer than the TTL ago.
-- Errors are not cached, so they are retried on the next run.
CREATE TABLE IF NOT EXISTS openalex_cache (
    doi        VARCHAR PRIMARY KEY,
    status     VARCHAR NOT NULL,
    work       JSON,
    fetched_at TIMESTAMPTZ NOT NULL
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN openalex_cache.doi IS 'Canonical DOI (one row per DOI): a publication''s (openalex_works) or a dataset''s (openalex_citing_works looks it up to find the works citing it).';
COMMENT ON COLUMN openalex_cache.status IS 'found, or not_found (the batch did not return it and its single lookup answered 404); errors and mismatches are never cached.';
COMMENT ON COLUMN openalex_cache.work IS 'The OpenAlex work as JSON, cut to the selected fields, cached only once it meets the schema of the fields used (openalex_records.OpenAlexWork; a row that no longer does is dropped and asked again); NULL when not_found.';
COMMENT ON COLUMN openalex_cache.fetched_at IS 'When OpenAlex answered (UTC); a refresh requests the DOI again once older than the TTL (30 days).';
