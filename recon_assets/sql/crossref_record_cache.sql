-- Every Crossref record answer worth keeping, by canonical DOI: found (the record: DOI, type, title, year,
-- relation) or not_found. Kept across runs and replaced only by a later answer: errors are not cached, so an
-- offline run or a Crossref error never loses a record found before.
CREATE TABLE IF NOT EXISTS crossref_record_cache (
    doi        VARCHAR PRIMARY KEY,
    status     VARCHAR NOT NULL,
    record     JSON,
    checked_at TIMESTAMPTZ NOT NULL
);
