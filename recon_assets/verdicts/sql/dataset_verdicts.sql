CREATE TABLE IF NOT EXISTS dataset_verdicts (
    research_area          VARCHAR NOT NULL,
    dataset_id             VARCHAR NOT NULL,
    dataset_doi            VARCHAR,
    dataset_short_name     VARCHAR,
    dataset_version        VARCHAR,
    verdict                VARCHAR NOT NULL,
    stale                  BOOLEAN NOT NULL,
    staleness_reason       VARCHAR,
    contradicted           BOOLEAN NOT NULL,
    contradiction_reason   VARCHAR,
    n_edges                INTEGER NOT NULL,
    n_reliable_edges       INTEGER NOT NULL,
    expansion_rounds       INTEGER NOT NULL,
    expanded_publications  INTEGER NOT NULL,
    reason                 VARCHAR NOT NULL,
    previous_verdict       VARCHAR,
    verdict_changed_at     TIMESTAMPTZ NOT NULL,
    as_of                  DATE NOT NULL,
    snapshot_id            VARCHAR NOT NULL,
    verdict_rules          JSON NOT NULL,
    judged_at              TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (research_area, dataset_id)
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN dataset_verdicts.research_area IS 'Partition: the research area of the dataset''s evidence.';
COMMENT ON COLUMN dataset_verdicts.dataset_id IS 'The dataset judged.';
COMMENT ON COLUMN dataset_verdicts.dataset_doi IS 'Canonical DOI of the dataset (expansion looks for publications citing it).';
COMMENT ON COLUMN dataset_verdicts.dataset_short_name IS 'Dataset short name.';
COMMENT ON COLUMN dataset_verdicts.dataset_version IS 'Its version (dataset_lineage.version_text): tells apart two versions sharing a short name.';
COMMENT ON COLUMN dataset_verdicts.verdict IS 'PASS, STALE, CONTRADICTED, INSUFFICIENT or FORCED_PASS (DOMAIN.md ''Verdicts over an evidence set'').';
COMMENT ON COLUMN dataset_verdicts.stale IS 'The staleness check (always run, before sufficiency) flagged it: dataset version superseded as of as_of, or more than half of the assessed edges (not UNVERIFIED) weak: labelled DECLINING or SUPERSEDED.';
COMMENT ON COLUMN dataset_verdicts.staleness_reason IS 'Why stale or not, naming the weak edges.';
COMMENT ON COLUMN dataset_verdicts.contradicted IS 'The contradiction check (always run, before sufficiency) flagged it: a recorded comment on one of its publications, or a judged pair where a newer publication contradicts one at least 2 years older.';
COMMENT ON COLUMN dataset_verdicts.contradiction_reason IS 'The recorded disputes and contradicting pairs (''[Chen et al., 2023] contradicts [Smith et al., 2019] (4 years apart)''), or why none counts.';
COMMENT ON COLUMN dataset_verdicts.n_edges IS 'Evidence judged: the dataset''s edges in the research area plus the publications found by expansion.';
COMMENT ON COLUMN dataset_verdicts.n_reliable_edges IS 'Of those, the ones with reliability >= 0.40 (3 of each, and 3 assessed, needed for a sufficient set).';
COMMENT ON COLUMN dataset_verdicts.expansion_rounds IS 'Evidence expansion rounds run (1: OpenAlex cache, 2: OpenAlex); 0 when no expansion was needed (a check fired, or the edges were sufficient).';
COMMENT ON COLUMN dataset_verdicts.expanded_publications IS 'Publications citing the dataset''s DOI found by expansion (not among its edges), scored like edges with coherence UNVERIFIED.';
COMMENT ON COLUMN dataset_verdicts.reason IS 'The verdict and the edges (citation and reliability) that drove it, and what each expansion round found.';
COMMENT ON COLUMN dataset_verdicts.previous_verdict IS 'The verdict it held before its latest change; NULL when it never changed.';
COMMENT ON COLUMN dataset_verdicts.verdict_changed_at IS 'When the verdict last changed or was first given (UTC).';
COMMENT ON COLUMN dataset_verdicts.as_of IS 'The date the evidence was scored as of.';
COMMENT ON COLUMN dataset_verdicts.snapshot_id IS 'The KG snapshot judged.';
COMMENT ON COLUMN dataset_verdicts.verdict_rules IS 'JSON of the VerdictRules the verdict was given with (min_edges, reliable, weak_share, min_contradiction_years, expansion_rounds, listed_edges).';
COMMENT ON COLUMN dataset_verdicts.judged_at IS 'When the row was written (UTC).';
