-- Every successful Crossref check, by canonical DOI: the retraction notices found, when it was asked, and every
-- update notice pointing at it (JSON [{notice_doi, update_type, year, title}]: corrections, errata, retractions).
-- Kept across runs and replaced only by a later successful check, so an offline run or a Crossref error
-- never loses a notice found before.
CREATE TABLE IF NOT EXISTS crossref_cache (
    doi         VARCHAR PRIMARY KEY,
    notice_dois VARCHAR[] NOT NULL,
    checked_at  TIMESTAMPTZ NOT NULL,
    updates     JSON
);
-- Tables written before update notices were kept have no `updates` column: add it (NULL on their rows, which a
-- later successful check fills), so an existing database keeps its retraction notices.
ALTER TABLE crossref_cache ADD COLUMN IF NOT EXISTS updates JSON;

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN crossref_cache.doi IS 'Canonical DOI (one row per DOI), kept across runs.';
COMMENT ON COLUMN crossref_cache.notice_dois IS 'DOIs of the Crossref retraction notices pointing at it at its last successful check.';
COMMENT ON COLUMN crossref_cache.checked_at IS 'When Crossref last answered for it (UTC); an offline run or a Crossref error leaves the row as it was.';
COMMENT ON COLUMN crossref_cache.updates IS 'JSON [{notice_doi, update_type, year, title}]: every update notice pointing at it (correction, erratum, retraction, ...), year the later of the update''s date and the notice''s publication; NULL for a check made before update notices were kept.';
