CREATE OR REPLACE TABLE science_keywords (
    keyword_id   VARCHAR PRIMARY KEY,
    name         VARCHAR,
    parent_names VARCHAR[] NOT NULL,
    datasets     INTEGER NOT NULL,
    publications INTEGER NOT NULL,
    node_ids     VARCHAR[] NOT NULL
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN science_keywords.keyword_id IS 'kg:<globalId> (the KG''s uuid5 of the name), or kg-node:<id> for a node without one.';
COMMENT ON COLUMN science_keywords.name IS 'The GCMD science keyword as the KG spells it (upper case, e.g. PRECIPITATION AMOUNT); NULL when the node has none (it then matches nothing).';
COMMENT ON COLUMN science_keywords.parent_names IS 'The broader keywords it is a subcategory of (ScienceKeyword-[:HAS_SUBCATEGORY]->it), sorted; empty for a top one.';
COMMENT ON COLUMN science_keywords.datasets IS 'HAS_SCIENCEKEYWORD relationships of Dataset nodes ending at it.';
COMMENT ON COLUMN science_keywords.publications IS 'HAS_APPLIEDRESEARCHAREA relationships of Publication nodes ending at it (it is a research area).';
COMMENT ON COLUMN science_keywords.node_ids IS 'KG node ids with this keyword_id, in line order.';
