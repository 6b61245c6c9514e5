CREATE OR REPLACE TABLE reliability_evaluation_baselines (
    labels_version     VARCHAR NOT NULL,
    condition          VARCHAR NOT NULL,
    split              VARCHAR NOT NULL,
    case_set           VARCHAR NOT NULL,
    measure            VARCHAR NOT NULL,
    rule               VARCHAR NOT NULL,
    value              DOUBLE,
    numerator          BIGINT,
    denominator        BIGINT,
    ci_low             DOUBLE,
    ci_high            DOUBLE,
    cluster_ci_low     DOUBLE,
    cluster_ci_high    DOUBLE,
    node_numerator     BIGINT,
    node_denominator   BIGINT,
    difference         DOUBLE,
    difference_ci_low  DOUBLE,
    difference_ci_high DOUBLE,
    resamples          INTEGER NOT NULL,
    as_of              DATE NOT NULL,
    evaluated_at       TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (condition, split, case_set, measure, rule)
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN reliability_evaluation_baselines.labels_version IS 'Version of labelled_edges.csv the measures were taken on.';
COMMENT ON COLUMN reliability_evaluation_baselines.condition IS 'online or offline (reliability_evaluation.condition).';
COMMENT ON COLUMN reliability_evaluation_baselines.split IS 'all labelled cases, or held_out.';
COMMENT ON COLUMN reliability_evaluation_baselines.case_set IS 'IF, I or C (reliability_evaluation.case_set).';
COMMENT ON COLUMN reliability_evaluation_baselines.measure IS 'staleness_catch, flag_precision, base_rate, foundational_false_flag, foundational_replaced_flagged, old_current_flagged, recent_replaced_flagged, current_flagged or roc_auc (reliability_evaluation.measure).';
COMMENT ON COLUMN reliability_evaluation_baselines.rule IS 'default (the score under the default setting: flagged = DECLINING or SUPERSEDED, ordered by reliability), lifecycle_only (flag a dataset version superseded on or before as_of, or a retraction; ordered 0/1), age_only (flag a paper older than 2 years at as_of, the earlier age-only method''s rule per edge; ordered by minus the age) or flag_everything (ordered by a constant).';
COMMENT ON COLUMN reliability_evaluation_baselines.value IS 'The rule''s rate numerator / denominator, or its ROC AUC; NULL when nothing was measured (0 cases).';
COMMENT ON COLUMN reliability_evaluation_baselines.numerator IS 'Cases meeting the measure under the rule (edges for base_rate); NULL for roc_auc.';
COMMENT ON COLUMN reliability_evaluation_baselines.denominator IS 'Cases measured (edges for base_rate); NULL for roc_auc.';
COMMENT ON COLUMN reliability_evaluation_baselines.ci_low IS 'Lower end of the 95 % Wilson interval of the rate, per case; NULL for roc_auc and without cases.';
COMMENT ON COLUMN reliability_evaluation_baselines.ci_high IS 'Upper end of the 95 % Wilson interval, per case.';
COMMENT ON COLUMN reliability_evaluation_baselines.cluster_ci_low IS 'Lower end of the 95 % percentile interval of the value from resampling dataset nodes (every case of a drawn node with it; all KG edges'' nodes for base_rate): wider than the Wilson interval where a node''s cases move together.';
COMMENT ON COLUMN reliability_evaluation_baselines.cluster_ci_high IS 'Upper end of that interval.';
COMMENT ON COLUMN reliability_evaluation_baselines.node_numerator IS 'Dataset nodes counted as meeting the measure: of the nodes with a case in the measure''s set, those where more than half of their cases in it meet it (a tie does not); NULL for roc_auc.';
COMMENT ON COLUMN reliability_evaluation_baselines.node_denominator IS 'Dataset nodes with a case in the measure''s set; NULL for roc_auc.';
COMMENT ON COLUMN reliability_evaluation_baselines.difference IS 'The default''s value minus this rule''s, on the same cases; NULL on the default''s own row.';
COMMENT ON COLUMN reliability_evaluation_baselines.difference_ci_low IS 'Lower end of the 95 % percentile interval of the paired difference, both rules taken on the same node resamples.';
COMMENT ON COLUMN reliability_evaluation_baselines.difference_ci_high IS 'Upper end of that interval.';
COMMENT ON COLUMN reliability_evaluation_baselines.resamples IS 'Node resamples of the cluster bootstrap (fixed seed: evaluation/metrics.py RESAMPLES and SEED).';
COMMENT ON COLUMN reliability_evaluation_baselines.as_of IS 'The as_of the edges were scored as of.';
COMMENT ON COLUMN reliability_evaluation_baselines.evaluated_at IS 'When the evaluation ran (UTC).';
