CREATE TABLE IF NOT EXISTS openalex_works (
    research_area        VARCHAR NOT NULL,
    doi                  VARCHAR NOT NULL,
    status               VARCHAR NOT NULL,
    error                VARCHAR,
    openalex_id          VARCHAR,
    openalex_doi         VARCHAR,
    title                VARCHAR,
    type                 VARCHAR,
    publication_year     BIGINT,
    cited_by_count       BIGINT,
    counts_by_year       JSON,
    citation_percentile_low  DOUBLE,
    citation_percentile_high DOUBLE,
    is_retracted         BOOLEAN,
    is_retraction_notice BOOLEAN,
    referenced_works     VARCHAR[],
    primary_topic        JSON,
    abstract             VARCHAR,
    fetched_at           TIMESTAMPTZ,
    PRIMARY KEY (research_area, doi)
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN openalex_works.research_area IS 'Partition: research area of the publication.';
COMMENT ON COLUMN openalex_works.doi IS 'Canonical DOI of the publication, as requested.';
COMMENT ON COLUMN openalex_works.status IS 'found, not_found, mismatch (the lookup answered with a work carrying another DOI, or none; see error), or error (see error).';
COMMENT ON COLUMN openalex_works.error IS 'Why there is no record: the HTTP status, timeout, budget spent, ''offline: not in the recorded cache'', an invalid record (''invalid OpenAlex record: <field>: <why>''), a cached record dropped as invalid, or for a mismatch the work and DOI OpenAlex answered with.';
COMMENT ON COLUMN openalex_works.openalex_id IS 'OpenAlex work id (https://openalex.org/W...); NULL for a record composed from a public page''s citation count (no OpenAlex answer, see fetched_at).';
COMMENT ON COLUMN openalex_works.openalex_doi IS 'The DOI OpenAlex returned, canonical (OpenAlex matches DOIs in lower case).';
COMMENT ON COLUMN openalex_works.title IS 'Title in OpenAlex.';
COMMENT ON COLUMN openalex_works.type IS 'OpenAlex work type (article, review, retraction, ...).';
COMMENT ON COLUMN openalex_works.publication_year IS 'Publication year in OpenAlex (fills a missing KG year in edge_reliability).';
COMMENT ON COLUMN openalex_works.cited_by_count IS 'Citations counted by OpenAlex.';
COMMENT ON COLUMN openalex_works.counts_by_year IS 'JSON [{year, cited_by_count}], last ten years, years without citations left out; NULL for a composed record whose page shows no years (its count is then evidence only from fetched_at on).';
COMMENT ON COLUMN openalex_works.citation_percentile_low IS 'Field-and-year citation percentile in [0, 1]: OpenAlex citation_normalized_percentile.value (same type, year and subfield), else the low end of cited_by_percentile_year (same year) / 100; NULL when OpenAlex gives neither.';
COMMENT ON COLUMN openalex_works.citation_percentile_high IS 'The same percentile''s high end (equal to the low one when citation_normalized_percentile gives it).';
COMMENT ON COLUMN openalex_works.is_retracted IS 'OpenAlex is_retracted; NULL for a composed record.';
COMMENT ON COLUMN openalex_works.is_retraction_notice IS 'The work is a retraction notice (type retraction, or a ''Retraction Note'' title): never counted as retracted.';
COMMENT ON COLUMN openalex_works.referenced_works IS 'OpenAlex ids of the works it cites; NULL for a composed record.';
COMMENT ON COLUMN openalex_works.primary_topic IS 'JSON: OpenAlex primary topic with its subfield, field and domain.';
COMMENT ON COLUMN openalex_works.abstract IS 'Abstract rebuilt from abstract_inverted_index (words at their positions); NULL when OpenAlex has none.';
COMMENT ON COLUMN openalex_works.fetched_at IS 'When the record was fetched from OpenAlex (UTC), or for a composed record the day its count was seen (the page''s date, else the day the page was read); NULL for error rows.';
