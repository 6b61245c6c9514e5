-- `recon run`'s summary: dataset verdicts (per research area) per verdict, most first.
SELECT verdict, count(*) FROM dataset_verdicts GROUP BY 1 ORDER BY 2 DESC
