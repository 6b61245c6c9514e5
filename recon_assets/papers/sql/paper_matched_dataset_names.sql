-- The names of the datasets the paper $1 uses that matched a node of the graph, in the order it names them.
SELECT name FROM paper_datasets WHERE paper_key = $1 AND matched ORDER BY position
