-- `recon run`'s summary: the default settings' figures on the labelled I and F cases for the measures $1 (a list),
-- online before offline.
SELECT condition, measure, numerator, denominator FROM reliability_evaluation
WHERE is_default AND split = 'all' AND case_set = 'IF' AND list_contains($1, measure)
ORDER BY condition DESC
