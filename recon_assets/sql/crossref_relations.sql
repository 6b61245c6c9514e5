-- Crossref relation entries (comment, reply, peer review) and update notices of the KG publications of each
-- research area, and of the works those comments and replies name (recon_assets/enrichment/crossref_relations.py).
-- One row per (research_area, doi, record_doi, relation, update_type, other_id); update_type is NULL except on
-- updated-by rows, so the key is kept by the writer (relation_rows), not by a primary key.
CREATE TABLE IF NOT EXISTS crossref_relations (
    research_area VARCHAR NOT NULL,
    doi           VARCHAR NOT NULL,
    record_doi    VARCHAR NOT NULL,
    record_type   VARCHAR,
    record_title  VARCHAR,
    record_year   BIGINT,
    relation      VARCHAR NOT NULL,
    update_type   VARCHAR,
    other_id      VARCHAR NOT NULL,
    other_id_type VARCHAR NOT NULL,
    asserted_by   VARCHAR,
    other_type    VARCHAR,
    other_title   VARCHAR,
    other_year    BIGINT,
    checked_at    TIMESTAMPTZ
);
