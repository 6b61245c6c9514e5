CREATE TABLE IF NOT EXISTS paper_scores (
    paper_key VARCHAR NOT NULL,
    score     VARCHAR NOT NULL,
    value     DOUBLE,
    assessed  BOOLEAN NOT NULL,
    how       VARCHAR NOT NULL,
    PRIMARY KEY (paper_key, score)
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN paper_scores.paper_key IS 'The paper (paper_documents.paper_key).';
COMMENT ON COLUMN paper_scores.score IS 'citation, verification, literary, overall (CitationEdge''s, 0-10) or current_version_share (this project''s, 0-1).';
COMMENT ON COLUMN paper_scores.value IS 'The score; NULL when not assessed.';
COMMENT ON COLUMN paper_scores.assessed IS 'False when the score is not assessed (offline: argumentation needs the LLM; a stage that did not run or failed; no dataset use whose current or replaced status is known, matched to a Dataset node or not).';
COMMENT ON COLUMN paper_scores.how IS 'How it was computed, with the numbers that went in, or why it is not assessed (papers.scores.paper_scores).';
