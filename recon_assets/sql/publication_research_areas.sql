CREATE OR REPLACE TABLE publication_research_areas (
    publication_id     VARCHAR NOT NULL,
    research_area      VARCHAR NOT NULL,
    research_area_name VARCHAR,
    issue              VARCHAR,
    PRIMARY KEY (publication_id, research_area)
);
