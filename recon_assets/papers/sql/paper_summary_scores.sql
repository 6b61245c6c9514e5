-- `recon paper`'s summary: the scores of paper $1 with how each was computed.
SELECT score, value, how FROM paper_scores WHERE paper_key = $1
