-- Every Crossref record answer worth keeping, by canonical DOI: found (the record: DOI, type, title, year,
-- relation) or not_found. Kept across runs and replaced only by a later answer: errors are not cached, so an
-- offline run or a Crossref error never loses a record found before.
CREATE TABLE IF NOT EXISTS crossref_record_cache (
    doi        VARCHAR PRIMARY KEY,
    status     VARCHAR NOT NULL,
    record     JSON,
    checked_at TIMESTAMPTZ NOT NULL
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN crossref_record_cache.doi IS 'Canonical DOI (one row per DOI): a KG publication''s, or a work its Crossref comments and replies name; kept across runs.';
COMMENT ON COLUMN crossref_record_cache.status IS 'found, or not_found (Crossref answered without it); errors are not cached.';
COMMENT ON COLUMN crossref_record_cache.record IS 'JSON {DOI, type, title, year, relation}: the Crossref record''s fields recon_assets reads (relation as Crossref gives it); NULL when not_found.';
COMMENT ON COLUMN crossref_record_cache.checked_at IS 'When Crossref last answered for it (UTC); an offline run or a Crossref error leaves the row as it was.';
