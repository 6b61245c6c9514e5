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
