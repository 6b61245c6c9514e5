CREATE TABLE IF NOT EXISTS paper_llm_use (
    paper_key          VARCHAR NOT NULL,
    stage              VARCHAR NOT NULL,
    sent               BOOLEAN NOT NULL,
    service            VARCHAR,
    model              VARCHAR,
    outcome            VARCHAR NOT NULL,
    requests           INTEGER NOT NULL,
    cached_answers     INTEGER NOT NULL,
    prompt_tokens      INTEGER NOT NULL,
    completion_tokens  INTEGER NOT NULL,
    paragraphs_sent    INTEGER NOT NULL,
    paragraphs_offline INTEGER NOT NULL,
    claims_dropped     INTEGER NOT NULL,
    drop_reasons       VARCHAR[] NOT NULL,
    removed            VARCHAR[] NOT NULL,
    value              DOUBLE,
    rationale          VARCHAR,
    reason             VARCHAR,
    summary            VARCHAR NOT NULL,
    PRIMARY KEY (paper_key, stage)
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN paper_llm_use.paper_key IS 'The paper (paper_documents.paper_key).';
COMMENT ON COLUMN paper_llm_use.stage IS 'claims (the paper''s claims read by the LLM) or argumentation (its 0-10 argumentation score), written by paper_claims; datasets (the LLM''s reading of the data statements, checked by the rules, written by paper_datasets), keywords (the LLM''s refinement of the TF-IDF terms, written by paper_keywords) and claim_verdicts (Groq''s pair judge on the claims'' works, written by claim_verdicts), each only when it could send (opted in, Groq online); citation_gaps_search (OpenAlex search for citation gaps, written by paper_citation_gaps when OpenAlex is online); doi_lookup (a DOI the graph lacks read from OpenAlex, written by paper_documents).';
COMMENT ON COLUMN paper_llm_use.sent IS 'Whether anything of the paper was sent in this run: its text to Groq or search texts from its terms to OpenAlex (only with RECON_PAPERS_ONLINE=online and the service online); for doi_lookup, its DOI and cited work ids (public identifiers, OpenAlex online).';
COMMENT ON COLUMN paper_llm_use.service IS 'Groq, or OpenAlex search / OpenAlex with its API root, when something was sent or a stored answer to it reused; NULL when nothing went out.';
COMMENT ON COLUMN paper_llm_use.model IS 'The Groq models that answered (stored answers included), comma-separated; NULL when none.';
COMMENT ON COLUMN paper_llm_use.outcome IS 'llm (the LLM''s reading is used), llm and offline (some chunks kept the offline extractor''s claims), offline fallback (asked, no usable answer) or not sent; for the OpenAlex stages searched, looked up, cached (answered from a stored answer) or not sent.';
COMMENT ON COLUMN paper_llm_use.requests IS 'HTTP requests made to the service for this stage in this run, retries included.';
COMMENT ON COLUMN paper_llm_use.cached_answers IS 'Answers reused from llm_answers or paper_search_cache (the same asked before): no request.';
COMMENT ON COLUMN paper_llm_use.prompt_tokens IS 'Prompt tokens of the answered requests (Groq usage).';
COMMENT ON COLUMN paper_llm_use.completion_tokens IS 'Completion tokens of the answered requests.';
COMMENT ON COLUMN paper_llm_use.paragraphs_sent IS 'Paragraphs sent in this run: for the claims stage the claim paragraphs (the references, acknowledgements, funding and data statements are never sent); for the datasets stage the paragraphs that state data.';
COMMENT ON COLUMN paper_llm_use.paragraphs_offline IS 'For the claims stage, claim paragraphs whose claims are the offline extractor''s (their chunk''s request failed or was not sent, its answer was unusable, or they came after the chunk limit); for the datasets stage, paragraphs stating data that the bounds left out (the rules read every paragraph).';
COMMENT ON COLUMN paper_llm_use.claims_dropped IS 'Claims of the answers dropped: a quote not in the paper''s text, an entry that does not validate, a repeated quote, beyond 12 a chunk; for keywords, entries rejected (neither a TF-IDF term nor a GCMD keyword of the graph, ...); for claim_verdicts, pair answers unusable.';
COMMENT ON COLUMN paper_llm_use.drop_reasons IS 'Why each was dropped (paragraph range and reason).';
COMMENT ON COLUMN paper_llm_use.removed IS 'Wording addressing a model (judgement.judge_address) removed from paragraphs before anything was sent: paragraph, page and the wording.';
COMMENT ON COLUMN paper_llm_use.value IS 'argumentation: the LLM''s score, 0-10 (validated); NULL for claims or when not assessed.';
COMMENT ON COLUMN paper_llm_use.rationale IS 'argumentation: the LLM''s one sentence of why.';
COMMENT ON COLUMN paper_llm_use.reason IS 'Why text was not sent, or why the offline extractor''s claims or no argumentation were kept; NULL when none.';
COMMENT ON COLUMN paper_llm_use.summary IS 'What was sent where, in one line (the report prints it).';
