CREATE TABLE IF NOT EXISTS paper_documents (
    paper_key       VARCHAR PRIMARY KEY,
    kind            VARCHAR NOT NULL,
    source          VARCHAR NOT NULL,
    doi             VARCHAR,
    title           VARCHAR,
    pages           INTEGER,
    sections        INTEGER NOT NULL,
    paragraphs      INTEGER NOT NULL,
    reference_count INTEGER NOT NULL,
    captions        INTEGER NOT NULL,
    page_limit      INTEGER,
    recorded_at     TIMESTAMP NOT NULL
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN paper_documents.paper_key IS 'The paper''s partition key: the SHA-256 (hex) of its PDF''s bytes, or doi:<canonical DOI> for a paper given by DOI.';
COMMENT ON COLUMN paper_documents.kind IS 'pdf (parsed from the file) or doi (title, abstract and references from the graph''s tables).';
COMMENT ON COLUMN paper_documents.source IS 'Where it was read: the PDF''s path when it was parsed, or the DOI.';
COMMENT ON COLUMN paper_documents.doi IS 'The paper''s canonical DOI when given by DOI; NULL for a PDF.';
COMMENT ON COLUMN paper_documents.title IS 'The publication''s title from the graph or OpenAlex (DOI); for a PDF its Title metadata when it reads as a title, else the largest type on page 1 (papers.title); NULL when neither gives one.';
COMMENT ON COLUMN paper_documents.pages IS 'Pages of the PDF; NULL for a paper given by DOI.';
COMMENT ON COLUMN paper_documents.sections IS 'Headings found (numbered and named ones: Abstract, 2.1. Study Area, References, ...).';
COMMENT ON COLUMN paper_documents.paragraphs IS 'Body paragraphs found (a DOI''s abstract is one).';
COMMENT ON COLUMN paper_documents.reference_count IS 'Entries of the reference list (for a DOI: the publications of the graph it cites).';
COMMENT ON COLUMN paper_documents.captions IS 'Figure and table captions found.';
COMMENT ON COLUMN paper_documents.page_limit IS 'The page limit the PDF was held to (RECON_PAPER_PAGE_LIMIT); NULL for a DOI.';
COMMENT ON COLUMN paper_documents.recorded_at IS 'When the paper was read (UTC).';
