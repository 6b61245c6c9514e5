CREATE TABLE IF NOT EXISTS question_verdict_log (
    question_id       VARCHAR NOT NULL,
    judged_at         TIMESTAMP NOT NULL,
    round             INTEGER NOT NULL,
    verdict           VARCHAR NOT NULL,
    unresolved        VARCHAR,
    age_rule_verdict  VARCHAR NOT NULL,
    rewrite           VARCHAR,
    decay             VARCHAR NOT NULL,
    retries           INTEGER NOT NULL,
    latency_seconds   DOUBLE NOT NULL,
    judge             VARCHAR NOT NULL,
    subquestions      VARCHAR[] NOT NULL,
    papers            INTEGER NOT NULL,
    evidence_ids      VARCHAR[] NOT NULL,
    evidence_semantic DOUBLE[] NOT NULL,
    reason            VARCHAR NOT NULL,
    as_of             DATE NOT NULL,
    openalex_added    INTEGER,
    openalex_search   VARCHAR,
    PRIMARY KEY (question_id, judged_at, round)
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN question_verdict_log.question_id IS 'The question.';
COMMENT ON COLUMN question_verdict_log.judged_at IS 'When the materialization that ran this round started judging (UTC); every round of it shares it. Kept across runs.';
COMMENT ON COLUMN question_verdict_log.round IS 'The round: 0 the plan''s retrieval, then one per rewrite.';
COMMENT ON COLUMN question_verdict_log.verdict IS 'PASS, STALE, CONTRADICTED, INSUFFICIENT or FORCED_PASS (DOMAIN.md "Verdicts over an evidence set", on the question''s evidence).';
COMMENT ON COLUMN question_verdict_log.unresolved IS 'The verdict a FORCED_PASS stands in for; else NULL.';
COMMENT ON COLUMN question_verdict_log.age_rule_verdict IS 'The verdict with RECON''s staleness rule (mean age over 24 months) in place of the edge scores, for comparison.';
COMMENT ON COLUMN question_verdict_log.rewrite IS 'The rewrite strategy of the next round (broaden, recent, probe_contradiction); NULL when none follows.';
COMMENT ON COLUMN question_verdict_log.decay IS 'The retrieval score''s recency decay: none, linear or log.';
COMMENT ON COLUMN question_verdict_log.retries IS 'Rewrite rounds run before this one (the retry ceiling is 2).';
COMMENT ON COLUMN question_verdict_log.latency_seconds IS 'Seconds this round took (a rewrite round''s OpenAlex search, retrieval, merge and judging).';
COMMENT ON COLUMN question_verdict_log.judge IS 'Who judged: the critic over the edge scores (offline, deterministic).';
COMMENT ON COLUMN question_verdict_log.subquestions IS 'The sub-questions this round retrieved with (round 0: the question''s plan, besides the question itself).';
COMMENT ON COLUMN question_verdict_log.papers IS 'Papers in the merged evidence judged.';
COMMENT ON COLUMN question_verdict_log.evidence_ids IS 'The KG publication ids of that evidence (a paper found only in OpenAlex: its canonical DOI), best hybrid score first.';
COMMENT ON COLUMN question_verdict_log.evidence_semantic IS 'Their semantic similarity (best over the rounds'' sub-questions), in the same order.';
COMMENT ON COLUMN question_verdict_log.reason IS 'The verdict and every check''s finding: staleness, contradiction, sufficiency, RECON''s age rule.';
COMMENT ON COLUMN question_verdict_log.as_of IS 'The run''s as_of.';
COMMENT ON COLUMN question_verdict_log.openalex_added IS 'OpenAlex works this round added to the retrieval pool (their DOI was not in it; merged by DOI): round 0 those of question_evidence''s search of the question and its plan, a rewrite round those of its search of its rewritten sub-questions (online; offline only answers an online run cached). 0 when none; NULL in rows judged before it was recorded.';
COMMENT ON COLUMN question_verdict_log.openalex_search IS 'What the round''s OpenAlex search did: queries searched, cached, failed or not sent and why, requests and list calls of the shared daily budget (a rewrite round''s failed search adds nothing: the round is judged over the pool it had). NULL in rows judged before it was recorded.';
