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
COMMENT ON COLUMN claim_verdicts.verdict IS 'SUPPORTED, CONTRADICTED or UNVERIFIED against the graph''s publications most similar to the claim, through the offline judge, Groq (online, opted in; an objection only) and the stewards'' pair judgements (papers.verdicts.judge_claim).';
COMMENT ON COLUMN claim_verdicts.evidence IS 'What decided it, quoted: the deciding work''s cue sentence about the claim (similarity to the claim at least 0.55, papers.verdicts.MIN_SENTENCE_SIMILARITY; offline judge), Groq''s quote of the work''s own stance wording, or the steward''s words, cut between words with "…" at a cut end; NULL when UNVERIFIED.';
COMMENT ON COLUMN claim_verdicts.evidence_key IS 'The deciding work (publications.publication_id); NULL when UNVERIFIED.';
COMMENT ON COLUMN claim_verdicts.evidence_doi IS 'Its canonical DOI; NULL when UNVERIFIED or it has none.';
COMMENT ON COLUMN claim_verdicts.similarity IS 'Cosine similarity of the claim to the deciding work (the best one when none decides), WordLlama embeddings as the offline judge uses; NULL with no publication to read.';
COMMENT ON COLUMN claim_verdicts.works_read IS 'Works of its nearest 5 judged: at or above the offline judge''s similarity gate (0.5), or below it with a Groq objection that counts or a steward''s judgement.';
COMMENT ON COLUMN claim_verdicts.why IS 'How the works read decided it (support and objection counts) and the deciding work''s rationale, or why nothing decided, naming stance wording found only in sentences not about the claim, with their similarity.';
COMMENT ON COLUMN claim_verdicts.judge IS 'Who judged the deciding work: the offline judge''s id (offline/<rules>+<cues>+<embedding model>), groq/<model> or steward/<name>; for UNVERIFIED, every judge whose reading counted (''; ''-joined), the offline judge''s id when none read a work.';
COMMENT ON COLUMN claim_verdicts.flags IS 'rests on a replaced dataset version (it names a dataset of paper_datasets whose version is replaced, or is the sentence it was found in), rests on a paper labelled SUPERSEDED (it cites a reference whose publication has a SUPERSEDED edge in edge_reliability) and/or rests on a paper a steward judged contradicted or superseded (a steward objection on a work it cites, on the paper itself, or on its deciding work); empty when none.';
COMMENT ON COLUMN claim_verdicts.flag_reasons IS 'One per flag, in order: the dataset''s lifecycle line (paper_datasets.lifecycle), [reference number] and the edge''s reason (edge_reliability.reason), or the work, the steward''s verdict and words.';
