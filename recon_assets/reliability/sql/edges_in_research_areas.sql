-- Dataset→Publication edges whose publication is in one of the research areas $1 (a list of slugs), with what
-- scoring and the reason string need as of the year $2 (as_of's year; $3 = the first year of recent citations):
-- the KG's year and PageRank centrality, the publication's incoming KG citations dated up to as_of (and those of
-- the recent years), its OpenAlex work and Crossref retraction notices as fetched for the same research area
-- (NULL without a DOI), the dataset's lifecycle (dataset_lineage) and the comments, replies and corrections recorded
-- for the publication (recorded_disputes).
-- An edge of a publication in several areas appears once per area. Citing publications without a year are left
-- out: nothing may say they came before as_of.
WITH disputes AS (
    -- comments, replies and corrections recorded for the publication and published by as_of's year
    SELECT r.publication_id,
           list(DISTINCT r.relation ORDER BY r.relation) AS dispute_relations,
           string_agg(r.relation || ' ' || coalesce(o.first_author_tag, '[' || coalesce(r.other_doi, r.other_key) || ', ' || r.other_year || ']')
                      || ' (' || r.source || ')', '; ' ORDER BY r.other_year, r.relation, r.other_key) AS dispute_evidence
    FROM recorded_disputes AS r
    LEFT JOIN publications AS o ON o.publication_id = r.other_key
    WHERE list_contains($1, r.research_area) AND r.other_year <= $2
    GROUP BY r.publication_id
),
kg_cited AS (
    SELECT c.cited_publication_id AS publication_id,
           count(*) FILTER (WHERE p.year <= $2) AS kg_citations,
           count(*) FILTER (WHERE p.year BETWEEN $3 AND $2) AS kg_recent_citations
    FROM publication_citations AS c
    JOIN publications AS p ON p.publication_id = c.citing_publication_id
    GROUP BY ALL
)
SELECT a.research_area,
       e.dataset_id,
       e.publication_id,
       d.doi AS dataset_doi,
       d.short_name AS dataset_short_name,
       p.doi AS publication_doi,
       p.year AS kg_year,
       p.year_issue,
       p.first_author_tag AS citation,
       c.centrality AS pagerank_centrality,
       coalesce(k.kg_citations, 0) AS kg_citations,
       coalesce(k.kg_recent_citations, 0) AS kg_recent_citations,
       -- a DOI without a row (openalex_works not materialized for the area) is an error, never "no DOI"
       CASE WHEN p.doi IS NOT NULL THEN coalesce(o.status, 'error') END AS openalex_status,
       CASE WHEN p.doi IS NOT NULL AND o.status IS NULL THEN 'not fetched: no openalex_works row' ELSE o.error END AS openalex_error,
       o.cited_by_count,
       o.counts_by_year,
       o.fetched_at AS openalex_fetched_at,
       o.publication_year AS openalex_year,
       o.citation_percentile_low AS percentile_low,
       o.citation_percentile_high AS percentile_high,
       coalesce(o.is_retracted, false) AS openalex_retracted,
       coalesce(o.is_retraction_notice, false) AS retraction_notice,
       -- NULL unless Crossref was checked: never checked is not "no notice"
       CASE WHEN x.status = 'checked' THEN x.notice_dois END AS crossref_notice_dois,
       coalesce(l.superseded, false) AS dataset_superseded,
       l.version_text AS dataset_version,
       -- the successor as the reason names it: 'V7.0' within a family; across families the line and its version now,
       -- 'GPM_3IMERGHH (now V07)', since the date is the line's ("superseded by GPM_3IMERGHH V07 since 2019" read as
       -- V07's date, which is 2023: new-user pass, 2026-12-04)
       CASE WHEN l.successor_family = l.family THEN l.successor_version
            ELSE l.successor_family || coalesce(' (now ' || l.successor_version || ')', '') END AS successor_version,
       l.superseded_since,
       l.collection_progress AS dataset_collection_progress,
       l.succession_basis,
       coalesce(ds.dispute_relations, []) AS dispute_relations,
       ds.dispute_evidence
FROM dataset_publication_edges AS e
JOIN publication_research_areas AS a USING (publication_id)
JOIN publications AS p USING (publication_id)
JOIN datasets AS d USING (dataset_id)
JOIN publication_centrality AS c USING (publication_id)
LEFT JOIN kg_cited AS k USING (publication_id)
LEFT JOIN disputes AS ds USING (publication_id)
LEFT JOIN dataset_lineage AS l USING (dataset_id)
LEFT JOIN openalex_works AS o ON o.research_area = a.research_area AND o.doi = p.doi
LEFT JOIN crossref_retractions AS x ON x.research_area = a.research_area AND x.doi = p.doi
WHERE list_contains($1, a.research_area)
ORDER BY a.research_area, e.dataset_id, e.publication_id
