-- OpenAlex list calls spent, per UTC day, run and asset: the ledger of the one daily budget that openalex_works and
-- openalex_citing_works draw on (OpenAlexResource.daily_list_calls). A single work by id or DOI costs nothing.
CREATE TABLE IF NOT EXISTS openalex_usage (
    day         DATE NOT NULL,
    run_id      VARCHAR NOT NULL,
    asset       VARCHAR NOT NULL,
    list_calls  BIGINT NOT NULL,
    requests    BIGINT NOT NULL,
    recorded_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (day, run_id, asset)
);
