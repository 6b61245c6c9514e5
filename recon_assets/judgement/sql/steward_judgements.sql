-- Every row of the steward file (judgement/steward.py), checked and matched to the KG: rebuilt on each
-- materialization, so the file is the record and this table what applies of it to the current snapshot.
CREATE OR REPLACE TABLE steward_judgements (
    line                 BIGINT NOT NULL,
    last_line            BIGINT NOT NULL,
    scope                VARCHAR,
    dataset              VARCHAR,
    publication_doi      VARCHAR,
    newer_doi            VARCHAR,
    verdict              VARCHAR,
    coherence            DOUBLE,
    rationale            VARCHAR,
    steward              VARCHAR,
    judged_on            DATE,
    status               VARCHAR NOT NULL,
    reason               VARCHAR,
    dataset_id           VARCHAR,
    publication_id       VARCHAR,
    newer_publication_id VARCHAR
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN steward_judgements.line IS 'Line of the steward file (recon_assets/reference/steward_judgements.csv; the header is line 1) the row starts on.';
COMMENT ON COLUMN steward_judgements.last_line IS 'Line the row ends on: later than line when a quoted rationale spans lines, or when a quote left open runs up to the next line starting with pair, or edge, (the row is then rejected with that line range).';
COMMENT ON COLUMN steward_judgements.scope IS 'pair (the newer work judged against the edge''s publication) or edge (the edge itself).';
COMMENT ON COLUMN steward_judgements.dataset IS 'The dataset as the file names it: KG id (kg:...) or DOI.';
COMMENT ON COLUMN steward_judgements.publication_doi IS 'DOI of the edge''s publication (canonical).';
COMMENT ON COLUMN steward_judgements.newer_doi IS 'DOI of the newer work of a pair (canonical); NULL for an edge.';
COMMENT ON COLUMN steward_judgements.verdict IS 'SUPPORTED, CONTRADICTED or SUPERSEDED.';
COMMENT ON COLUMN steward_judgements.coherence IS 'The steward''s coherence on DOMAIN.md''s scale, in [0, 1].';
COMMENT ON COLUMN steward_judgements.rationale IS 'The steward''s reason, quoted in the edge''s reason.';
COMMENT ON COLUMN steward_judgements.steward IS 'Who judged; the judge is named steward/<steward>.';
COMMENT ON COLUMN steward_judgements.judged_on IS 'When: the judgement applies to an as_of on or after this day only.';
COMMENT ON COLUMN steward_judgements.status IS 'applies (takes precedence over every machine judge, from judged_on until a later judgement of the same pair or edge), no_such_edge (see reason), or rejected (a broken rule: see reason).';
COMMENT ON COLUMN steward_judgements.reason IS 'Why the row does not apply; for a row a later-dated judgement of the same pair or edge replaces, from when; NULL otherwise.';
COMMENT ON COLUMN steward_judgements.dataset_id IS 'The KG dataset it names; NULL when none.';
COMMENT ON COLUMN steward_judgements.publication_id IS 'The KG publication of publication_doi; NULL when none.';
COMMENT ON COLUMN steward_judgements.newer_publication_id IS 'The KG publication of newer_doi, or doi:<doi> when the KG lacks it; NULL for an edge.';
