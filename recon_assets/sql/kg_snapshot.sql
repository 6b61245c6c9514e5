-- Tables written by the kg_snapshot asset. kg_nodes / kg_relationships hold the current snapshot only;
-- kg_snapshots and kg_rejects keep every snapshot ever ingested, keyed by snapshot_id.
CREATE TABLE IF NOT EXISTS kg_snapshots (
    snapshot_id         VARCHAR PRIMARY KEY,  -- first 16 hex digits of the file's SHA-256
    sha256              VARCHAR NOT NULL,
    source              VARCHAR NOT NULL,     -- local path, or hf://<repo>@<revision>/<file>
    format              VARCHAR NOT NULL,     -- apoc_jsonl | apoc_graphml | apoc_cypher
    size_bytes          BIGINT NOT NULL,
    lines_read          BIGINT NOT NULL,
    nodes_accepted      BIGINT NOT NULL,
    relationships_accepted BIGINT NOT NULL,
    rejected            BIGINT NOT NULL,
    node_counts         JSON NOT NULL,        -- {label: count}
    relationship_counts JSON NOT NULL,        -- {type: count}
    ingested_at         TIMESTAMPTZ NOT NULL, -- first time this file was ingested
    loaded_at           TIMESTAMPTZ NOT NULL  -- last time it became the current snapshot (in kg_nodes)
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
    line_number BIGINT,                        -- line in JSON-lines, element line in GraphML, statement line in Cypher
    element_id  VARCHAR,
    reason      VARCHAR NOT NULL,
    raw         VARCHAR                        -- the offending text, cut to 500 characters
);

-- How the typed tables read the properties that Publication and Dataset nodes share (recon_assets/sql/*_nodes.sql).
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
