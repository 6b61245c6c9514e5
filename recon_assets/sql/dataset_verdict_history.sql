CREATE TABLE IF NOT EXISTS dataset_verdict_history (
    research_area    VARCHAR NOT NULL,
    dataset_id       VARCHAR NOT NULL,
    verdict          VARCHAR NOT NULL,
    previous_verdict VARCHAR,
    changed_at       TIMESTAMPTZ NOT NULL,
    as_of            DATE NOT NULL,
    snapshot_id      VARCHAR NOT NULL,
    PRIMARY KEY (research_area, dataset_id, changed_at)
);
