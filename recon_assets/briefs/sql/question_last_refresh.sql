-- The question's ($1) latest refresh in question_verdict_history: its verdict and the cited papers' labels.
SELECT verdict, cited_labels FROM question_verdict_history WHERE question_id = $1 ORDER BY refreshed_at DESC LIMIT 1
