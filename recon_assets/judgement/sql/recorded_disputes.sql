CREATE TABLE IF NOT EXISTS recorded_disputes (
    research_area  VARCHAR NOT NULL,
    publication_id VARCHAR NOT NULL,
    relation       VARCHAR NOT NULL,
    other_key      VARCHAR NOT NULL,
    other_doi      VARCHAR,
    other_title    VARCHAR,
    other_year     BIGINT,
    source         VARCHAR NOT NULL,
    recorded_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (research_area, publication_id, relation, other_key)
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN recorded_disputes.research_area IS 'Partition: research area of the disputed or corrected publication.';
COMMENT ON COLUMN recorded_disputes.publication_id IS 'The publication the comment, reply or correction answers.';
COMMENT ON COLUMN recorded_disputes.relation IS 'comment (a published comment or rebuttal on it), reply (an answer to a comment on it), or correction (a corrigendum, erratum or correction of it).';
COMMENT ON COLUMN recorded_disputes.other_key IS 'The comment, reply or correction: its KG publication id, else its DOI (Crossref) or OpenAlex id (titles); in-place:<DOI> for a correction Crossref records on the publication''s own record.';
COMMENT ON COLUMN recorded_disputes.other_doi IS 'Its canonical DOI, when known.';
COMMENT ON COLUMN recorded_disputes.other_title IS 'Its title (what the relation was read from, for title matches).';
COMMENT ON COLUMN recorded_disputes.other_year IS 'Its publication year (a Crossref correction: the year the update took effect): it counts as evidence only for an as_of from that year on; NULL never counts.';
COMMENT ON COLUMN recorded_disputes.source IS 'Where it is recorded: ''kg title'' (a KG work citing the publication, titled ''Comment on ...'', ''Reply to ...'', ''Corrigendum ...''), ''openalex title'', ''crossref relation'' (is-comment-on / has-comment, is-reply-to / has-reply) or ''crossref update-to'' (a correction, corrigendum, erratum or addendum notice); ''crossref relation + kg title'' when both name the same work.';
COMMENT ON COLUMN recorded_disputes.recorded_at IS 'When the row was written (UTC).';
