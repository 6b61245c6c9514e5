CREATE TABLE IF NOT EXISTS paper_citation_gaps (
    paper_key  VARCHAR NOT NULL,
    position   INTEGER NOT NULL,
    severity   VARCHAR NOT NULL,
    work_key   VARCHAR NOT NULL,
    doi        VARCHAR,
    title      VARCHAR,
    year       INTEGER,
    rules      VARCHAR[] NOT NULL,
    why        VARCHAR NOT NULL,
    similarity DOUBLE,
    citations  BIGINT,
    PRIMARY KEY (paper_key, position)
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN paper_citation_gaps.paper_key IS 'The paper (paper_documents.paper_key).';
COMMENT ON COLUMN paper_citation_gaps.position IS 'Order, from 1: high gaps first, then medium, each by similarity (highest first).';
COMMENT ON COLUMN paper_citation_gaps.severity IS 'high (same dataset and highly cited, a newer version''s reference paper, or a recorded comment on a work it cites) or medium (a similar work); papers.gaps.';
COMMENT ON COLUMN paper_citation_gaps.work_key IS 'The work the reference list lacks: its publications.publication_id, or a recorded comment''s key (recorded_disputes.other_key).';
COMMENT ON COLUMN paper_citation_gaps.doi IS 'Its canonical DOI; NULL when unknown.';
COMMENT ON COLUMN paper_citation_gaps.title IS 'Its title; NULL when unknown.';
COMMENT ON COLUMN paper_citation_gaps.year IS 'Its publication year; NULL when unknown.';
COMMENT ON COLUMN paper_citation_gaps.rules IS 'The rules that found it: same dataset, highly cited; newer version''s reference paper; comment on a work it relies on; similar work.';
COMMENT ON COLUMN paper_citation_gaps.why IS 'Why, one clause per rule, with the numbers (datasets shared, citations and their source, similarity, the cited work commented on).';
COMMENT ON COLUMN paper_citation_gaps.similarity IS 'TF-IDF cosine similarity of its title and abstract to the paper''s text (0-1); NULL for a comment outside the graph''s publications.';
COMMENT ON COLUMN paper_citation_gaps.citations IS 'Its citations: OpenAlex cited_by_count when recorded, else the KG''s citing publications; NULL for a comment outside the graph''s publications.';
