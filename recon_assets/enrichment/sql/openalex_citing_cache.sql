-- The works OpenAlex lists as citing a work, by the cited work's OpenAlex id (short, 'W123'): a JSON list of
-- citing-work records (enrichment/citing_works.py citing_record, with the queries that selected each), `complete`
-- when all of them were asked for, and OpenAlex's citation count of the cited work when they were fetched.
-- An empty list is "OpenAlex has none", cached like any answer. Kept across runs; refreshed after the TTL.
CREATE TABLE IF NOT EXISTS openalex_citing_cache (
    openalex_id    VARCHAR PRIMARY KEY,
    cited_by_count BIGINT NOT NULL,
    works          JSON NOT NULL,
    complete       BOOLEAN NOT NULL,
    fetched_at     TIMESTAMPTZ NOT NULL
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN openalex_citing_cache.openalex_id IS 'OpenAlex id of the cited work (short, W123); one row per work, kept across runs.';
COMMENT ON COLUMN openalex_citing_cache.cited_by_count IS 'OpenAlex''s citation count of the cited work when its citing works were fetched.';
COMMENT ON COLUMN openalex_citing_cache.works IS 'JSON list of the citing works kept (id, DOI, title, type, year, date, cited_by_count, counts_by_year, percentile bounds, is_retracted, citation tag, abstract, selections); [] when OpenAlex has none.';
COMMENT ON COLUMN openalex_citing_cache.complete IS 'All its citing works were asked for (cited at most per_work times, or not at all); false: the most cited, most recent and comment-titled ones only.';
COMMENT ON COLUMN openalex_citing_cache.fetched_at IS 'When OpenAlex answered (UTC); asked again after the TTL, shortened by up to refresh_spread of it per work so refreshes spread out.';
