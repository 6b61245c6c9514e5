-- The rows of coherence_judgements for the research areas $1: each judged pair (temp table judged_pairs) once for
-- every one of these areas its older publication is in, judged as of $2, at $3. In the order the judge gave the
-- pairs (rowid: the order they were stored in), each pair's areas in the table's order: a coherence sums its pairs'
-- weights in the order they are read, and floating-point sums depend on it.
SELECT a.research_area, p.*, $2::DATE AS as_of, $3::TIMESTAMPTZ AS judged_at
FROM judged_pairs AS p
JOIN publication_research_areas AS a ON a.publication_id = p.older_publication_id
WHERE list_contains($1, a.research_area)
ORDER BY p.rowid, a.rowid
