-- Every pair the judge judged, as judge_citing_pairs and judge_edges sort them (by dataset, older publication,
-- similarity descending, newer key): first the works citing the judged publication (temp table judged_citing_pairs),
-- then the publications using the same dataset or its successor version (temp table judged_same_dataset_pairs), each
-- with the newer publication's citation tag and year (temp table judge_texts). A citing work that also uses the
-- dataset is judged once, as a citing work: the citation is the stronger link.
SELECT * EXCLUDE (part)
FROM (
    SELECT 0 AS part, * FROM judged_citing_pairs
    UNION ALL BY NAME
    SELECT 1 AS part, s.*, t.citation AS newer_citation, t.year AS newer_year
    FROM judged_same_dataset_pairs AS s
    LEFT JOIN judge_texts AS t ON t.publication_id = s.newer_publication_id
    WHERE NOT EXISTS (
        SELECT 1 FROM judged_citing_pairs AS c
        WHERE c.dataset_id = s.dataset_id AND c.older_publication_id = s.older_publication_id
          AND c.newer_publication_id = s.newer_publication_id
    )
)
ORDER BY part, dataset_id, older_publication_id, similarity DESC, newer_publication_id
