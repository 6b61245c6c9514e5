CREATE TABLE IF NOT EXISTS question_plans (
    question_id      VARCHAR NOT NULL,
    position         INTEGER NOT NULL,
    kind             VARCHAR NOT NULL,
    text             VARCHAR NOT NULL,
    source           VARCHAR NOT NULL,
    note             VARCHAR,
    question         VARCHAR NOT NULL,
    session          VARCHAR NOT NULL,
    session_questions VARCHAR[] NOT NULL,
    decay            VARCHAR NOT NULL,
    scope_datasets   VARCHAR[],
    scope_unknown    VARCHAR[] NOT NULL,
    scope_problem    VARCHAR,
    as_of            DATE NOT NULL,
    planned_at       TIMESTAMP NOT NULL,
    PRIMARY KEY (question_id, position)
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN question_plans.question_id IS 'Partition: the question''s id (briefs/questions.yaml) or ask-<hash> for an ad-hoc question.';
COMMENT ON COLUMN question_plans.position IS 'The sub-question''s place in the plan, from 0.';
COMMENT ON COLUMN question_plans.kind IS 'foundational, recent or contested (RECON''s temporal types), or question (the fallback: the question itself).';
COMMENT ON COLUMN question_plans.text IS 'The sub-question: a search query.';
COMMENT ON COLUMN question_plans.source IS 'offline (templates and the KG''s terms of the scope''s datasets), llm, or fallback (the LLM''s answer did not validate).';
COMMENT ON COLUMN question_plans.note IS 'Why the plan fell back, when it did; else NULL.';
COMMENT ON COLUMN question_plans.question IS 'The question planned.';
COMMENT ON COLUMN question_plans.session IS 'Its session (question_sessions).';
COMMENT ON COLUMN question_plans.session_questions IS 'The earlier questions of the session the planner saw (at most 3, oldest first).';
COMMENT ON COLUMN question_plans.decay IS 'The recency decay of its retrieval score: none, linear or log.';
COMMENT ON COLUMN question_plans.scope_datasets IS 'The KG dataset ids its scope matched (questions.resolve_scope); NULL when the scope names no dataset (every dataset counts).';
COMMENT ON COLUMN question_plans.scope_unknown IS 'The scope''s entries (datasets, research areas) that match nothing in the KG.';
COMMENT ON COLUMN question_plans.scope_problem IS 'Why nothing is left to answer from (every dataset or research area unknown): the verdict is INSUFFICIENT with this reason; else NULL.';
COMMENT ON COLUMN question_plans.as_of IS 'The run''s as_of.';
COMMENT ON COLUMN question_plans.planned_at IS 'When the plan was made (UTC).';
