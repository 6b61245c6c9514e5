-- reliability_report: (research area, dataset) verdicts per verdict string (dataset_verdicts).
SELECT verdict, count(*) AS verdicts
FROM dataset_verdicts
GROUP BY verdict
ORDER BY verdict
