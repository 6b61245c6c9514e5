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

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN publications.publication_id IS 'Canonical DOI; for a publication without a DOI, kg:<globalId>, or kg-node:<id> when it has no globalId or shares it with another DOI-less publication (never merged: the globalId of a missing DOI identifies no paper).';
COMMENT ON COLUMN publications.doi IS 'Canonical DOI: lower case, no resolver prefix, percent-decoded once, trailing punctuation stripped; NULL when absent or malformed.';
COMMENT ON COLUMN publications.doi_raw IS 'The DOI as the KG spells it: property doi, or DOI when doi is empty or N/A.';
COMMENT ON COLUMN publications.doi_issue IS 'Why doi is NULL: missing (absent, empty or N/A) or not a DOI.';
COMMENT ON COLUMN publications.title IS 'Title (''N/A'' becomes NULL).';
COMMENT ON COLUMN publications.year IS 'Publication year, or NULL (never a default year).';
COMMENT ON COLUMN publications.year_raw IS 'The year property as found: the KG''s text for a string, JSON text for any other value.';
COMMENT ON COLUMN publications.year_issue IS 'Why year is NULL: missing, empty, zero, not a year, before 1800, or after the year following the snapshot''s ingest.';
COMMENT ON COLUMN publications.abstract IS 'Abstract (''N/A'' becomes NULL).';
COMMENT ON COLUMN publications.authors IS 'Author names joined with ''; ''.';
COMMENT ON COLUMN publications.first_author_tag IS 'Short citation used in reasons, e.g. [Wei et al., 2023].';
COMMENT ON COLUMN publications.pagerank IS 'The KG''s pagerank_publication_dataset (or pagerank_global); the largest when nodes were merged.';
COMMENT ON COLUMN publications.node_ids IS 'KG node ids merged into this publication (nodes differing only in DOI spelling).';
