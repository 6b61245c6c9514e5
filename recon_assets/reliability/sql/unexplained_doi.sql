-- `recon explain DOI` when the DOI ($1, canonical) has no scored edge, to say why: how many publications and datasets
-- hold it, how many Dataset->Publication edges it has in the typed tables, its publication year, and the scores' as_of.
SELECT
    (SELECT count(*) FROM publications WHERE doi = $1) + (SELECT count(*) FROM datasets WHERE doi = $1) AS known,
    (SELECT count(*) FROM dataset_publication_edges JOIN publications AS p USING (publication_id)
        JOIN datasets AS d USING (dataset_id) WHERE p.doi = $1 OR d.doi = $1) AS edges,
    (SELECT max(year) FROM publications WHERE doi = $1) AS year,
    (SELECT max(as_of) FROM edge_reliability) AS scored_as_of
