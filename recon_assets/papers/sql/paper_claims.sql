CREATE TABLE IF NOT EXISTS paper_claims (
    paper_key  VARCHAR NOT NULL,
    position   INTEGER NOT NULL,
    text       VARCHAR NOT NULL,
    section    VARCHAR NOT NULL,
    page       INTEGER NOT NULL,
    claim_type VARCHAR NOT NULL,
    confidence DOUBLE NOT NULL,
    results    VARCHAR[] NOT NULL,
    novelty    VARCHAR NOT NULL,
    extractor  VARCHAR NOT NULL,
    PRIMARY KEY (paper_key, position)
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN paper_claims.paper_key IS 'The paper (paper_documents.paper_key).';
COMMENT ON COLUMN paper_claims.position IS 'Order in the paper, from 1.';
COMMENT ON COLUMN paper_claims.text IS 'The claim: the sentence quoted as the paper states it (online, the LLM''s quote, kept only when found in the paper''s text).';
COMMENT ON COLUMN paper_claims.section IS 'The heading it is under, as the parse found it.';
COMMENT ON COLUMN paper_claims.page IS 'The 1-based page of its paragraph.';
COMMENT ON COLUMN paper_claims.claim_type IS 'METHODOLOGICAL, EMPIRICAL, THEORETICAL or COMPARATIVE.';
COMMENT ON COLUMN paper_claims.confidence IS 'How firmly it is stated, 0-1 (offline: 0.5, +0.2 with a number and unit, +0.1 strong verb, -0.2 hedge; papers.claims.claim_confidence; online: the LLM''s, validated within 0-1).';
COMMENT ON COLUMN paper_claims.results IS 'The numbers with units and statistics it states (1.2 mm/day, R2 = 0.85).';
COMMENT ON COLUMN paper_claims.novelty IS 'Its novelty: online the LLM''s NEW, INCREMENTAL or CONFIRMATORY; ''not assessed'' offline (it needs the literature and judgement).';
COMMENT ON COLUMN paper_claims.extractor IS 'What found it: the offline deterministic extractor (cue words, numbers with units), said so, or the LLM (groq/<model>, prompt version; quote found in the paper''s text).';
