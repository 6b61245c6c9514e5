-- Every Dataset→Publication edge of the current snapshot (dataset_publication_edges), with the score it is exported
-- with: its edge_reliability row of the latest as_of, the lowest reliability when research areas scored it
-- differently at that as_of (the cautious one), then the first research area by name. Edges without a row keep
-- NULL scores and say why in `unscored_detail` (their research areas, the publication's year); so does an edge whose
-- reliability is NaN or infinite (JSON has no such value, and it is no GNN weight): never written, set aside saying so.
-- scored_areas counts the research areas holding a row; differing_scores is TRUE when those rows disagree.
WITH ranked AS (
    SELECT r.dataset_id, r.publication_id, r.reliability, r.label, r.reason, r.as_of, r.research_area,
           count(*) OVER edge AS scored_areas,
           count(DISTINCT (r.reliability, r.label)) OVER edge > 1 AS differing_scores,
           row_number() OVER (edge ORDER BY r.as_of DESC, r.reliability, r.research_area) AS rank
    FROM edge_reliability AS r
    WINDOW edge AS (PARTITION BY r.dataset_id, r.publication_id)
),
areas AS (
    SELECT publication_id, string_agg(research_area, ', ' ORDER BY research_area) AS research_areas
    FROM publication_research_areas
    GROUP BY publication_id
)
SELECT e.dataset_id, e.publication_id, e.relationship_ids,
       CASE WHEN isfinite(s.reliability) THEN s.reliability END AS reliability, s.label, s.reason, s.as_of, s.research_area,
       coalesce(s.scored_areas, 0) AS scored_areas, coalesce(s.differing_scores, FALSE) AS differing_scores,
       CASE WHEN s.reliability IS NULL
            THEN 'no edge_reliability row: research area(s) ' || coalesce(a.research_areas, 'none') || ', publication year '
                 || coalesce(CAST(p.year AS VARCHAR), 'unknown')
            WHEN NOT isfinite(s.reliability)
            THEN 'edge_reliability holds reliability ' || CAST(s.reliability AS VARCHAR) || ' (research area ' || s.research_area
                 || '), not a number in [0, 1]: not written'
       END AS unscored_detail
FROM dataset_publication_edges AS e
LEFT JOIN ranked AS s ON s.dataset_id = e.dataset_id AND s.publication_id = e.publication_id AND s.rank = 1
LEFT JOIN areas AS a ON a.publication_id = e.publication_id
LEFT JOIN publications AS p ON p.publication_id = e.publication_id
ORDER BY e.dataset_id, e.publication_id
