CREATE TABLE IF NOT EXISTS paper_texts (
    paper_key VARCHAR NOT NULL,
    position  INTEGER NOT NULL,
    part      VARCHAR NOT NULL,
    section   VARCHAR NOT NULL,
    page      INTEGER NOT NULL,
    label     VARCHAR,
    doi       VARCHAR,
    text      VARCHAR NOT NULL,
    PRIMARY KEY (paper_key, part, position)
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN paper_texts.paper_key IS 'The paper (paper_documents.paper_key).';
COMMENT ON COLUMN paper_texts.position IS 'Order within its part, from 1 (reading order; references in list order).';
COMMENT ON COLUMN paper_texts.part IS 'heading, paragraph, caption or reference.';
COMMENT ON COLUMN paper_texts.section IS 'The heading it falls under ('''' before the first); a heading''s own title.';
COMMENT ON COLUMN paper_texts.page IS 'The 1-based page it starts on (1 for a paper given by DOI).';
COMMENT ON COLUMN paper_texts.label IS 'A caption''s kind and label as printed (figure 3, table S1), a reference''s number; NULL otherwise.';
COMMENT ON COLUMN paper_texts.doi IS 'A reference''s canonical DOI when it prints one; NULL otherwise.';
COMMENT ON COLUMN paper_texts.text IS 'The text as read (lines joined, hyphenation at line ends undone).';
