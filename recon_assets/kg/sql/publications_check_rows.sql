-- The publications columns the year and DOI coverage checks read, every row: (publication_id, year, doi, doi_raw,
-- node_ids).
SELECT publication_id, year, doi, doi_raw, node_ids FROM publications
