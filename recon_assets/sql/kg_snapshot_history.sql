-- What kg_snapshot_diff keeps of two KG snapshots and their scorings (role 'current': the snapshot in kg_nodes as
-- recorded by the diff's last run; 'previous': the last such record of the snapshot before it). Only keys and the
-- values the diff compares are kept, never properties or scores: see README "Keeping fresh" for the sizes.
CREATE TABLE IF NOT EXISTS kg_snapshot_history (
    role        VARCHAR PRIMARY KEY,
    snapshot_id VARCHAR NOT NULL,
    recorded_at TIMESTAMPTZ NOT NULL
);
CREATE TABLE IF NOT EXISTS kg_snapshot_history_elements (
    role         VARCHAR NOT NULL,
    element      VARCHAR NOT NULL,
    element_type VARCHAR NOT NULL,
    element_key  VARCHAR NOT NULL,
    copies       BIGINT NOT NULL,
    doi          VARCHAR,
    year         INTEGER
);
CREATE TABLE IF NOT EXISTS kg_snapshot_history_edges (
    role                VARCHAR NOT NULL,
    research_area       VARCHAR NOT NULL,
    dataset_id          VARCHAR NOT NULL,
    publication_id      VARCHAR NOT NULL,
    label               VARCHAR NOT NULL,
    reliability         DOUBLE NOT NULL,
    snapshot_id         VARCHAR NOT NULL,
    as_of               DATE NOT NULL,
    settings_digest     VARCHAR NOT NULL,
    openalex_fetched_at TIMESTAMPTZ,
    enrichment_digest   VARCHAR NOT NULL,
    judgement_digest    VARCHAR NOT NULL
);
