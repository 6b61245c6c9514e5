CREATE OR REPLACE TABLE dataset_publication_edges (
    dataset_id       VARCHAR NOT NULL,
    publication_id   VARCHAR NOT NULL,
    relationship_ids VARCHAR[] NOT NULL,
    PRIMARY KEY (dataset_id, publication_id)
);
