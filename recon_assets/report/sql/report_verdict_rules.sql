-- reliability_report: the verdict rules dataset_verdicts were given with, and how many verdicts each.
SELECT verdict_rules, count(*) AS verdicts
FROM dataset_verdicts
GROUP BY verdict_rules
ORDER BY verdicts DESC, verdict_rules
