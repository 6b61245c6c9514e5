-- The cached vectors (text_embeddings) of the embedding model $1 for the text keys $2 (a list of text_sha256; a key
-- the cache lacks has no row). A join on the unnested keys, not list_contains: they may be the whole graph's texts.
SELECT e.text_sha256, e.vector
FROM text_embeddings AS e
JOIN (SELECT unnest($2::VARCHAR[]) AS text_sha256) AS wanted USING (text_sha256)
WHERE e.model_id = $1
