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

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN crossref_relations.research_area IS 'Partition: research area of the publication.';
COMMENT ON COLUMN crossref_relations.doi IS 'Canonical DOI of the KG publication the entry was reached from.';
COMMENT ON COLUMN crossref_relations.record_doi IS 'The Crossref record that lists the entry: the publication''s own, or that of a work its comments and replies name (two works away at most).';
COMMENT ON COLUMN crossref_relations.record_type IS 'Crossref type of that record (posted-content marks a preprint, whose comments are its open discussion).';
COMMENT ON COLUMN crossref_relations.record_title IS 'Title of that record.';
COMMENT ON COLUMN crossref_relations.record_year IS 'Publication year of that record (Crossref published, else issued).';
COMMENT ON COLUMN crossref_relations.relation IS 'Crossref relation type as Crossref spells it (is-comment-on, has-comment, is-reply-to, has-reply, is-review-of, has-review), or updated-by for an update notice pointing at the publication.';
COMMENT ON COLUMN crossref_relations.update_type IS 'For updated-by: the update type as Crossref spells it (correction, corrigendum, erratum, addendum, retraction, ...); else NULL.';
COMMENT ON COLUMN crossref_relations.other_id IS 'The related work: canonical DOI for id-type doi, else the id as given; for updated-by the notice''s DOI (the publication''s own for a correction in place).';
COMMENT ON COLUMN crossref_relations.other_id_type IS 'Crossref id-type of other_id (doi, uri, ...).';
COMMENT ON COLUMN crossref_relations.asserted_by IS 'Whose deposit asserts the relation: subject (the record''s publisher) or object (the related work''s).';
COMMENT ON COLUMN crossref_relations.other_type IS 'Crossref type of the related work, when its record was fetched (or of the notice).';
COMMENT ON COLUMN crossref_relations.other_title IS 'Title of the related work, when its record was fetched (or of the notice).';
COMMENT ON COLUMN crossref_relations.other_year IS 'Publication year of the related work when its record was fetched; for updated-by the year the update took effect (the later of the update''s date and the notice''s publication). NULL when unknown: never evidence.';
COMMENT ON COLUMN crossref_relations.checked_at IS 'When Crossref last answered for the record (UTC): the record cache''s, or crossref_cache''s for updated-by.';
