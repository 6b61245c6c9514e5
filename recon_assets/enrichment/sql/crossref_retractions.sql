-- One row per (research area, DOI), built from crossref_cache: checked (notices of the last successful check,
-- checked_at) or error (never checked successfully: checked_at NULL).
CREATE TABLE IF NOT EXISTS crossref_retractions (
    research_area VARCHAR NOT NULL,
    doi           VARCHAR NOT NULL,
    status        VARCHAR NOT NULL,
    notice_dois   VARCHAR[] NOT NULL,
    error         VARCHAR,
    checked_at    TIMESTAMPTZ,
    PRIMARY KEY (research_area, doi)
);
-- Tables written before crossref_cache existed had checked_at NOT NULL.
ALTER TABLE crossref_retractions ALTER COLUMN checked_at DROP NOT NULL;

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN crossref_retractions.research_area IS 'Partition: research area of the publication.';
COMMENT ON COLUMN crossref_retractions.doi IS 'Canonical DOI of the publication.';
COMMENT ON COLUMN crossref_retractions.status IS 'checked (crossref_cache holds a successful check), or error: never checked successfully (see error; offline: not checked).';
COMMENT ON COLUMN crossref_retractions.notice_dois IS 'DOIs of Crossref retraction notices pointing at this DOI (update-to type retraction); empty when none, when it is itself a notice, or when not checked.';
COMMENT ON COLUMN crossref_retractions.error IS 'Why it is not checked: this run''s error (NULL when checked).';
COMMENT ON COLUMN crossref_retractions.checked_at IS 'When Crossref last answered for this DOI (UTC); NULL when never.';
