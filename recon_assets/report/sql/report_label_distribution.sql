-- reliability_report: scored edges per research area and label (edge_reliability), every area in the table.
SELECT research_area, label, count(*) AS edges
FROM edge_reliability
GROUP BY research_area, label
ORDER BY research_area, label
