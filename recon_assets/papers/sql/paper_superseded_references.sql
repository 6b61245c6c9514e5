-- The paper's ($1) references whose publication has an edge labelled SUPERSEDED (edge_reliability), each once: its
-- number, its text and the reason of the edge with the smallest dataset id.
SELECT t.label, any_value(t.text), arg_min(e.reason, e.dataset_id)
FROM paper_texts AS t
JOIN publications AS p ON p.doi = t.doi
JOIN edge_reliability AS e ON e.publication_id = p.publication_id
WHERE t.paper_key = $1 AND t.part = 'reference' AND e.label = 'SUPERSEDED'
GROUP BY t.label
ORDER BY t.label
