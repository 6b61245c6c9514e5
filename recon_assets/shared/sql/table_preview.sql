-- At most $2 rows of table $1, every column in the table's order (a preview: which rows is DuckDB's choice).
SELECT * FROM query_table($1) LIMIT $2
