-- The verdict question_verdicts holds for the question $1: verdict, rounds and when it was judged (no row: not judged).
SELECT verdict, rounds, judged_at FROM question_verdicts WHERE question_id = $1
