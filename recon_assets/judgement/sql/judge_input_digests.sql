-- One md5 per research area of $1 of everything the offline judge reads for it: the area's evidence pool
-- (the temp view judge_area_pool of dataset_evidence_edges.sql, which judge_inputs.sql reads too), the KG works citing
-- the pool's publications and those OpenAlex lists (judge_citing_works.sql), each publication's year, title, abstract and centrality
-- (judged_publications.sql), and whether the publication is in the area (its pairs are the area's rows). Texts are
-- hashed once per publication, so the ordered aggregates hold short strings only.
WITH pool AS (
    SELECT * FROM judge_area_pool WHERE list_contains($1, research_area)
),
citing AS (
    SELECT DISTINCT pool.research_area, c.cited_publication_id, c.citing_publication_id
    FROM pool
    JOIN publication_citations AS c ON c.cited_publication_id = pool.publication_id
    WHERE NOT pool.via_successor
),
texts AS (
    SELECT p.publication_id,
           md5(to_json({year: p.year, title: p.title, abstract: p.abstract, centrality: c.centrality})) AS text_md5
    FROM publications AS p
    JOIN publication_centrality AS c USING (publication_id)
    WHERE p.publication_id IN (SELECT publication_id FROM pool UNION SELECT citing_publication_id FROM citing)
),
pool_digest AS (
    SELECT area.research_area,
           count(pool.publication_id) AS pool_edges,
           coalesce(string_agg(
               to_json({
                   dataset: pool.dataset_id, publication: pool.publication_id, via_successor: pool.via_successor,
                   text: t.text_md5, in_area: m.publication_id IS NOT NULL
               }),
               ',' ORDER BY pool.dataset_id, pool.publication_id, pool.via_successor
           ), '') AS pool_text
    FROM unnest($1::VARCHAR[]) AS area(research_area)
    LEFT JOIN pool USING (research_area)
    LEFT JOIN texts AS t USING (publication_id)
    LEFT JOIN publication_research_areas AS m
        ON m.publication_id = pool.publication_id AND m.research_area = pool.research_area
    GROUP BY area.research_area
),
openalex_citing AS (
    SELECT DISTINCT pool.research_area, cited.publication_id AS cited_publication_id, w.citing_openalex_id,
           md5(to_json({doi: w.citing_doi, year: w.citing_year, title: w.citing_title, abstract: w.citing_abstract,
                        cited_by_count: w.citing_cited_by_count, citation: w.citing_citation})) AS text_md5
    FROM pool
    JOIN publications AS cited ON cited.publication_id = pool.publication_id
    JOIN openalex_citing_works AS w ON w.cited_doi = cited.doi AND w.cited_kind = 'publication' AND w.status = 'fetched'
    WHERE NOT pool.via_successor
),
citing_digest AS (
    SELECT research_area, string_agg(item, ',' ORDER BY item) AS citing_text
    FROM (
        SELECT citing.research_area,
               to_json({cited: citing.cited_publication_id, citing: citing.citing_publication_id, text: t.text_md5}) AS item
        FROM citing
        LEFT JOIN texts AS t ON t.publication_id = citing.citing_publication_id
        UNION ALL
        SELECT research_area, to_json({cited: cited_publication_id, openalex: citing_openalex_id, text: text_md5})
        FROM openalex_citing
    )
    GROUP BY research_area
)
SELECT pool_digest.research_area,
       pool_digest.pool_edges,
       md5(pool_digest.pool_text || '|' || coalesce(citing_digest.citing_text, '')) AS inputs_md5
FROM pool_digest
LEFT JOIN citing_digest USING (research_area)
ORDER BY pool_digest.research_area
