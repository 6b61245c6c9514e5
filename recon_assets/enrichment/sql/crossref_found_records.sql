-- The Crossref records crossref_record_cache holds for the DOIs $1 (a list): DOI and record (JSON text), found ones only.
SELECT doi, record
FROM crossref_record_cache
JOIN (SELECT unnest($1::VARCHAR[]) AS doi) AS asked USING (doi)
WHERE status = 'found'
