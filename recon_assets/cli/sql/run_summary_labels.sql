-- `recon run`'s summary: edges scored per label, most first.
SELECT label, count(*) FROM edge_reliability GROUP BY 1 ORDER BY 2 DESC
