-- reliability_report: the measures on the labelled dispute pairs (dispute_evaluation).
SELECT measure, what, value, numerator, denominator, ci_low, ci_high, target, met
FROM dispute_evaluation
ORDER BY measure
