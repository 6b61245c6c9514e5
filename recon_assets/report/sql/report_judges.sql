-- reliability_report: the judges of coherence_judgements, pairs per judge and prompt version, and how many of them
-- state a stance (not UNVERIFIED: a pair without stance wording is read, but is no evidence).
SELECT judge, prompt_version, count(*) AS pairs, count(*) FILTER (verdict <> 'UNVERIFIED') AS stance_pairs
FROM coherence_judgements
GROUP BY judge, prompt_version
ORDER BY pairs DESC, judge, prompt_version
