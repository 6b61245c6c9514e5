CREATE OR REPLACE TABLE dispute_evaluation_pairs (
    pair_id                  VARCHAR NOT NULL PRIMARY KEY,
    kind                     VARCHAR NOT NULL,
    original_doi             VARCHAR,
    newer_doi                VARCHAR,
    newer_title              VARCHAR,
    in_kg                    BOOLEAN NOT NULL,
    in_scope                 BOOLEAN NOT NULL,
    pipeline_judged          BOOLEAN NOT NULL,
    pipeline_verdicts        VARCHAR[],
    recorded_relations       VARCHAR[],
    pipeline_contradicted    BOOLEAN NOT NULL,
    pipeline_recorded        BOOLEAN NOT NULL,
    similarity               DOUBLE,
    content_verdict          VARCHAR,
    content_cue              VARCHAR,
    content_judged           BOOLEAN NOT NULL,
    title_relation           VARCHAR
);
