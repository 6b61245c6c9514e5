CREATE OR REPLACE TABLE publications (
    publication_id   VARCHAR PRIMARY KEY,
    doi              VARCHAR,
    doi_raw          VARCHAR,
    doi_issue        VARCHAR,
    title            VARCHAR,
    year             INTEGER,
    year_raw         VARCHAR,
    year_issue       VARCHAR,
    abstract         VARCHAR,
    authors          VARCHAR,
    first_author_tag VARCHAR NOT NULL,
    pagerank         DOUBLE,
    node_ids         VARCHAR[] NOT NULL
);
