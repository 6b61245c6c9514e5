-- Record the ad-hoc question $1 (text $2, datasets $3, asked at $4) once: a question already recorded keeps its row.
INSERT INTO asked_questions VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING
