CREATE OR REPLACE TABLE publication_centrality (
    publication_id  VARCHAR PRIMARY KEY,
    pagerank        DOUBLE NOT NULL,
    pagerank_source VARCHAR NOT NULL,
    centrality      DOUBLE NOT NULL
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN publication_centrality.publication_id IS 'The publication.';
COMMENT ON COLUMN publication_centrality.pagerank IS 'PageRank on the Neo4j GDS scale (isolated node = 0.15).';
COMMENT ON COLUMN publication_centrality.pagerank_source IS 'kg_property, or computed (networkx over the Publication+Dataset projection) when the property was missing.';
COMMENT ON COLUMN publication_centrality.centrality IS 'PageRank on the citation scale: min(1, log1p((pagerank - floor) / pagerank_per_citation) / log1p(10000)), with the reference of centrality_reference; 0 at the floor. Evidence only when the publication has incoming KG CITES.';
