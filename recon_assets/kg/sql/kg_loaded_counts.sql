-- Rows in kg_nodes and kg_relationships (the snapshot loaded last is all there when they are its accepted counts).
SELECT (SELECT count(*) FROM kg_nodes), (SELECT count(*) FROM kg_relationships)
