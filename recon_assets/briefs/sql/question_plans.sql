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
    llm_model        VARCHAR,
    llm_requests     INTEGER NOT NULL,
    llm_tokens       INTEGER NOT NULL,
    PRIMARY KEY (question_id, position)
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN question_plans.question_id IS 'Partition: the question''s id (briefs/questions.yaml) or ask-<hash> for an ad-hoc question.';
COMMENT ON COLUMN question_plans.position IS 'The sub-question''s place in the plan, from 0.';
COMMENT ON COLUMN question_plans.kind IS 'foundational, recent or contested (RECON''s temporal types), or question (the fallback: the question itself).';
COMMENT ON COLUMN question_plans.text IS 'The sub-question: a search query.';
COMMENT ON COLUMN question_plans.source IS 'offline (templates and the KG''s terms of the scope''s datasets; online too when the LLM planner was not asked), llm (the Groq planner''s answer, validated), or fallback (the question itself: the LLM''s answer did not validate, left the question''s topic, or its request failed).';
COMMENT ON COLUMN question_plans.note IS 'Why the plan fell back, or why the LLM planner was not asked online, and the wording addressing a model removed from the question; else NULL.';
COMMENT ON COLUMN question_plans.question IS 'The question planned: as asked, without wording that addresses a model (judge_address; note says what was removed).';
COMMENT ON COLUMN question_plans.session IS 'Its session (question_sessions).';
COMMENT ON COLUMN question_plans.session_questions IS 'The earlier questions of the session the planner saw (at most 3, oldest first), without wording that addresses a model.';
COMMENT ON COLUMN question_plans.decay IS 'The recency decay of its retrieval score: none, linear or log.';
COMMENT ON COLUMN question_plans.scope_datasets IS 'The KG dataset ids its scope matched (questions.resolve_scope); NULL when the scope names no dataset (every dataset counts).';
COMMENT ON COLUMN question_plans.scope_unknown IS 'The scope''s entries (datasets, research areas) that match nothing in the KG.';
COMMENT ON COLUMN question_plans.scope_problem IS 'Why nothing is left to answer from (every dataset or research area unknown): the verdict is INSUFFICIENT with this reason; else NULL.';
COMMENT ON COLUMN question_plans.as_of IS 'The run''s as_of.';
COMMENT ON COLUMN question_plans.planned_at IS 'When the plan was made (UTC).';
COMMENT ON COLUMN question_plans.llm_model IS 'The Groq model whose plan answer was used or rejected (the same on each row of the plan); NULL offline or when no answer came.';
COMMENT ON COLUMN question_plans.llm_requests IS 'HTTP requests the LLM planner made for this plan (retries count; the same on each row): 0 offline, when not asked, or when its answer came from llm_answers.';
COMMENT ON COLUMN question_plans.llm_tokens IS 'Tokens (prompt + completion, Groq''s usage) of the planner''s answering request (the same on each row); 0 without one.';
