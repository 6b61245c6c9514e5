CREATE OR REPLACE TABLE centrality_reference (
    snapshot_id           VARCHAR PRIMARY KEY,
    pagerank_floor        DOUBLE NOT NULL,
    mean_out_degree       DOUBLE NOT NULL,
    pagerank_per_citation DOUBLE NOT NULL,
    citation_saturation   BIGINT NOT NULL,
    method                VARCHAR NOT NULL
);
