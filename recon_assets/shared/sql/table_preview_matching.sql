-- At most $4 rows of table $1 whose columns named in the struct $2 hold its values (as table_row_count_matching), its
-- columns in the list $3 (NULL: every column), in the table's order (a preview: which rows is DuckDB's choice).
SELECT COLUMNS(lambda c: $3::VARCHAR[] IS NULL OR list_contains($3, c))
FROM query_table($1) NATURAL SEMI JOIN (SELECT unnest($2))
LIMIT $4
