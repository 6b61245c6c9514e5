-- The rows of table $1 (one column).
SELECT count(*) FROM query_table($1)
