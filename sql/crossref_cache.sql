-- Every successful Crossref check, by canonical DOI: the retraction notices found and when it was asked.
-- Kept across runs and replaced only by a later successful check, so an offline run or a Crossref error
-- never loses a notice found before.
CREATE TABLE IF NOT EXISTS crossref_cache (
    doi         VARCHAR PRIMARY KEY,
    notice_dois VARCHAR[] NOT NULL,
    checked_at  TIMESTAMPTZ NOT NULL
);
