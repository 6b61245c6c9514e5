-- What kg_snapshot_diff keeps of two KG snapshots and their scorings (role 'current': the snapshot in kg_nodes as
-- recorded by the diff's last run; 'previous': the last such record of the snapshot before it). Only keys and the
-- values the diff compares are kept, never properties or scores: see docs/OPERATIONS.md "Keeping fresh" for the sizes.
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
    year         INTEGER,
    name         VARCHAR
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

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN kg_snapshot_history.role IS 'current (the snapshot in kg_nodes, as recorded by kg_snapshot_diff''s last run, with its scoring) or previous (the last record of the snapshot before it).';
COMMENT ON COLUMN kg_snapshot_history.snapshot_id IS 'The recorded snapshot (kg_snapshots.snapshot_id).';
COMMENT ON COLUMN kg_snapshot_history.recorded_at IS 'When this record was written (UTC); a record of the current snapshot is rewritten at each run of kg_snapshot_diff.';
COMMENT ON COLUMN kg_snapshot_history_elements.role IS 'current or previous, as in kg_snapshot_history.';
COMMENT ON COLUMN kg_snapshot_history_elements.element IS 'node or relationship.';
COMMENT ON COLUMN kg_snapshot_history_elements.element_type IS 'The node''s label (a node with several labels has a row per label) or the relationship''s type.';
COMMENT ON COLUMN kg_snapshot_history_elements.element_key IS 'Node: its globalId (the export''s node ids are renumbered by a Neo4j re-import; the node id when it has none). Relationship: MD5 (32 hex digits) of its start and end node keys joined by ''>''.';
COMMENT ON COLUMN kg_snapshot_history_elements.copies IS 'How many nodes or relationships share this key and type (parallel relationships).';
COMMENT ON COLUMN kg_snapshot_history_elements.doi IS 'Publication nodes: the DOI of the publication they were merged into (publications.doi); NULL otherwise.';
COMMENT ON COLUMN kg_snapshot_history_elements.year IS 'Publication nodes: the year of the publication they were merged into (publications.year); NULL otherwise.';
COMMENT ON COLUMN kg_snapshot_history_elements.name IS 'How kg_snapshot_diff names the element it adds or removes: a node by its DOI (the publication''s or dataset''s it was merged into, normalised), else its key; a relationship as <start name> -> <end name>. NULL in a record written before this column existed (the key is shown then).';
COMMENT ON COLUMN kg_snapshot_history_edges.role IS 'current or previous, as in kg_snapshot_history.';
COMMENT ON COLUMN kg_snapshot_history_edges.research_area IS 'edge_reliability.research_area.';
COMMENT ON COLUMN kg_snapshot_history_edges.dataset_id IS 'edge_reliability.dataset_id.';
COMMENT ON COLUMN kg_snapshot_history_edges.publication_id IS 'edge_reliability.publication_id.';
COMMENT ON COLUMN kg_snapshot_history_edges.label IS 'The edge''s label in that scoring.';
COMMENT ON COLUMN kg_snapshot_history_edges.reliability IS 'The edge''s reliability in that scoring.';
COMMENT ON COLUMN kg_snapshot_history_edges.snapshot_id IS 'The KG snapshot that scoring read (edge_reliability.snapshot_id).';
COMMENT ON COLUMN kg_snapshot_history_edges.as_of IS 'The as_of of that scoring.';
COMMENT ON COLUMN kg_snapshot_history_edges.settings_digest IS 'SHA-256 (hex) of that scoring''s settings (edge_reliability.scoring_settings as stored).';
COMMENT ON COLUMN kg_snapshot_history_edges.openalex_fetched_at IS 'When the publication''s OpenAlex record for the area was fetched (openalex_works.fetched_at; NULL without one), read when the scoring was recorded.';
COMMENT ON COLUMN kg_snapshot_history_edges.enrichment_digest IS 'MD5 of the OpenAlex and Crossref values the edge recorded (openalex_status, cited_by_count, field percentiles, is_retracted, retraction_source, year_source).';
COMMENT ON COLUMN kg_snapshot_history_edges.judgement_digest IS 'MD5 of the judgement values the edge recorded (coherence_status, coherence, coherence_judges, dispute_status).';
