-- What the critic's contradiction check reads about the pool ($1, a list of publication ids): the pairs the project's
-- judges found CONTRADICTED (kind 'contradiction': older, newer) and the recorded comments on a pool publication whose
-- comment is a KG publication (kind 'comment': commented, comment, answered when a reply to the commented paper is
-- recorded).
SELECT DISTINCT 'contradiction' AS kind, older_publication_id AS first_id, newer_publication_id AS second_id, false AS answered
FROM coherence_judgements
WHERE verdict = 'CONTRADICTED' AND list_contains($1, older_publication_id) AND list_contains($1, newer_publication_id)
UNION
SELECT DISTINCT 'comment', d.publication_id, d.other_key,
       EXISTS (SELECT 1 FROM recorded_disputes AS r WHERE r.publication_id = d.publication_id AND r.relation = 'reply')
FROM recorded_disputes AS d JOIN publications AS p ON p.publication_id = d.other_key
WHERE d.relation = 'comment' AND list_contains($1, d.publication_id)
ORDER BY kind, first_id, second_id;
