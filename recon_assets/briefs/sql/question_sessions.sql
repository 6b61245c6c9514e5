CREATE TABLE IF NOT EXISTS question_sessions (
    session     VARCHAR NOT NULL,
    question_id VARCHAR NOT NULL,
    question    VARCHAR NOT NULL,
    asked_at    TIMESTAMP NOT NULL,
    PRIMARY KEY (session, question_id, asked_at)
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN question_sessions.session IS 'The session (the question file''s `session`, else the question''s id); the planner sees its last 3 questions (RECON''s prior_queries[-3:]).';
COMMENT ON COLUMN question_sessions.question_id IS 'The question planned.';
COMMENT ON COLUMN question_sessions.question IS 'Its text as planned.';
COMMENT ON COLUMN question_sessions.asked_at IS 'When it was planned (UTC); one row per planning, kept.';
