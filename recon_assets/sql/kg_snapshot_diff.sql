CREATE OR REPLACE TABLE kg_snapshot_diff (
    previous_snapshot_id VARCHAR NOT NULL,
    current_snapshot_id  VARCHAR NOT NULL,
    change               VARCHAR NOT NULL,
    element_type         VARCHAR NOT NULL,
    elements             BIGINT NOT NULL,
    element_key          VARCHAR,
    research_area        VARCHAR,
    dataset_id           VARCHAR,
    publication_id       VARCHAR,
    before               VARCHAR,
    after                VARCHAR,
    causes               VARCHAR[] NOT NULL,
    reason               VARCHAR NOT NULL
);
