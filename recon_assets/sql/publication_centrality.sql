CREATE OR REPLACE TABLE publication_centrality (
    publication_id  VARCHAR PRIMARY KEY,
    pagerank        DOUBLE NOT NULL,
    pagerank_source VARCHAR NOT NULL,
    centrality      DOUBLE NOT NULL
);
