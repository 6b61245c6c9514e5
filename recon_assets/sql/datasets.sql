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
