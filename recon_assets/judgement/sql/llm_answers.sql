-- Groq's answers to prompts other than the coherence judge's pairs (those are in llm_judgements), kept across runs:
-- one row per (purpose, messages sent, model, prompt version), so the same text is not asked again. Only answers
-- that validated are stored; failed and unsent requests are not.
CREATE TABLE IF NOT EXISTS llm_answers (
    purpose           VARCHAR NOT NULL,
    input_sha256      VARCHAR NOT NULL,
    model             VARCHAR NOT NULL,
    prompt_version    VARCHAR NOT NULL,
    content           VARCHAR NOT NULL,
    request_id        VARCHAR,
    prompt_tokens     INTEGER,
    completion_tokens INTEGER,
    latency_ms        DOUBLE,
    answered_at       TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (purpose, input_sha256, model, prompt_version)
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN llm_answers.purpose IS 'What asked: paper_claims (a chunk of a paper''s text), paper_argumentation, brief_planner (a research question''s sub-questions) or brief_synthesizer (its brief).';
COMMENT ON COLUMN llm_answers.input_sha256 IS 'SHA-256 of the messages sent (system and user): another text or prompt is asked again.';
COMMENT ON COLUMN llm_answers.model IS 'Groq model that answered (the fallback model after a decommissioned one).';
COMMENT ON COLUMN llm_answers.prompt_version IS 'Prompt and answer-schema version of the purpose; a new version finds none of these rows.';
COMMENT ON COLUMN llm_answers.content IS 'The model''s answer as received (JSON text, redacted), which validated when stored.';
COMMENT ON COLUMN llm_answers.request_id IS 'Groq''s completion id (chatcmpl-...) of the answering request.';
COMMENT ON COLUMN llm_answers.prompt_tokens IS 'Prompt tokens of that request (Groq usage).';
COMMENT ON COLUMN llm_answers.completion_tokens IS 'Completion tokens of that request.';
COMMENT ON COLUMN llm_answers.latency_ms IS 'Wall time of that request''s answered attempt, in milliseconds.';
COMMENT ON COLUMN llm_answers.answered_at IS 'When the answer was received (UTC); the daily budget counts the requests of a UTC day.';
