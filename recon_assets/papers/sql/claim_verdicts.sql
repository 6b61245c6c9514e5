CREATE TABLE IF NOT EXISTS claim_verdicts (
    paper_key       VARCHAR NOT NULL,
    position        INTEGER NOT NULL,
    verdict         VARCHAR NOT NULL,
    evidence        VARCHAR,
    evidence_key    VARCHAR,
    evidence_doi    VARCHAR,
    similarity      DOUBLE,
    works_read      INTEGER NOT NULL,
    why             VARCHAR NOT NULL,
    judge           VARCHAR NOT NULL,
    flags           VARCHAR[] NOT NULL,
    flag_reasons    VARCHAR[] NOT NULL,
    PRIMARY KEY (paper_key, position)
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN claim_verdicts.paper_key IS 'The paper (paper_documents.paper_key).';
COMMENT ON COLUMN claim_verdicts.position IS 'The claim judged (paper_claims.position).';
COMMENT ON COLUMN claim_verdicts.verdict IS 'SUPPORTED, CONTRADICTED or UNVERIFIED against the graph''s publications most similar to the claim (papers.verdicts.judge_claim).';
COMMENT ON COLUMN claim_verdicts.evidence IS 'The deciding work''s sentence that decided it, quoted (its cue wording); NULL when UNVERIFIED.';
COMMENT ON COLUMN claim_verdicts.evidence_key IS 'The deciding work (publications.publication_id); NULL when UNVERIFIED.';
COMMENT ON COLUMN claim_verdicts.evidence_doi IS 'Its canonical DOI; NULL when UNVERIFIED or it has none.';
COMMENT ON COLUMN claim_verdicts.similarity IS 'Cosine similarity of the claim to the deciding work (the best one when none decides), WordLlama embeddings as the offline judge uses; NULL with no publication to read.';
COMMENT ON COLUMN claim_verdicts.works_read IS 'Works of its nearest 5 at or above the offline judge''s similarity gate (0.5), each judged.';
COMMENT ON COLUMN claim_verdicts.why IS 'How the works read decided it (support and objection counts) and the deciding work''s rationale, or why nothing decided.';
COMMENT ON COLUMN claim_verdicts.judge IS 'Who judged: the offline judge''s id (offline/<rules>+<cues>+<embedding model>); Groq and steward judgements of claims are not built.';
COMMENT ON COLUMN claim_verdicts.flags IS 'rests on a replaced dataset version (it names a dataset of paper_datasets whose version is replaced, or is the sentence it was found in) and/or rests on a paper labelled SUPERSEDED (it cites a reference whose publication has a SUPERSEDED edge in edge_reliability); empty when none.';
COMMENT ON COLUMN claim_verdicts.flag_reasons IS 'One per flag, in order: the dataset''s lifecycle line (paper_datasets.lifecycle), or [reference number] and the edge''s reason (edge_reliability.reason).';
