-- The research areas with edges in edge_reliability but no verdict in dataset_verdicts, sorted (one column).
SELECT DISTINCT research_area FROM edge_reliability
WHERE research_area NOT IN (SELECT research_area FROM dataset_verdicts) ORDER BY 1
