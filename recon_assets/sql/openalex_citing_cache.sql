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
