-- The paper's ($1) claims to judge: position and text, in reading order.
SELECT position, text FROM paper_claims WHERE paper_key = $1 ORDER BY position
