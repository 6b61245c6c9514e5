-- Every row of the steward file (judgement/steward.py), checked and matched to the KG: rebuilt on each
-- materialization, so the file is the record and this table what applies of it to the current snapshot.
CREATE OR REPLACE TABLE steward_judgements (
    line                 BIGINT NOT NULL,
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
