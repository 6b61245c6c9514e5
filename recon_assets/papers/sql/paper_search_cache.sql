-- The papers' OpenAlex search answers (citation gaps), kept apart from the briefs' openalex_search_cache: their search
-- texts are made of a manuscript's own terms, sent only with RECON_PAPERS_ONLINE=online. Same shape and rules: a query
-- asked again within the TTL is answered from here, with no request; a failed or unsent query is not cached.
CREATE TABLE IF NOT EXISTS paper_search_cache (
    query_key    VARCHAR PRIMARY KEY,
    query        VARCHAR NOT NULL,
    per_page     INTEGER NOT NULL,
    works        JSON NOT NULL,
    result_count BIGINT,
    invalid      INTEGER NOT NULL,
    asked_by     VARCHAR NOT NULL,
    fetched_at   TIMESTAMPTZ NOT NULL
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN paper_search_cache.query_key IS 'SHA-256 of the search version, the page size and the query text (openalex_search.SearchQuery.key).';
COMMENT ON COLUMN paper_search_cache.query IS 'The text sent to OpenAlex as `search=` (a paper''s top TF-IDF terms, alone or after one of its datasets'' names: papers.gaps.search_texts; sent only with RECON_PAPERS_ONLINE=online).';
COMMENT ON COLUMN paper_search_cache.per_page IS 'Works asked for (the first page of OpenAlex''s relevance order).';
COMMENT ON COLUMN paper_search_cache.works IS 'The works returned, in OpenAlex''s order, as a JSON list cut to openalex_records.CITING_FIELDS; only those meeting OpenAlexCitingWork (an invalid one is counted in invalid, not kept).';
COMMENT ON COLUMN paper_search_cache.result_count IS 'How many works OpenAlex matched in all (meta.count); NULL when it did not say.';
COMMENT ON COLUMN paper_search_cache.invalid IS 'Returned works left out because they fail their schema.';
COMMENT ON COLUMN paper_search_cache.asked_by IS 'The asset whose run sent the query (paper_citation_gaps).';
COMMENT ON COLUMN paper_search_cache.fetched_at IS 'When OpenAlex answered (UTC); the query is sent again once older than the TTL (30 days).';
