CREATE TABLE IF NOT EXISTS stage_fingerprints (
    asset         VARCHAR NOT NULL,
    research_area VARCHAR NOT NULL,
    fingerprint   VARCHAR NOT NULL,
    inputs        VARCHAR NOT NULL,
    outputs       VARCHAR NOT NULL,
    recorded_at   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (asset, research_area)
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN stage_fingerprints.asset IS 'The asset (stage) whose last computation this records (recon_assets/storage/fingerprints.py), or the asset check (''<asset>:<check>'') whose last evaluation it records.';
COMMENT ON COLUMN stage_fingerprints.research_area IS 'The partition it wrote; empty for an unpartitioned asset.';
COMMENT ON COLUMN stage_fingerprints.fingerprint IS '16 hex digits of the SHA-256 of inputs: equal on a later run, with outputs still true, the stage is skipped.';
COMMENT ON COLUMN stage_fingerprints.inputs IS 'JSON: the asset''s code version, its settings, as_of (where it depends on it), the KG snapshot id (typed tables and scoring), each upstream table''s digest (rows:sum of row hashes:column names) and, for a stage that keeps some partitions while it recomputes others (coherence_judgements), the partition''s own inputs (names starting with "partition ").';
COMMENT ON COLUMN stage_fingerprints.outputs IS 'JSON: the digest of each table the asset wrote (of this research area''s rows when partitioned), as written; for an asset check, the result of that evaluation under check_result (passed, severity, description, metadata).';
COMMENT ON COLUMN stage_fingerprints.recorded_at IS 'When the stage last computed its tables (UTC).';
