-- A table digest's figures (shared/data_versions.py) of table $1: (rows, sum of the 64-bit row hashes of every column
-- but those in the list $2, 0 without rows). DuckDB's hash() of the columns in the table's order; a sum, not an
-- xor, so duplicated rows do not cancel out.
SELECT count(*), coalesce(sum(hash(*COLUMNS(lambda c: NOT list_contains($2, c)))), 0) FROM query_table($1)
