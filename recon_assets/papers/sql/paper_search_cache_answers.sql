-- The papers' cached OpenAlex search answers to the query keys of the list $1: (query_key, works JSON, invalid,
-- fetched_at), from paper_search_cache (one row per query key).
SELECT query_key, works, invalid, fetched_at FROM paper_search_cache WHERE list_contains($1, query_key)
