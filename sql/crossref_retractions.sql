CREATE TABLE IF NOT EXISTS crossref_retractions (
    research_area VARCHAR NOT NULL,
    doi           VARCHAR NOT NULL,
    status        VARCHAR NOT NULL,
    notice_dois   VARCHAR[] NOT NULL,
    error         VARCHAR,
    checked_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (research_area, doi)
);
