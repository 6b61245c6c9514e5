-- The question's ($1) round-0 candidates as question_evidence holds them, by rank: each paper (its publication id, or
-- for a paper found only in OpenAlex its DOI, the paper_key) with its stored similarity.
SELECT coalesce(publication_id, paper_key), semantic FROM question_evidence WHERE question_id = $1 ORDER BY rank
