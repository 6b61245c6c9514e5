-- When each of the DOIs $1 (a list) was last checked in crossref_record_cache.
SELECT doi, checked_at
FROM crossref_record_cache
JOIN (SELECT unnest($1::VARCHAR[]) AS doi) AS held USING (doi)
