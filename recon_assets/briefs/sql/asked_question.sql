-- The ad-hoc question $1 as asked_questions records it: its text and datasets (no row: never asked).
SELECT question, datasets FROM asked_questions WHERE question_id = $1
