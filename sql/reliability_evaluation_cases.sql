CREATE OR REPLACE TABLE reliability_evaluation_cases (
    labels_version VARCHAR NOT NULL,
    case_id        VARCHAR NOT NULL,
    kind           VARCHAR NOT NULL,
    expected       VARCHAR NOT NULL,
    dataset_id     VARCHAR,
    publication_id VARCHAR,
    found          BOOLEAN NOT NULL,
    got            VARCHAR,
    hit            BOOLEAN,
    detail         VARCHAR,
    source         VARCHAR NOT NULL
);
