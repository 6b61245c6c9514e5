CREATE OR REPLACE TABLE dispute_evaluation_pairs (
    pair_id                  VARCHAR NOT NULL PRIMARY KEY,
    kind                     VARCHAR NOT NULL,
    original_doi             VARCHAR,
    newer_doi                VARCHAR,
    newer_title              VARCHAR,
    in_kg                    BOOLEAN NOT NULL,
    in_scope                 BOOLEAN NOT NULL,
    in_graph                 BOOLEAN NOT NULL,
    pipeline_judged          BOOLEAN NOT NULL,
    pipeline_verdicts        VARCHAR[],
    recorded_relations       VARCHAR[],
    pipeline_contradicted    BOOLEAN NOT NULL,
    pipeline_recorded        BOOLEAN NOT NULL,
    similarity               DOUBLE,
    content_verdict          VARCHAR,
    content_cue              VARCHAR,
    content_judged           BOOLEAN NOT NULL,
    title_relation           VARCHAR
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN dispute_evaluation_pairs.pair_id IS 'The labelled pair (labelled_pairs.csv): d-* a dispute, k-* a control.';
COMMENT ON COLUMN dispute_evaluation_pairs.kind IS 'dispute or control.';
COMMENT ON COLUMN dispute_evaluation_pairs.original_doi IS 'The original paper''s DOI (canonical); NULL when the dispute set never saw it printed.';
COMMENT ON COLUMN dispute_evaluation_pairs.newer_doi IS 'The comment''s, rebuttal''s or control paper''s DOI; NULL when unknown.';
COMMENT ON COLUMN dispute_evaluation_pairs.newer_title IS 'Its title.';
COMMENT ON COLUMN dispute_evaluation_pairs.in_kg IS 'Both papers are KG publications (by DOI; by exact title for a newer paper without one).';
COMMENT ON COLUMN dispute_evaluation_pairs.in_scope IS 'The original paper is an edge of the KG (it uses a NASA dataset the KG holds): the pipeline can judge the pair.';
COMMENT ON COLUMN dispute_evaluation_pairs.in_graph IS 'In scope, and the newer paper cites the original in the KG (publication_citations): the pairs the pipeline''s dispute catch and its control false-positive rate both run over.';
COMMENT ON COLUMN dispute_evaluation_pairs.pipeline_judged IS 'coherence_judgements holds the pair, or recorded_disputes names the newer paper against the original.';
COMMENT ON COLUMN dispute_evaluation_pairs.pipeline_verdicts IS 'The pipeline''s verdicts of the pair (any dataset).';
COMMENT ON COLUMN dispute_evaluation_pairs.recorded_relations IS 'The recorded relations of the newer paper to the original (comment, reply, correction).';
COMMENT ON COLUMN dispute_evaluation_pairs.pipeline_contradicted IS 'A judged verdict of the pair is CONTRADICTED.';
COMMENT ON COLUMN dispute_evaluation_pairs.pipeline_recorded IS 'A comment or reply links them in recorded_disputes.';
COMMENT ON COLUMN dispute_evaluation_pairs.similarity IS 'WordLlama cosine of the two papers'' title + abstract (abstracts only where openly licensed).';
COMMENT ON COLUMN dispute_evaluation_pairs.content_verdict IS 'The content judge on the pair''s texts, as for a citing work (no similarity gate): SUPPORTED, CONTRADICTED, SUPERSEDED, or UNVERIFIED without stance wording.';
COMMENT ON COLUMN dispute_evaluation_pairs.content_cue IS 'The cue phrase the verdict rests on; NULL without one.';
COMMENT ON COLUMN dispute_evaluation_pairs.content_judged IS 'The newer paper has a text to read.';
COMMENT ON COLUMN dispute_evaluation_pairs.title_relation IS 'What its title reads as against the original (comment / reply / correction); NULL when nothing.';
