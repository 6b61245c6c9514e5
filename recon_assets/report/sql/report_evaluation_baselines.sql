-- reliability_report: the default beside each baseline rule on the same cases (reliability_evaluation_baselines),
-- all cases of the headline case sets; evaluation.measure.comparison_table lays them out.
SELECT *
FROM reliability_evaluation_baselines
WHERE split = 'all' AND case_set IN ('IF', 'I')
ORDER BY condition, case_set, measure, rule
