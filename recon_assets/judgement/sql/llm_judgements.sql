-- Answers of the Groq LLM judge, kept across runs: a pair is asked again only for another model, another
-- prompt version, or changed texts (input_sha256). Failed and unsent pairs are not stored.
CREATE TABLE IF NOT EXISTS llm_judgements (
    older_publication_id VARCHAR NOT NULL,
    newer_publication_id VARCHAR NOT NULL,
    dataset_id           VARCHAR NOT NULL,
    model                VARCHAR NOT NULL,
    prompt_version       VARCHAR NOT NULL,
    input_sha256         VARCHAR NOT NULL,
    judge                VARCHAR NOT NULL,
    verdict              VARCHAR NOT NULL,
    coherence            DOUBLE NOT NULL,
    rationale            VARCHAR NOT NULL,
    evidence             VARCHAR[] NOT NULL,
    request_id           VARCHAR,
    pairs_in_request     INTEGER,
    prompt_tokens        INTEGER,
    completion_tokens    INTEGER,
    latency_ms           DOUBLE,
    judged_at            TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (older_publication_id, newer_publication_id, dataset_id, model, prompt_version)
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN llm_judgements.older_publication_id IS 'The older publication p (canonical DOI, or kg:<id> without one).';
COMMENT ON COLUMN llm_judgements.newer_publication_id IS 'The newer publication q.';
COMMENT ON COLUMN llm_judgements.dataset_id IS 'The dataset d both use.';
COMMENT ON COLUMN llm_judgements.model IS 'Groq model that answered (the fallback model after a decommissioned one).';
COMMENT ON COLUMN llm_judgements.prompt_version IS 'Prompt and answer-schema version (llm_prompt.PROMPT_VERSION); a new version finds none of these rows.';
COMMENT ON COLUMN llm_judgements.input_sha256 IS 'SHA-256 of the texts sent for the pair with the prompt version: changed texts are asked again.';
COMMENT ON COLUMN llm_judgements.judge IS 'groq/<model>.';
COMMENT ON COLUMN llm_judgements.verdict IS 'SUPPORTED, CONTRADICTED, SUPERSEDED or UNVERIFIED.';
COMMENT ON COLUMN llm_judgements.coherence IS '1.0 consensus, 0.7 refined, 0.5 debated (CONTRADICTED) or unverified, 0.3 superseded, 0.1 contradicted.';
COMMENT ON COLUMN llm_judgements.rationale IS 'The model''s one sentence (notes a salvaged answer).';
COMMENT ON COLUMN llm_judgements.evidence IS 'Passages the model quoted, each found in the pair''s texts as sent.';
COMMENT ON COLUMN llm_judgements.request_id IS 'Groq''s completion id (chatcmpl-...) of the answering request; NULL when read from a failed_generation.';
COMMENT ON COLUMN llm_judgements.pairs_in_request IS 'Pairs that request held: its tokens and latency are shared among them.';
COMMENT ON COLUMN llm_judgements.prompt_tokens IS 'Prompt tokens of that request (Groq usage).';
COMMENT ON COLUMN llm_judgements.completion_tokens IS 'Completion tokens of that request.';
COMMENT ON COLUMN llm_judgements.latency_ms IS 'Wall time of that request''s answered attempt, in milliseconds.';
COMMENT ON COLUMN llm_judgements.judged_at IS 'When the answer was received (UTC); the daily budget counts the requests of a UTC day.';
