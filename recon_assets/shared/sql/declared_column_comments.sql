-- The columns the declaring file run in schema $1 created, with their meanings (COMMENT ON COLUMN), in the order it
-- created the tables and their columns: (table_name, column_name, comment).
SELECT table_name, column_name, comment FROM duckdb_columns() WHERE NOT internal AND schema_name = $1
ORDER BY table_oid, column_index
