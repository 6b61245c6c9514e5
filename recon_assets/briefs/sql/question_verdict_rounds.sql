-- The rounds of the question's ($1) judging at $2 (question_verdict_log), in order: each round's subquestions and the
-- evidence it judged with its similarity.
SELECT subquestions, evidence_ids, evidence_semantic FROM question_verdict_log WHERE question_id = $1 AND judged_at = $2 ORDER BY round
