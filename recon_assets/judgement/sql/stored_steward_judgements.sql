-- The steward_judgements table as `judgement.steward` reads it back, in the steward file's line order.
SELECT * FROM steward_judgements ORDER BY line
