CREATE TABLE IF NOT EXISTS paper_keywords (
    paper_key    VARCHAR NOT NULL,
    rank         INTEGER NOT NULL,
    term         VARCHAR NOT NULL,
    weight       DOUBLE NOT NULL,
    keyword_id   VARCHAR,
    keyword_name VARCHAR,
    match        VARCHAR,
    method       VARCHAR NOT NULL,
    PRIMARY KEY (paper_key, rank)
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN paper_keywords.paper_key IS 'The paper (paper_documents.paper_key).';
COMMENT ON COLUMN paper_keywords.rank IS 'Rank by weight, from 1 (ties by term).';
COMMENT ON COLUMN paper_keywords.term IS 'A word or pair of words of the paper (lower case; English stop words left out); refined online, a TF-IDF term or a GCMD keyword of the graph the LLM kept.';
COMMENT ON COLUMN paper_keywords.weight IS 'Its TF-IDF weight in the paper against the graph''s publications'' titles and abstracts, in [0, 1] (sublinear tf, L2-normalised row; papers.keywords); refined online, the highest weight of its term and the terms merged into it.';
COMMENT ON COLUMN paper_keywords.keyword_id IS 'The GCMD ScienceKeyword it fits (science_keywords.keyword_id); NULL when none of the graph''s does.';
COMMENT ON COLUMN paper_keywords.keyword_name IS 'That keyword''s name (science_keywords.name); NULL when none fits.';
COMMENT ON COLUMN paper_keywords.match IS 'How it fits: same words (same Snowball stems in order), term in keyword (its stems a run of the keyword''s) or keyword in term (the keyword''s stems a run of its); LLM (mapped by the LLM''s refinement to a keyword of the graph); NULL when none fits.';
COMMENT ON COLUMN paper_keywords.method IS 'What found it: offline TF-IDF against the graph''s publications, or the LLM''s refinement of those terms (online, opted in: LLM refinement (<model>, <prompt version>) of the offline TF-IDF ...; papers.llm_keywords).';
