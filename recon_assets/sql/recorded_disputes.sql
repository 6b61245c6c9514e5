CREATE TABLE IF NOT EXISTS recorded_disputes (
    research_area  VARCHAR NOT NULL,
    publication_id VARCHAR NOT NULL,
    relation       VARCHAR NOT NULL,
    other_key      VARCHAR NOT NULL,
    other_doi      VARCHAR,
    other_title    VARCHAR,
    other_year     BIGINT,
    source         VARCHAR NOT NULL,
    recorded_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (research_area, publication_id, relation, other_key)
);
