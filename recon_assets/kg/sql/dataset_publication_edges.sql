CREATE OR REPLACE TABLE dataset_publication_edges (
    dataset_id       VARCHAR NOT NULL,
    publication_id   VARCHAR NOT NULL,
    relationship_ids VARCHAR[] NOT NULL,
    PRIMARY KEY (dataset_id, publication_id)
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN dataset_publication_edges.dataset_id IS 'The dataset (datasets.dataset_id).';
COMMENT ON COLUMN dataset_publication_edges.publication_id IS 'The publication that uses it (publications.publication_id).';
COMMENT ON COLUMN dataset_publication_edges.relationship_ids IS 'USES_DATASET relationship ids behind this edge (several when publication nodes were merged).';
