-- The column names of table $1 in the table's order, from DuckDB's catalog (no row when there is no such table): the
-- table an unqualified name reads, in the current database and schema (a user's table of that name in another schema
-- is not it: hostile pass 29).
SELECT column_name FROM duckdb_columns()
WHERE database_name = current_database() AND schema_name = current_schema() AND table_name = $1
ORDER BY column_index
