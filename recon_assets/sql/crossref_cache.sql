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
