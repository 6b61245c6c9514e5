-- The path of the database file the connection writes (one column; NULL for an in-memory database).
SELECT path FROM duckdb_databases() WHERE database_name = current_database()
