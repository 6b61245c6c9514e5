-- Published comments on the publications of each dataset's edges in the research areas $1, published by as_of's
-- year $2, with both citation tags and whether a reply answers the comment (for the contradiction check: DOMAIN.md,
-- recorded disputes count without the 2-year rule).
SELECT DISTINCT r.research_area,
       e.dataset_id,
       p.first_author_tag AS commented,
       coalesce(o.first_author_tag, '[' || coalesce(r.other_doi, r.other_key) || ', ' || r.other_year || ']') AS comment,
       EXISTS (
           SELECT 1 FROM recorded_disputes AS reply
           WHERE reply.research_area = r.research_area AND reply.publication_id = r.publication_id
             AND reply.relation = 'reply' AND reply.other_year <= $2
       ) AS answered
FROM recorded_disputes AS r
JOIN dataset_publication_edges AS e USING (publication_id)
JOIN publications AS p USING (publication_id)
LEFT JOIN publications AS o ON o.publication_id = r.other_key
WHERE list_contains($1, r.research_area) AND r.relation = 'comment' AND r.other_year <= $2
ORDER BY r.research_area, e.dataset_id, commented, comment
