CREATE TABLE IF NOT EXISTS text_embeddings (
    model_id    VARCHAR NOT NULL,
    text_sha256 VARCHAR NOT NULL,
    vector      FLOAT[256] NOT NULL,
    PRIMARY KEY (model_id, text_sha256)
);
