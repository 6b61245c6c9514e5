-- At most $3 rows of table $1, its columns in the list $2 (NULL: every column), in the table's order (a preview:
-- which rows is DuckDB's choice).
SELECT COLUMNS(lambda c: $2::VARCHAR[] IS NULL OR list_contains($2, c)) FROM query_table($1) LIMIT $3
