-- The question's ($1) verdict with its reason and the as_of it was judged on (question_verdicts).
SELECT verdict, reason, as_of FROM question_verdicts WHERE question_id = $1
