-- Judged pairs of the research areas $1, with the newer work's citation tag (stored with the pair: a citing work
-- need not be a KG publication) for the reason string.
SELECT j.research_area, j.dataset_id, j.older_publication_id, j.newer_publication_id, j.verdict, j.coherence,
       j.rationale, j.newer_centrality, j.newer_citation, j.evidence_kind, j.judge, j.prompt_version, j.offline_verdict,
       j.offline_coherence
FROM coherence_judgements AS j
WHERE list_contains($1, j.research_area)
