-- Check dataset_verdicts_one_valid_per_dataset, per research area that has verdicts (an area with edges but no verdict
-- at all is not compared: a run of one partition judges only its own): (research_area, datasets with edges in
-- edge_reliability, verdicts, datasets missing a verdict, datasets with more than one, verdicts not in the list $1,
-- the failing dataset ids sorted, NULL when none fails).
WITH edges AS (SELECT DISTINCT research_area, dataset_id FROM edge_reliability
               WHERE research_area IN (SELECT research_area FROM dataset_verdicts)),
     verdicts AS (SELECT research_area, dataset_id, count(*) AS n,
                         count(*) FILTER (NOT list_contains($1, verdict)) AS invalid
                  FROM dataset_verdicts GROUP BY ALL)
SELECT research_area,
       count(e.dataset_id) AS datasets,
       coalesce(sum(v.n), 0) AS verdicts,
       count(*) FILTER (v.n IS NULL) AS missing,
       count(*) FILTER (v.n > 1) AS duplicated,
       coalesce(sum(v.invalid), 0) AS invalid,
       list(coalesce(e.dataset_id, v.dataset_id) ORDER BY coalesce(e.dataset_id, v.dataset_id))
           FILTER (v.n IS NULL OR v.n > 1 OR v.invalid > 0) AS failing
FROM edges AS e FULL JOIN verdicts AS v USING (research_area, dataset_id)
GROUP BY research_area ORDER BY research_area
