CREATE OR REPLACE TABLE datasets (
    dataset_id     VARCHAR PRIMARY KEY,
    doi            VARCHAR,
    doi_raw        VARCHAR,
    short_name     VARCHAR,
    long_name      VARCHAR,
    cmr_id         VARCHAR,
    daac           VARCHAR,
    abstract       VARCHAR,
    temporal_start VARCHAR,
    temporal_end   VARCHAR,
    pagerank       DOUBLE,
    node_ids       VARCHAR[] NOT NULL
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN datasets.dataset_id IS 'kg:<globalId> (uuid5 of the DOI), or kg-node:<id>.';
COMMENT ON COLUMN datasets.doi IS 'Canonical DOI of the dataset.';
COMMENT ON COLUMN datasets.doi_raw IS 'DOI as found.';
COMMENT ON COLUMN datasets.short_name IS 'CMR short name.';
COMMENT ON COLUMN datasets.long_name IS 'CMR entry title; often holds the dataset version.';
COMMENT ON COLUMN datasets.cmr_id IS 'CMR concept id.';
COMMENT ON COLUMN datasets.daac IS 'Distributing data center.';
COMMENT ON COLUMN datasets.abstract IS 'Dataset description.';
COMMENT ON COLUMN datasets.temporal_start IS 'Start of the temporal extent (ISO text).';
COMMENT ON COLUMN datasets.temporal_end IS 'End of the temporal extent (ISO text), NULL when ongoing.';
COMMENT ON COLUMN datasets.pagerank IS 'The KG''s PageRank property of the dataset node.';
COMMENT ON COLUMN datasets.node_ids IS 'KG node ids with this dataset_id.';
