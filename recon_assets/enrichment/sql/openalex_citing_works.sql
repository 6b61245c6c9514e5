CREATE TABLE IF NOT EXISTS openalex_citing_works (
    research_area          VARCHAR NOT NULL,
    cited_doi              VARCHAR NOT NULL,
    cited_kind             VARCHAR NOT NULL,
    cited_openalex_id      VARCHAR,
    status                 VARCHAR NOT NULL,
    note                   VARCHAR NOT NULL,
    citing_openalex_id     VARCHAR,
    citing_doi             VARCHAR,
    citing_title           VARCHAR,
    citing_type            VARCHAR,
    citing_year            BIGINT,
    citing_date            VARCHAR,
    citing_cited_by_count  BIGINT,
    citing_counts_by_year  JSON,
    citing_percentile_low  DOUBLE,
    citing_percentile_high DOUBLE,
    citing_is_retracted    BOOLEAN,
    citing_citation        VARCHAR,
    citing_abstract        VARCHAR,
    selections             VARCHAR[],
    fetched_at             TIMESTAMPTZ
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN openalex_citing_works.research_area IS 'Partition: research area of the cited publication, or of a publication using the cited dataset.';
COMMENT ON COLUMN openalex_citing_works.cited_doi IS 'Canonical DOI of the cited publication or dataset.';
COMMENT ON COLUMN openalex_citing_works.cited_kind IS 'publication or dataset.';
COMMENT ON COLUMN openalex_citing_works.cited_openalex_id IS 'OpenAlex id of the cited work (short, W123); NULL when OpenAlex has no work for the DOI or was not asked.';
COMMENT ON COLUMN openalex_citing_works.status IS 'fetched (one row per citing work), none (OpenAlex counts or lists no citing work), not_in_openalex (no OpenAlex work has the DOI), not_asked (see note).';
COMMENT ON COLUMN openalex_citing_works.note IS 'What was fetched (all citing works, or the most cited, most recent and comment-titled ones; a returned work failing the schema of the fields used is left out and counted in the asset''s metadata), or why nothing was: offline, budget spent (the run''s cap or the day''s budget), no OpenAlex record of the DOI yet (a mismatch or an invalid record included), an HTTP error.';
COMMENT ON COLUMN openalex_citing_works.citing_openalex_id IS 'OpenAlex id of the citing work (short); NULL on a row without citing works.';
COMMENT ON COLUMN openalex_citing_works.citing_doi IS 'Canonical DOI of the citing work, when it has one.';
COMMENT ON COLUMN openalex_citing_works.citing_title IS 'Title of the citing work (a ''Comment on ...'' or ''Reply to ...'' title is a recorded dispute, recorded_disputes).';
COMMENT ON COLUMN openalex_citing_works.citing_type IS 'OpenAlex work type of the citing work.';
COMMENT ON COLUMN openalex_citing_works.citing_year IS 'Publication year of the citing work: evidence only up to as_of''s year.';
COMMENT ON COLUMN openalex_citing_works.citing_date IS 'Publication date of the citing work (YYYY-MM-DD).';
COMMENT ON COLUMN openalex_citing_works.citing_cited_by_count IS 'Citations of the citing work counted by OpenAlex (its weight as evidence).';
COMMENT ON COLUMN openalex_citing_works.citing_counts_by_year IS 'JSON [{year, cited_by_count}] of the citing work (scores it when evidence expansion adds it to a dataset''s evidence).';
COMMENT ON COLUMN openalex_citing_works.citing_percentile_low IS 'Field-and-year citation percentile of the citing work, low end (as in openalex_works).';
COMMENT ON COLUMN openalex_citing_works.citing_percentile_high IS 'The same percentile''s high end.';
COMMENT ON COLUMN openalex_citing_works.citing_is_retracted IS 'OpenAlex is_retracted of the citing work.';
COMMENT ON COLUMN openalex_citing_works.citing_citation IS 'Short citation of the citing work, e.g. [Chen et al., 2023].';
COMMENT ON COLUMN openalex_citing_works.citing_abstract IS 'Abstract of the citing work rebuilt from OpenAlex''s abstract_inverted_index; NULL when OpenAlex has none.';
COMMENT ON COLUMN openalex_citing_works.selections IS 'Which queries returned it: all_citing, most_cited, most_recent, comment_titles.';
COMMENT ON COLUMN openalex_citing_works.fetched_at IS 'When OpenAlex answered (UTC); NULL when not fetched.';
