-- Check openalex_retracted_share, per research area of the found openalex_works: (research_area, retracted works,
-- retraction notices left out; found works).
SELECT research_area, count(*) FILTER (is_retracted AND NOT is_retraction_notice), count(*)
FROM openalex_works WHERE status = 'found' GROUP BY 1 ORDER BY 1
