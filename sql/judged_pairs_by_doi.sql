-- Stored pair judgements named by the two publications' DOIs, strongest similarity first, for the labelled pairs
-- of reliability_evaluation (a pair stored under several research areas appears once).
SELECT DISTINCT older.doi AS older_doi, newer.doi AS newer_doi, j.verdict, j.rationale, j.similarity
FROM coherence_judgements AS j
JOIN publications AS older ON older.publication_id = j.older_publication_id
JOIN publications AS newer ON newer.publication_id = j.newer_publication_id
WHERE older.doi IS NOT NULL AND newer.doi IS NOT NULL
ORDER BY older_doi, newer_doi, j.similarity DESC
