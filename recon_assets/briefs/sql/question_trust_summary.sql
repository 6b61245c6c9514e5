-- The trust summary of the question's ($1) brief (research_briefs): one line per cited paper.
SELECT trust_summary FROM research_briefs WHERE question_id = $1
