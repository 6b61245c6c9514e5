CREATE TABLE IF NOT EXISTS dataset_verdict_history (
    research_area    VARCHAR NOT NULL,
    dataset_id       VARCHAR NOT NULL,
    verdict          VARCHAR NOT NULL,
    previous_verdict VARCHAR,
    changed_at       TIMESTAMPTZ NOT NULL,
    as_of            DATE NOT NULL,
    snapshot_id      VARCHAR NOT NULL,
    PRIMARY KEY (research_area, dataset_id, changed_at)
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN dataset_verdict_history.research_area IS 'The research area of the dataset''s evidence.';
COMMENT ON COLUMN dataset_verdict_history.dataset_id IS 'The dataset.';
COMMENT ON COLUMN dataset_verdict_history.verdict IS 'The verdict it got at changed_at.';
COMMENT ON COLUMN dataset_verdict_history.previous_verdict IS 'The verdict it replaced; NULL for the first verdict.';
COMMENT ON COLUMN dataset_verdict_history.changed_at IS 'When the verdict was first given or changed (UTC); one row per change, never per unchanged re-run.';
COMMENT ON COLUMN dataset_verdict_history.as_of IS 'The as_of of that materialization.';
COMMENT ON COLUMN dataset_verdict_history.snapshot_id IS 'The KG snapshot of that materialization.';
