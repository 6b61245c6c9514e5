CREATE TABLE IF NOT EXISTS research_briefs (
    question_id   VARCHAR NOT NULL PRIMARY KEY,
    question      VARCHAR NOT NULL,
    verdict       VARCHAR NOT NULL,
    extractive    BOOLEAN NOT NULL,
    note          VARCHAR NOT NULL,
    trust_summary VARCHAR[] NOT NULL,
    cited         VARCHAR[] NOT NULL,
    cited_trust   VARCHAR[] NOT NULL,
    markdown      VARCHAR NOT NULL,
    markdown_path VARCHAR NOT NULL,
    html_path     VARCHAR NOT NULL,
    as_of         DATE NOT NULL,
    written_at    TIMESTAMP NOT NULL,
    llm_model     VARCHAR,
    llm_requests  INTEGER NOT NULL,
    llm_tokens    INTEGER NOT NULL,
    brief_llm_requests INTEGER NOT NULL,
    brief_llm_tokens   INTEGER NOT NULL
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN research_briefs.question_id IS 'Partition: the question.';
COMMENT ON COLUMN research_briefs.question IS 'Its text.';
COMMENT ON COLUMN research_briefs.verdict IS 'The critic''s verdict the brief reports (question_verdicts.verdict).';
COMMENT ON COLUMN research_briefs.extractive IS 'True for the offline brief: sentences quoted from the evidence''s abstracts, no language model.';
COMMENT ON COLUMN research_briefs.note IS 'How it was written (extractive, or by a model with every citation checked), and why a model''s answer was not used.';
COMMENT ON COLUMN research_briefs.trust_summary IS 'One line per cited paper: [Author et al., Year]  Network reliability: LEVEL. Reason: its edge''s dataset, label, reliability and reason.';
COMMENT ON COLUMN research_briefs.cited IS 'The cited papers'' tags, in the trust summary''s order.';
COMMENT ON COLUMN research_briefs.cited_trust IS 'Their trust levels (HIGH, MEDIUM, LOW, UNASSESSED), in the same order.';
COMMENT ON COLUMN research_briefs.markdown IS 'The brief as Markdown: Overview, Key Findings, Active Debates, Outlook (each claim with its confidence and citations), then the trust summary.';
COMMENT ON COLUMN research_briefs.markdown_path IS 'The Markdown file written: reports/<database>/briefs/brief_<question_id>.md.';
COMMENT ON COLUMN research_briefs.html_path IS 'The HTML page written beside it, in the reliability report''s style.';
COMMENT ON COLUMN research_briefs.as_of IS 'The run''s as_of.';
COMMENT ON COLUMN research_briefs.written_at IS 'When it was written (UTC).';
COMMENT ON COLUMN research_briefs.llm_model IS 'The Groq model whose brief answer was used or rejected; NULL offline or when no answer came.';
COMMENT ON COLUMN research_briefs.llm_requests IS 'HTTP requests the LLM synthesizer made for this brief (retries count): 0 offline, when not asked, or when its answer came from llm_answers.';
COMMENT ON COLUMN research_briefs.llm_tokens IS 'Tokens (prompt + completion, Groq''s usage) of the synthesizer''s answering request; 0 without one.';
COMMENT ON COLUMN research_briefs.brief_llm_requests IS 'HTTP requests made for the whole brief: the planner''s (question_plans.llm_requests) and the synthesizer''s.';
COMMENT ON COLUMN research_briefs.brief_llm_tokens IS 'Tokens spent on the whole brief: the planner''s and the synthesizer''s.';
