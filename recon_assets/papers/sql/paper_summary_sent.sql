-- `recon paper`'s summary: what paper $1's stages sent online, per service: requests, tokens answered and the stages.
SELECT service, sum(requests), sum(prompt_tokens + completion_tokens), string_agg(stage, ', ' ORDER BY stage)
FROM paper_llm_use WHERE paper_key = $1 AND sent GROUP BY service ORDER BY service
