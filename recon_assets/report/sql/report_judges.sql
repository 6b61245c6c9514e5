-- reliability_report: the judges whose verdicts coherence rests on (coherence_judgements), pairs per judge and
-- prompt version.
SELECT judge, prompt_version, count(*) AS pairs
FROM coherence_judgements
GROUP BY judge, prompt_version
ORDER BY pairs DESC, judge, prompt_version
