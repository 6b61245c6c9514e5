-- Every OpenAlex answer worth keeping, by canonical DOI: the work (the `select`ed fields) or not_found.
-- Kept across runs: a refresh requests only DOIs missing here or fetched longer than the TTL ago.
-- Errors are not cached, so they are retried on the next run.
CREATE TABLE IF NOT EXISTS openalex_cache (
    doi        VARCHAR PRIMARY KEY,
    status     VARCHAR NOT NULL,
    work       JSON,
    fetched_at TIMESTAMPTZ NOT NULL
);
