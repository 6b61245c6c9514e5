-- At most $3 rows of table $1 whose columns named in the struct $2 hold its values (as table_row_count_matching),
-- every column in the table's order (a preview: which rows is DuckDB's choice).
SELECT * FROM query_table($1) NATURAL SEMI JOIN (SELECT unnest($2)) LIMIT $3
