-- Drop the current snapshot's nodes and relationships before kg_snapshot.sql makes them again: refilled in the
-- transaction that deleted them, DuckDB checks each new primary key against the deleted rows.
DROP TABLE kg_nodes;
DROP TABLE kg_relationships;
