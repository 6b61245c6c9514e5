CREATE OR REPLACE TABLE dataset_lineage (
    dataset_id           VARCHAR PRIMARY KEY,
    family               VARCHAR NOT NULL,
    version_text         VARCHAR,
    version_sort         INTEGER[] NOT NULL,
    status               VARCHAR NOT NULL,
    version_source       VARCHAR,
    version_issue        VARCHAR,
    successor_dataset_id VARCHAR,
    successor_family     VARCHAR,
    successor_version    VARCHAR,
    superseded           BOOLEAN NOT NULL,
    superseded_since     VARCHAR,
    collection_progress  VARCHAR,
    succession_basis     VARCHAR,
    evidence             VARCHAR
);
