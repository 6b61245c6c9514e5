-- `recon ask`: the scope question $1's plan resolved (dataset ids or NULL), its note and why nothing is in scope.
SELECT scope_datasets, note, scope_problem FROM question_plans WHERE question_id = $1 ORDER BY position LIMIT 1
