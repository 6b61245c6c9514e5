CREATE TABLE IF NOT EXISTS coherence_judgement_runs (
    research_area VARCHAR PRIMARY KEY,
    settings      VARCHAR NOT NULL,
    inputs_md5    VARCHAR NOT NULL,
    pool_edges    BIGINT NOT NULL,
    pairs         BIGINT NOT NULL,
    judged_at     TIMESTAMPTZ NOT NULL
);
