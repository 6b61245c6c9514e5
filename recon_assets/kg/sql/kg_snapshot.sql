-- Tables written by the kg_snapshot asset. kg_nodes / kg_relationships hold the current snapshot only;
-- kg_snapshots and kg_rejects keep every snapshot ever ingested, keyed by snapshot_id.
CREATE TABLE IF NOT EXISTS kg_snapshots (
    snapshot_id         VARCHAR PRIMARY KEY,
    sha256              VARCHAR NOT NULL,
    source              VARCHAR NOT NULL,
    format              VARCHAR NOT NULL,
    size_bytes          BIGINT NOT NULL,
    lines_read          BIGINT NOT NULL,
    nodes_accepted      BIGINT NOT NULL,
    relationships_accepted BIGINT NOT NULL,
    rejected            BIGINT NOT NULL,
    node_counts         JSON NOT NULL,
    relationship_counts JSON NOT NULL,
    ingested_at         TIMESTAMPTZ NOT NULL,
    loaded_at           TIMESTAMPTZ NOT NULL
);
CREATE TABLE IF NOT EXISTS kg_nodes (
    node_id     VARCHAR PRIMARY KEY,
    line_number BIGINT NOT NULL,
    labels      VARCHAR[] NOT NULL,
    properties  JSON NOT NULL
);
CREATE TABLE IF NOT EXISTS kg_relationships (
    relationship_id VARCHAR PRIMARY KEY,
    line_number     BIGINT NOT NULL,
    rel_type        VARCHAR NOT NULL,
    start_id        VARCHAR NOT NULL,
    end_id          VARCHAR NOT NULL,
    properties      JSON NOT NULL
);
CREATE TABLE IF NOT EXISTS kg_rejects (
    snapshot_id VARCHAR NOT NULL,
    source      VARCHAR NOT NULL,
    line_number BIGINT,
    element_id  VARCHAR,
    reason      VARCHAR NOT NULL,
    raw         VARCHAR
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN kg_snapshots.snapshot_id IS 'First 16 hex digits of the export file''s SHA-256.';
COMMENT ON COLUMN kg_snapshots.sha256 IS 'SHA-256 of the export file.';
COMMENT ON COLUMN kg_snapshots.source IS 'Local path, or hf://<repo>@<commit>/<file> for the Hugging Face KG.';
COMMENT ON COLUMN kg_snapshots.format IS 'apoc_jsonl, apoc_graphml or apoc_cypher, detected from the content.';
COMMENT ON COLUMN kg_snapshots.size_bytes IS 'File size in bytes.';
COMMENT ON COLUMN kg_snapshots.lines_read IS 'JSON lines read (GraphML: node, edge and hyperedge elements, plus one row per syntax error; Cypher: element rows, plus one per statement that could not be read).';
COMMENT ON COLUMN kg_snapshots.nodes_accepted IS 'Nodes loaded into kg_nodes.';
COMMENT ON COLUMN kg_snapshots.relationships_accepted IS 'Relationships loaded into kg_relationships.';
COMMENT ON COLUMN kg_snapshots.rejected IS 'Lines in kg_rejects; lines_read = nodes_accepted + relationships_accepted + rejected.';
COMMENT ON COLUMN kg_snapshots.node_counts IS 'Accepted nodes per label (JSON object).';
COMMENT ON COLUMN kg_snapshots.relationship_counts IS 'Accepted relationships per type (JSON object).';
COMMENT ON COLUMN kg_snapshots.ingested_at IS 'When this file was first ingested (UTC).';
COMMENT ON COLUMN kg_snapshots.loaded_at IS 'When it last became the current snapshot (UTC).';
COMMENT ON COLUMN kg_nodes.node_id IS 'The node''s id in the export (current snapshot only).';
COMMENT ON COLUMN kg_nodes.line_number IS 'Line of the JSON-lines file (GraphML: the element''s line; Cypher: the line its statement starts on) it came from.';
COMMENT ON COLUMN kg_nodes.labels IS 'Node labels, e.g. [Publication].';
COMMENT ON COLUMN kg_nodes.properties IS 'Node properties as found (JSON object).';
COMMENT ON COLUMN kg_relationships.relationship_id IS 'The relationship''s id in the export (current snapshot only).';
COMMENT ON COLUMN kg_relationships.line_number IS 'Line of the JSON-lines file (GraphML: the element''s line; Cypher: the line its statement starts on) it came from.';
COMMENT ON COLUMN kg_relationships.rel_type IS 'Relationship type, e.g. USES_DATASET.';
COMMENT ON COLUMN kg_relationships.start_id IS 'node_id of the start node (the KG''s direction as built, e.g. the Publication of USES_DATASET).';
COMMENT ON COLUMN kg_relationships.end_id IS 'node_id of the end node.';
COMMENT ON COLUMN kg_relationships.properties IS 'Relationship properties as found (JSON object; {} when the export had none).';
COMMENT ON COLUMN kg_rejects.snapshot_id IS 'Snapshot the line belongs to.';
COMMENT ON COLUMN kg_rejects.source IS 'Where the file came from.';
COMMENT ON COLUMN kg_rejects.line_number IS '1-based line of the JSON-lines file, the GraphML element''s line, or the line the Cypher statement starts on.';
COMMENT ON COLUMN kg_rejects.element_id IS 'The node or relationship id, when it could be read.';
COMMENT ON COLUMN kg_rejects.reason IS 'Why the line was rejected (malformed JSON, duplicate node id, missing endpoint, ...).';
COMMENT ON COLUMN kg_rejects.raw IS 'The offending text, cut to 500 characters.';

-- How the typed tables read the properties that Publication and Dataset nodes share (recon_assets/kg/sql/*_nodes.sql).
-- The first of doi / DOI that holds a value: an empty or 'N/A' doi must not hide a real DOI.
CREATE OR REPLACE MACRO kg_doi_raw(properties) AS coalesce(
    list_filter([properties->>'doi', properties->>'DOI'], lambda v: NOT regexp_full_match(v, '(?i)\s*(n/a)?\s*'))[1],
    properties->>'doi', properties->>'DOI'
);
-- PageRank under either name the KG uses; positive and finite by construction, so anything else is missing
-- (and recomputed).
CREATE OR REPLACE MACRO positive_finite(x) AS CASE WHEN isfinite(x) AND x > 0 THEN x END;
CREATE OR REPLACE MACRO kg_pagerank(properties) AS positive_finite(
    TRY_CAST(coalesce(properties->>'pagerank_publication_dataset', properties->>'pagerank_global') AS DOUBLE)
);
