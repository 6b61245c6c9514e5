CREATE OR REPLACE TABLE publication_citations (
    citing_publication_id VARCHAR NOT NULL,
    cited_publication_id  VARCHAR NOT NULL,
    relationship_ids      VARCHAR[] NOT NULL,
    PRIMARY KEY (citing_publication_id, cited_publication_id)
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN publication_citations.citing_publication_id IS 'The citing publication.';
COMMENT ON COLUMN publication_citations.cited_publication_id IS 'The cited publication.';
COMMENT ON COLUMN publication_citations.relationship_ids IS 'CITES relationship ids behind this pair.';
