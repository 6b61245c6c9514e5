-- The paper's ($1) references that are publications of the graph (by DOI): number, text and the smallest
-- publication_id of that DOI.
SELECT t.label, any_value(t.text), min(p.publication_id)
FROM paper_texts AS t
JOIN publications AS p ON p.doi = t.doi
WHERE t.paper_key = $1 AND t.part = 'reference'
GROUP BY t.label
ORDER BY t.label
