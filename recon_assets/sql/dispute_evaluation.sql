CREATE OR REPLACE TABLE dispute_evaluation (
    measure     VARCHAR NOT NULL PRIMARY KEY,
    what        VARCHAR NOT NULL,
    value       DOUBLE,
    numerator   BIGINT,
    denominator BIGINT,
    ci_low      DOUBLE,
    ci_high     DOUBLE,
    target      VARCHAR,
    met         BOOLEAN,
    as_of       DATE NOT NULL,
    evaluated_at TIMESTAMPTZ NOT NULL
);
