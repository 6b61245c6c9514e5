CREATE TABLE IF NOT EXISTS question_evidence (
    question_id      VARCHAR NOT NULL,
    rank             INTEGER NOT NULL,
    paper_key        VARCHAR NOT NULL,
    publication_id   VARCHAR,
    doi              VARCHAR,
    citation         VARCHAR NOT NULL,
    title            VARCHAR NOT NULL,
    year             INTEGER,
    source           VARCHAR NOT NULL,
    semantic         DOUBLE NOT NULL,
    recency          DOUBLE NOT NULL,
    authority        DOUBLE NOT NULL,
    hybrid           DOUBLE NOT NULL,
    cited_by_count   BIGINT,
    edges            INTEGER NOT NULL,
    assessed         BOOLEAN NOT NULL,
    stale            BOOLEAN NOT NULL,
    governing_edge   VARCHAR,
    as_of            DATE NOT NULL,
    PRIMARY KEY (question_id, paper_key)
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN question_evidence.question_id IS 'Partition: the question.';
COMMENT ON COLUMN question_evidence.rank IS 'Its place by hybrid score, best first, from 1.';
COMMENT ON COLUMN question_evidence.paper_key IS 'The merge key: canonical DOI, else kg:<publication_id>.';
COMMENT ON COLUMN question_evidence.publication_id IS 'The KG publication; NULL for a paper found only in OpenAlex (OpenAlex search runs online only; offline, answers an online run cached).';
COMMENT ON COLUMN question_evidence.doi IS 'Its canonical DOI, when it has one.';
COMMENT ON COLUMN question_evidence.citation IS 'Its citation tag, [Author et al., Year].';
COMMENT ON COLUMN question_evidence.title IS 'Its title.';
COMMENT ON COLUMN question_evidence.year IS 'Its publication year; NULL when unknown.';
COMMENT ON COLUMN question_evidence.source IS 'kg or openalex: where it was found.';
COMMENT ON COLUMN question_evidence.semantic IS 'Cosine similarity of its title and abstract with the best of the question and its sub-questions (the project''s embedding model), in [-1, 1].';
COMMENT ON COLUMN question_evidence.recency IS 'Recency in [0, 1] by the question''s decay (DOMAIN.md recency).';
COMMENT ON COLUMN question_evidence.authority IS 'min(1, log(1 + citations) / log(10001)), citations up to as_of (edge_reliability.citations_as_of); 0 when unknown.';
COMMENT ON COLUMN question_evidence.hybrid IS '0.5 * max(0, semantic) + 0.3 * recency + 0.2 * authority (RECON''s hybrid score).';
COMMENT ON COLUMN question_evidence.cited_by_count IS 'Citations up to as_of, when known.';
COMMENT ON COLUMN question_evidence.edges IS 'How many scored edges it has to the question''s datasets.';
COMMENT ON COLUMN question_evidence.assessed IS 'Some edge to the question''s datasets is not UNVERIFIED (it counts in the staleness weight).';
COMMENT ON COLUMN question_evidence.stale IS 'Assessed, and every assessed edge is DECLINING or SUPERSEDED or on a replaced dataset version.';
COMMENT ON COLUMN question_evidence.governing_edge IS 'The edge its trust summary speaks of: dataset, label and reliability; NULL without an edge.';
COMMENT ON COLUMN question_evidence.as_of IS 'The run''s as_of.';
