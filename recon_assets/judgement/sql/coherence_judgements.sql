CREATE TABLE IF NOT EXISTS coherence_judgements (
    research_area        VARCHAR NOT NULL,
    dataset_id           VARCHAR NOT NULL,
    older_publication_id VARCHAR NOT NULL,
    newer_publication_id VARCHAR NOT NULL,
    similarity           DOUBLE,
    verdict              VARCHAR NOT NULL,
    coherence            DOUBLE NOT NULL,
    rationale            VARCHAR NOT NULL,
    judge                VARCHAR NOT NULL,
    prompt_version       VARCHAR,
    offline_verdict      VARCHAR,
    offline_coherence    DOUBLE,
    newer_centrality     DOUBLE NOT NULL,
    newer_via_successor  BOOLEAN NOT NULL,
    evidence_kind        VARCHAR NOT NULL,
    newer_citation       VARCHAR,
    newer_year           BIGINT,
    as_of                DATE NOT NULL,
    judged_at            TIMESTAMPTZ NOT NULL
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN coherence_judgements.research_area IS 'Partition: research area of the older publication.';
COMMENT ON COLUMN coherence_judgements.dataset_id IS 'The dataset of the judged edge (the older publication uses it).';
COMMENT ON COLUMN coherence_judgements.older_publication_id IS 'The publication whose edge is judged.';
COMMENT ON COLUMN coherence_judgements.newer_publication_id IS 'The newer work judged against it: one citing it (any date up to as_of; the KG''s CITES or OpenAlex''s list, ''openalex:W123'' when the KG lacks it), or one using the same dataset or its successor version in the window before as_of.';
COMMENT ON COLUMN coherence_judgements.similarity IS 'Cosine similarity of title+abstract embeddings (wordllama); NULL for a pair only a steward judged.';
COMMENT ON COLUMN coherence_judgements.verdict IS 'SUPPORTED, CONTRADICTED, SUPERSEDED or UNVERIFIED.';
COMMENT ON COLUMN coherence_judgements.coherence IS 'DOMAIN.md''s scale: 1.0 consensus, 0.7 refined, 0.5 debated (an LLM''s CONTRADICTED) or no stance (UNVERIFIED), 0.3 superseded, 0.1 contradicted; a steward''s own value.';
COMMENT ON COLUMN coherence_judgements.rationale IS 'Why: the cue quoted from the newer abstract and the similarity; ''removed before judging: ...'' names wording in either publication''s title or abstract that addressed the judge (judge_address) and that no judge read.';
COMMENT ON COLUMN coherence_judgements.judge IS 'Whose verdict the row holds: offline/<version> (verdict rules, cue file and embedding model), groq/<model> when the LLM judge answered the pair, steward/<name> when a data steward judged it (steward_judgements; precedence: steward, then LLM, then offline).';
COMMENT ON COLUMN coherence_judgements.prompt_version IS 'Prompt version of the LLM judgement (llm_prompt.PROMPT_VERSION); NULL for the offline judge''s.';
COMMENT ON COLUMN coherence_judgements.offline_verdict IS 'The machine verdict an LLM or steward judgement replaced; NULL when the row is the offline judge''s own or a pair only a steward judged.';
COMMENT ON COLUMN coherence_judgements.offline_coherence IS 'The coherence of that replaced verdict; NULL where offline_verdict is. An edge''s coherence is never above its value from these offline answers (issue 24: an LLM answer never lifts an edge).';
COMMENT ON COLUMN coherence_judgements.newer_centrality IS 'Centrality of the newer publication (its weight in the edge''s coherence).';
COMMENT ON COLUMN coherence_judgements.newer_via_successor IS 'The newer publication uses the dataset''s successor version (dataset_lineage), not the dataset itself.';
COMMENT ON COLUMN coherence_judgements.evidence_kind IS 'cites (the newer work cites the publication: judged at any date up to as_of, no similarity gate), same_dataset or successor_version (it uses the dataset, or its successor version, in the window before as_of), or steward (a pair only a steward judged).';
COMMENT ON COLUMN coherence_judgements.newer_citation IS 'Citation tag of the newer work (''[Chen et al., 2023]'').';
COMMENT ON COLUMN coherence_judgements.newer_year IS 'Publication year of the newer work.';
COMMENT ON COLUMN coherence_judgements.as_of IS 'The as_of the pair was judged against; its year sets the evidence window.';
COMMENT ON COLUMN coherence_judgements.judged_at IS 'When the pair was judged (UTC).';
