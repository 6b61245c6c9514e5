CREATE TABLE IF NOT EXISTS asked_questions (
    question_id VARCHAR NOT NULL PRIMARY KEY,
    question    VARCHAR NOT NULL,
    datasets    VARCHAR[] NOT NULL,
    asked_at    TIMESTAMP NOT NULL
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN asked_questions.question_id IS 'The ad-hoc question''s partition: ask-<12 hex digits of the SHA-256 of its question and datasets> (`recon ask`).';
COMMENT ON COLUMN asked_questions.question IS 'The question as asked (white space collapsed).';
COMMENT ON COLUMN asked_questions.datasets IS 'Its scope''s datasets (`recon ask --dataset`: DOIs or short names); empty: the whole KG.';
COMMENT ON COLUMN asked_questions.asked_at IS 'When its first run planned it (UTC); later refreshes read the question from here.';
