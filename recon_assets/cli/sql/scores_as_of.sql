-- The as_of of the database's scores (recon ask's default as_of: cli.ask.brief_as_of); NULL when no edge is scored.
SELECT max(as_of) FROM edge_reliability
