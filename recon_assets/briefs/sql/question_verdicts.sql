CREATE TABLE IF NOT EXISTS question_verdicts (
    question_id      VARCHAR NOT NULL PRIMARY KEY,
    question         VARCHAR NOT NULL,
    verdict          VARCHAR NOT NULL,
    unresolved       VARCHAR,
    age_rule_verdict VARCHAR NOT NULL,
    rounds           INTEGER NOT NULL,
    papers           INTEGER NOT NULL,
    assessed         INTEGER NOT NULL,
    stale            INTEGER NOT NULL,
    staleness        VARCHAR NOT NULL,
    contradiction    VARCHAR NOT NULL,
    sufficiency      VARCHAR NOT NULL,
    age_rule         VARCHAR NOT NULL,
    reason           VARCHAR NOT NULL,
    judged_at        TIMESTAMP NOT NULL,
    as_of            DATE NOT NULL
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN question_verdicts.question_id IS 'Partition: the question.';
COMMENT ON COLUMN question_verdicts.question IS 'Its text.';
COMMENT ON COLUMN question_verdicts.verdict IS 'The last round''s verdict (question_verdict_log): PASS, STALE, CONTRADICTED, INSUFFICIENT or FORCED_PASS.';
COMMENT ON COLUMN question_verdicts.unresolved IS 'The verdict a FORCED_PASS stands in for; else NULL.';
COMMENT ON COLUMN question_verdicts.age_rule_verdict IS 'The last round''s verdict with RECON''s age rule as the staleness check.';
COMMENT ON COLUMN question_verdicts.rounds IS 'Rewrite rounds run (0 to 2).';
COMMENT ON COLUMN question_verdicts.papers IS 'Papers in the final evidence.';
COMMENT ON COLUMN question_verdicts.assessed IS 'Of them, assessed by the edge scores (an edge to the question''s datasets that is not UNVERIFIED).';
COMMENT ON COLUMN question_verdicts.stale IS 'Of them, stale (every assessed edge flagged or on a replaced dataset version).';
COMMENT ON COLUMN question_verdicts.staleness IS 'The staleness check''s finding (by hybrid weight).';
COMMENT ON COLUMN question_verdicts.contradiction IS 'The contradiction check''s finding (judged contradictions 2+ years apart, recorded comments).';
COMMENT ON COLUMN question_verdicts.sufficiency IS 'The sufficiency check''s finding (3 papers, 3 with hybrid >= 0.40).';
COMMENT ON COLUMN question_verdicts.age_rule IS 'RECON''s age rule''s finding (mean age over 24 months).';
COMMENT ON COLUMN question_verdicts.reason IS 'The verdict and every check''s finding, in one line.';
COMMENT ON COLUMN question_verdicts.judged_at IS 'When it was judged (UTC; question_verdict_log.judged_at).';
COMMENT ON COLUMN question_verdicts.as_of IS 'The run''s as_of.';
