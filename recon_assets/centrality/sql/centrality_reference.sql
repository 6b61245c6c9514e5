CREATE OR REPLACE TABLE centrality_reference (
    snapshot_id           VARCHAR PRIMARY KEY,
    pagerank_floor        DOUBLE NOT NULL,
    mean_out_degree       DOUBLE NOT NULL,
    pagerank_per_citation DOUBLE NOT NULL,
    citation_saturation   BIGINT NOT NULL,
    method                VARCHAR NOT NULL
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN centrality_reference.snapshot_id IS 'The KG snapshot whose PageRank values this reference reads.';
COMMENT ON COLUMN centrality_reference.pagerank_floor IS 'PageRank of a node nothing points to, on the GDS scale: 1 - 0.85 = 0.15.';
COMMENT ON COLUMN centrality_reference.mean_out_degree IS 'USES_DATASET and CITES relationships per publication that has any: how many ways a typical citing publication splits its rank.';
COMMENT ON COLUMN centrality_reference.pagerank_per_citation IS 'What one citation from a typical publication at the floor adds to a PageRank: 0.85 * floor / mean_out_degree.';
COMMENT ON COLUMN centrality_reference.citation_saturation IS 'Citations (or their PageRank equivalent) at which centrality reaches 1: 10000, as on the OpenAlex citation scale.';
COMMENT ON COLUMN centrality_reference.method IS 'How the reference was chosen, in words.';
