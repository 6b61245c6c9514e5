-- The column names of table $1 in the table's order, from DuckDB's catalog (no row when there is no such table).
SELECT column_name FROM duckdb_columns() WHERE table_name = $1 ORDER BY column_index
