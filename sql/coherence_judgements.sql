CREATE TABLE IF NOT EXISTS coherence_judgements (
    research_area        VARCHAR NOT NULL,
    dataset_id           VARCHAR NOT NULL,
    older_publication_id VARCHAR NOT NULL,
    newer_publication_id VARCHAR NOT NULL,
    similarity           DOUBLE NOT NULL,
    verdict              VARCHAR NOT NULL,
    coherence            DOUBLE NOT NULL,
    rationale            VARCHAR NOT NULL,
    judge                VARCHAR NOT NULL,
    newer_centrality     DOUBLE NOT NULL,
    newer_via_successor  BOOLEAN NOT NULL,
    evidence_kind        VARCHAR NOT NULL,
    newer_citation       VARCHAR,
    newer_year           BIGINT,
    as_of                DATE NOT NULL,
    judged_at            TIMESTAMPTZ NOT NULL
);
