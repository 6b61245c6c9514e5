-- `recon paper`'s summary: why paper $1's stages sent nothing online (the first stage's summary).
SELECT summary FROM paper_llm_use WHERE paper_key = $1 AND NOT sent ORDER BY stage LIMIT 1
