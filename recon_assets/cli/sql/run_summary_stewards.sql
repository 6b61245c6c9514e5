-- `recon run`'s summary: the steward judgements read, per status.
SELECT status, count(*) FROM steward_judgements GROUP BY 1 ORDER BY 1
