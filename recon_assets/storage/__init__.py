"""The storage seam: every table is read and written through `duckdb_store.TableStore` (a Dagster resource), every
report and export file through `outputs.OutputFiles`.

What depends on the SQL engine is in this folder: `duckdb_store` (connecting: a local DuckDB file or a MotherDuck
`md:` database, locking, and the operations each connection offers), `tables` (transactions, partition and table
replacement, upserts, the migration of tables an older version wrote), `schema` (a table as its DDL declares it and
as the database holds it), `ownership` (recon_assets' mark on its tables: no other program's table is replaced),
`duckdb_settings` (memory limit, spill folder)
and `duckdb_files` (telling a DuckDB file from its first bytes). The SQL files beside each domain are DuckDB's dialect,
which MotherDuck speaks too.
"""
