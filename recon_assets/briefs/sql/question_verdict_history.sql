CREATE TABLE IF NOT EXISTS question_verdict_history (
    question_id      VARCHAR NOT NULL,
    refreshed_at     TIMESTAMP NOT NULL,
    as_of            DATE NOT NULL,
    verdict          VARCHAR NOT NULL,
    previous_verdict VARCHAR,
    cited_labels     VARCHAR[] NOT NULL,
    changes          VARCHAR[] NOT NULL,
    PRIMARY KEY (question_id, refreshed_at)
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN question_verdict_history.question_id IS 'The question.';
COMMENT ON COLUMN question_verdict_history.refreshed_at IS 'When the brief was refreshed (UTC); one row per refresh.';
COMMENT ON COLUMN question_verdict_history.as_of IS 'The as_of of that refresh.';
COMMENT ON COLUMN question_verdict_history.verdict IS 'The verdict of that refresh.';
COMMENT ON COLUMN question_verdict_history.previous_verdict IS 'The verdict of the refresh before it; NULL for the first.';
COMMENT ON COLUMN question_verdict_history.cited_labels IS 'Each cited paper as ''[Author et al., Year]: TRUST (dataset LABEL reliability)'', sorted.';
COMMENT ON COLUMN question_verdict_history.changes IS 'What changed since the refresh before, and why: the verdict (with the new reason), a cited paper''s label, a paper cited or no longer cited. Empty when nothing changed.';
