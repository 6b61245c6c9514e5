-- reliability_report: the default setting's measures over all labelled I and F cases (reliability_evaluation), per condition.
SELECT condition, measure, value, numerator, denominator, ci_low, ci_high
FROM reliability_evaluation
WHERE is_default AND split = 'all' AND case_set = 'IF'
ORDER BY condition, measure
