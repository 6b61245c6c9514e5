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
