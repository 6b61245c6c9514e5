CREATE OR REPLACE TABLE publication_research_areas (
    publication_id     VARCHAR NOT NULL,
    research_area      VARCHAR NOT NULL,
    research_area_name VARCHAR,
    issue              VARCHAR,
    PRIMARY KEY (publication_id, research_area)
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN publication_research_areas.publication_id IS 'The publication.';
COMMENT ON COLUMN publication_research_areas.research_area IS 'Partition slug of the applied research area, or unclassified.';
COMMENT ON COLUMN publication_research_areas.research_area_name IS 'The ScienceKeyword name in the KG (e.g. AIR QUALITY); NULL when the publication had none.';
COMMENT ON COLUMN publication_research_areas.issue IS 'Unknown area names: on a known area''s row, the other names that are not one of the 21 areas; on an unclassified row, why its named area is not one of the 21.';
