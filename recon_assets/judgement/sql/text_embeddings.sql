CREATE TABLE IF NOT EXISTS text_embeddings (
    model_id    VARCHAR NOT NULL,
    text_sha256 VARCHAR NOT NULL,
    vector      FLOAT[256] NOT NULL,
    PRIMARY KEY (model_id, text_sha256)
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN text_embeddings.model_id IS 'Embedding model (wordllama version, weights and dimension) that computed the vector.';
COMMENT ON COLUMN text_embeddings.text_sha256 IS 'SHA-256 of the embedded text (title. abstract, cut to its first 10,000 characters as the model sees it) in UTF-8.';
COMMENT ON COLUMN text_embeddings.vector IS 'The L2-normalised embedding (256 float32); only new or changed texts are embedded.';
