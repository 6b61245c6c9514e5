-- How many CITES relationships kg_citation_pairs holds, and how many of them cite their own publication once merged
-- (dropped from publication_citations).
SELECT count(*), count(*) FILTER (citing_publication_id = cited_publication_id) FROM kg_citation_pairs
