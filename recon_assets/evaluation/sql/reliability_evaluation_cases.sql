CREATE OR REPLACE TABLE reliability_evaluation_cases (
    labels_version      VARCHAR NOT NULL,
    case_id             VARCHAR NOT NULL,
    class               VARCHAR NOT NULL,
    split               VARCHAR NOT NULL,
    grade               VARCHAR NOT NULL,
    version_status      VARCHAR NOT NULL,
    condition           VARCHAR NOT NULL,
    dataset_id          VARCHAR,
    publication_id      VARCHAR,
    found               BOOLEAN NOT NULL,
    has_openalex_record BOOLEAN NOT NULL,
    label               VARCHAR,
    reliability         DOUBLE,
    flagged             BOOLEAN,
    hit                 BOOLEAN,
    dominant_signal     VARCHAR,
    negative_signals    VARCHAR[],
    evidence            VARCHAR[],
    reason              VARCHAR,
    label_source        VARCHAR NOT NULL,
    label_source_url    VARCHAR,
    PRIMARY KEY (case_id, condition)
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN reliability_evaluation_cases.labels_version IS 'Version of labelled_edges.csv.';
COMMENT ON COLUMN reliability_evaluation_cases.case_id IS 'The case (labelled_edges.csv case_id).';
COMMENT ON COLUMN reliability_evaluation_cases.class IS 'superseded_version, foundational, current_version, disputed or retracted (exclusive classes).';
COMMENT ON COLUMN reliability_evaluation_cases.split IS 'tuning or held_out (fixed before any scoring).';
COMMENT ON COLUMN reliability_evaluation_cases.grade IS 'C (labelled from the same file, record or document as a scorer input: kept apart from the headline figures), F (the same fact from another document of the archive) or I (independent of every scorer input).';
COMMENT ON COLUMN reliability_evaluation_cases.version_status IS 'What the archive says of the case''s dataset version: current, replaced or unknown (defines the subgroups only).';
COMMENT ON COLUMN reliability_evaluation_cases.condition IS 'online or offline (reliability_evaluation.condition).';
COMMENT ON COLUMN reliability_evaluation_cases.dataset_id IS 'The KG edge''s dataset; NULL when the KG has no such edge.';
COMMENT ON COLUMN reliability_evaluation_cases.publication_id IS 'The KG edge''s publication; NULL when not found.';
COMMENT ON COLUMN reliability_evaluation_cases.found IS 'The case matched a KG edge (canonical dataset and publication DOIs).';
COMMENT ON COLUMN reliability_evaluation_cases.has_openalex_record IS 'Its publication has a citation record as of as_of in this condition: an OpenAlex record, or a count composed from a public page from the day it was seen (online rates count only these).';
COMMENT ON COLUMN reliability_evaluation_cases.label IS 'The label under the default setting.';
COMMENT ON COLUMN reliability_evaluation_cases.reliability IS 'The reliability under the default setting.';
COMMENT ON COLUMN reliability_evaluation_cases.flagged IS 'Labelled DECLINING or SUPERSEDED.';
COMMENT ON COLUMN reliability_evaluation_cases.hit IS 'What the class expects: flagged for superseded_version and disputed, SUPERSEDED for retracted, not flagged for foundational and current_version (UNVERIFIED is not caught).';
COMMENT ON COLUMN reliability_evaluation_cases.dominant_signal IS 'edge_reliability.dominant_signal of the edge.';
COMMENT ON COLUMN reliability_evaluation_cases.negative_signals IS 'edge_reliability.negative_signals of the edge.';
COMMENT ON COLUMN reliability_evaluation_cases.evidence IS 'edge_reliability.evidence of the edge.';
COMMENT ON COLUMN reliability_evaluation_cases.reason IS 'The edge''s reason under the default setting in this condition.';
COMMENT ON COLUMN reliability_evaluation_cases.label_source IS 'Where the label comes from: the archive notice, reference instruction, comment or retraction (quoted).';
COMMENT ON COLUMN reliability_evaluation_cases.label_source_url IS 'The page the label source was read on.';
