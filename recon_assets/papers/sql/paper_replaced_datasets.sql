-- The datasets the paper $1 uses on a replaced version, matched or not (a version the graph lacks that the lifecycle
-- replaces), as `papers.verdicts.ReplacedDataset`s: name, quote, lifecycle line.
SELECT name, quote, lifecycle FROM paper_datasets WHERE paper_key = $1 AND superseded ORDER BY position
