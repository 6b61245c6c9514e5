CREATE TABLE IF NOT EXISTS coherence_judgement_runs (
    research_area VARCHAR PRIMARY KEY,
    settings      VARCHAR NOT NULL,
    inputs_md5    VARCHAR NOT NULL,
    pool_edges    BIGINT NOT NULL,
    pairs         BIGINT NOT NULL,
    judged_at     TIMESTAMPTZ NOT NULL
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and the README
-- (recon_assets/table_docs.py).
COMMENT ON COLUMN coherence_judgement_runs.research_area IS 'The research area (partition of coherence_judgements) last judged.';
COMMENT ON COLUMN coherence_judgement_runs.settings IS 'JSON: judge id, digest of the judge''s code, top_k, min_similarity, window_years and as_of year it was judged with.';
COMMENT ON COLUMN coherence_judgement_runs.inputs_md5 IS 'md5 of the area''s evidence pool: edges, each publication''s year, title, abstract, centrality and area (recon_assets/judgement/sql/judge_input_digests.sql).';
COMMENT ON COLUMN coherence_judgement_runs.pool_edges IS 'Dataset-publication edges in the area''s evidence pool.';
COMMENT ON COLUMN coherence_judgement_runs.pairs IS 'Rows written to coherence_judgements; if the table holds another count the area is judged again.';
COMMENT ON COLUMN coherence_judgement_runs.judged_at IS 'When the area was judged (UTC). Same settings and inputs_md5 on a later run: its rows are kept, not judged again.';
