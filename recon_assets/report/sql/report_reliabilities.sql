-- reliability_report: every scored edge's reliability and label, for the reliability histogram.
SELECT reliability, label
FROM edge_reliability
ORDER BY reliability
