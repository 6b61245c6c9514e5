-- One md5 per research area of $1 of everything the offline judge reads for it: the area's evidence pool
-- (the temp view judge_area_pool of dataset_evidence_edges.sql, which judge_inputs.sql reads too), each pool
-- publication's year, title, abstract and centrality (judged_publications.sql), and whether the publication is in
-- the area (its pairs are the area's rows). Texts are hashed once per publication, so the ordered aggregate holds
-- short strings only.
WITH pool AS (
    SELECT * FROM judge_area_pool WHERE list_contains($1, research_area)
),
texts AS (
    SELECT p.publication_id,
           md5(to_json({year: p.year, title: p.title, abstract: p.abstract, centrality: c.centrality})) AS text_md5
    FROM publications AS p
    JOIN publication_centrality AS c USING (publication_id)
    WHERE p.publication_id IN (SELECT publication_id FROM pool)
)
SELECT area.research_area,
       count(pool.publication_id) AS pool_edges,
       md5(coalesce(string_agg(
           to_json({
               dataset: pool.dataset_id, publication: pool.publication_id, via_successor: pool.via_successor,
               text: t.text_md5, in_area: m.publication_id IS NOT NULL
           }),
           ',' ORDER BY pool.dataset_id, pool.publication_id, pool.via_successor
       ), '')) AS inputs_md5
FROM unnest($1::VARCHAR[]) AS area(research_area)
LEFT JOIN pool USING (research_area)
LEFT JOIN texts AS t USING (publication_id)
LEFT JOIN publication_research_areas AS m
    ON m.publication_id = pool.publication_id AND m.research_area = pool.research_area
GROUP BY area.research_area
ORDER BY area.research_area
