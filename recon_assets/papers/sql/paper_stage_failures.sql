CREATE TABLE IF NOT EXISTS paper_stage_failures (
    paper_key VARCHAR NOT NULL,
    stage     VARCHAR NOT NULL,
    error     VARCHAR NOT NULL,
    failed_at TIMESTAMP NOT NULL,
    PRIMARY KEY (paper_key, stage)
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN paper_stage_failures.paper_key IS 'The paper (paper_documents.paper_key).';
COMMENT ON COLUMN paper_stage_failures.stage IS 'The optional stage that failed (paper_claims, paper_reports); its row is removed when the stage next succeeds.';
COMMENT ON COLUMN paper_stage_failures.error IS 'Why, in one line: the error''s type and first line.';
COMMENT ON COLUMN paper_stage_failures.failed_at IS 'When it failed (UTC).';
