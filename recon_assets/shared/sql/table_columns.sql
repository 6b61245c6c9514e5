-- The columns of table $1 (a name the code gives, resolved as an unqualified table name is), in the table's order:
-- (column_name, column_type as DuckDB's DESCRIBE gives it: VARCHAR, DECIMAL(18,3), STRUCT(x INTEGER), ...).
SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM query_table($1))
