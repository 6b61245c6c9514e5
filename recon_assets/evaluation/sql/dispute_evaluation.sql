CREATE OR REPLACE TABLE dispute_evaluation (
    measure     VARCHAR NOT NULL PRIMARY KEY,
    what        VARCHAR NOT NULL,
    value       DOUBLE,
    numerator   BIGINT,
    denominator BIGINT,
    ci_low      DOUBLE,
    ci_high     DOUBLE,
    target      VARCHAR,
    met         BOOLEAN,
    as_of       DATE NOT NULL,
    evaluated_at TIMESTAMPTZ NOT NULL
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN dispute_evaluation.measure IS 'What is measured (evaluation/pairs.py PAIR_MEASURES): pipeline_* through the run''s tables, content_* and metadata_* on the pairs'' own texts, llm_judge not measured.';
COMMENT ON COLUMN dispute_evaluation.what IS 'The measure in words.';
COMMENT ON COLUMN dispute_evaluation.value IS 'numerator / denominator; NULL when there is nothing to measure (0 pairs) or not measured.';
COMMENT ON COLUMN dispute_evaluation.numerator IS 'Pairs counted.';
COMMENT ON COLUMN dispute_evaluation.denominator IS 'Pairs it is counted over.';
COMMENT ON COLUMN dispute_evaluation.ci_low IS '95 % Wilson interval, low end.';
COMMENT ON COLUMN dispute_evaluation.ci_high IS '95 % Wilson interval, high end.';
COMMENT ON COLUMN dispute_evaluation.target IS 'The issue''s target for this measure, when it has one (>= 50 % of in-scope disputes caught by the pipeline, <= 10 % of controls called CONTRADICTED, every in-scope pair judged).';
COMMENT ON COLUMN dispute_evaluation.met IS 'Whether the target is met; NULL when not measured or without a target.';
COMMENT ON COLUMN dispute_evaluation.as_of IS 'The as_of of the run.';
COMMENT ON COLUMN dispute_evaluation.evaluated_at IS 'When it was measured (UTC).';
