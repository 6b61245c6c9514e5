-- Judged pairs of the research areas $1, with the newer publication's citation tag for the reason string.
SELECT j.research_area, j.dataset_id, j.older_publication_id, j.newer_publication_id, j.verdict, j.coherence,
       j.rationale, j.newer_centrality, p.first_author_tag AS newer_citation
FROM coherence_judgements AS j
JOIN publications AS p ON p.publication_id = j.newer_publication_id
WHERE list_contains($1, j.research_area)
