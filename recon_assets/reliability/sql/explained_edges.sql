-- `recon explain DOI`: every scored edge of the publication or dataset with this DOI ($1, canonical), with the
-- publication's title and what OpenAlex and Crossref answered for it in the edge's research area.
SELECT e.*, p.title, x.status AS crossref_status, o.error AS openalex_error
FROM edge_reliability AS e
LEFT JOIN publications AS p USING (publication_id)
LEFT JOIN openalex_works AS o ON o.research_area = e.research_area AND o.doi = e.publication_doi
LEFT JOIN crossref_retractions AS x ON x.research_area = e.research_area AND x.doi = e.publication_doi
WHERE e.publication_doi = $1 OR e.dataset_doi = $1
ORDER BY e.research_area, e.reliability DESC, e.dataset_short_name
