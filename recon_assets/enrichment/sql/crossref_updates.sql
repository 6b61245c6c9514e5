-- The update notices crossref_cache holds for the DOIs $1 (a list), with when each DOI was checked.
SELECT doi, updates, checked_at
FROM crossref_cache
JOIN (SELECT unnest($1::VARCHAR[]) AS doi) AS wanted USING (doi)
