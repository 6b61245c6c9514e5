-- Check openalex_match_rate, per research area of openalex_works: (research_area, found, not_found, mismatch, error,
-- answered: every status but error).
SELECT research_area,
       count(*) FILTER (status = 'found'), count(*) FILTER (status = 'not_found'), count(*) FILTER (status = 'mismatch'),
       count(*) FILTER (status = 'error'), count(*) FILTER (status <> 'error')
FROM openalex_works GROUP BY 1 ORDER BY 1
