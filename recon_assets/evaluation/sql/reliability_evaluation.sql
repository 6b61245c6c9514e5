CREATE OR REPLACE TABLE reliability_evaluation (
    labels_version    VARCHAR NOT NULL,
    condition         VARCHAR NOT NULL,
    split             VARCHAR NOT NULL,
    case_set          VARCHAR NOT NULL,
    setting           VARCHAR NOT NULL,
    weight_centrality DOUBLE NOT NULL,
    weight_recency    DOUBLE NOT NULL,
    weight_coherence  DOUBLE NOT NULL,
    decay             VARCHAR NOT NULL,
    is_default        BOOLEAN NOT NULL,
    measure           VARCHAR NOT NULL,
    value             DOUBLE,
    numerator         BIGINT,
    denominator       BIGINT,
    ci_low            DOUBLE,
    ci_high           DOUBLE,
    auc_rank          INTEGER,
    as_of             DATE NOT NULL,
    evaluated_at      TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (condition, split, case_set, setting, measure)
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN reliability_evaluation.labels_version IS 'Version of recon_assets/reference/evaluation/labelled_edges.csv the measures were taken on.';
COMMENT ON COLUMN reliability_evaluation.condition IS 'online (the OpenAlex records as stored; only cases with a record count) or offline (every OpenAlex input taken away).';
COMMENT ON COLUMN reliability_evaluation.split IS 'all labelled cases, or held_out (the part frozen before any tuning).';
COMMENT ON COLUMN reliability_evaluation.case_set IS 'The cases measured, by grade (labelled_edges.csv grade): IF (I and F: the headline figures), I (independent of every scorer input: what the score adds) or C (labelled from a scorer input: kept apart).';
COMMENT ON COLUMN reliability_evaluation.setting IS 'The setting as ''w1/w2/w3 decay'' (weights of centrality, recency, coherence; recency decay).';
COMMENT ON COLUMN reliability_evaluation.weight_centrality IS 'w1 of this setting (0.1 grid; the three weights sum to 1).';
COMMENT ON COLUMN reliability_evaluation.weight_recency IS 'w2 of this setting.';
COMMENT ON COLUMN reliability_evaluation.weight_coherence IS 'w3 of this setting.';
COMMENT ON COLUMN reliability_evaluation.decay IS 'Recency decay of this setting: none, linear or log.';
COMMENT ON COLUMN reliability_evaluation.is_default IS 'The setting the pipeline scores with (DOMAIN.md: 0.4 / 0.3 / 0.3, linear).';
COMMENT ON COLUMN reliability_evaluation.measure IS 'staleness_catch, flag_precision, labelled_prevalence, base_rate, foundational_false_flag, foundational_replaced_flagged (foundational papers on replaced versions), old_current_flagged (sound papers >= 10 years old on current versions), recent_replaced_flagged (stale papers <= 3 years old on replaced versions), current_flagged, contradiction_catch (default only), retraction_catch, unverified_share, roc_auc or replaced_datasets_stale (default only: the (research area, dataset) evidence sets holding a superseded-version case of the case set, STALE or CONTRADICTED); docs/EVALUATION.md defines each.';
COMMENT ON COLUMN reliability_evaluation.value IS 'The rate numerator / denominator, or the ROC AUC; NULL when nothing was measured (0 cases).';
COMMENT ON COLUMN reliability_evaluation.numerator IS 'Cases meeting the measure; NULL for roc_auc.';
COMMENT ON COLUMN reliability_evaluation.denominator IS 'Cases measured (say over how many a rate runs); NULL for roc_auc.';
COMMENT ON COLUMN reliability_evaluation.ci_low IS 'Lower end of the 95 % Wilson score interval of the rate; NULL for roc_auc and without cases.';
COMMENT ON COLUMN reliability_evaluation.ci_high IS 'Upper end of the 95 % Wilson score interval.';
COMMENT ON COLUMN reliability_evaluation.auc_rank IS 'The setting''s rank by ROC AUC on the I cases within its condition and split (1 = discriminates sound from superseded edges best; ties share a rank), on every case set''s row of the setting; the ablation''s order.';
COMMENT ON COLUMN reliability_evaluation.as_of IS 'The as_of the edges were scored as of.';
COMMENT ON COLUMN reliability_evaluation.evaluated_at IS 'When the evaluation ran (UTC).';
