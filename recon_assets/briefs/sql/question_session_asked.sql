-- The latest $3 questions asked in the session $1 before the question $2 (question_sessions), newest first.
SELECT question FROM question_sessions WHERE session = $1 AND question_id <> $2 ORDER BY asked_at DESC LIMIT $3
