-- The Crossref relation entries (crossref_relations, whichever research area's rows hold them) that touch a
-- publication of the research areas $1: reached from it, or naming it; each entry (record_doi, relation, update_type,
-- other_id: judgement.disputes.ENTRY_KEY) once, with the KG publication id of each side that is in the KG (NULL
-- otherwise). Of an entry's copies (reached from several publications, checked at several times) the one with the
-- other side's latest year is read, a year known before none; copies alike in that year are told apart by their
-- other columns, so the choice is the same on every run.
WITH area_dois AS (
    SELECT DISTINCT p.doi
    FROM publications AS p
    JOIN publication_research_areas AS a USING (publication_id)
    WHERE p.doi IS NOT NULL AND list_contains($1, a.research_area)
),
entries AS (
    SELECT r.record_doi, r.record_type, r.record_title, r.record_year, r.relation, r.update_type, r.other_id,
           r.other_id_type, r.other_type, r.other_title, r.other_year
    FROM crossref_relations AS r
    WHERE r.doi IN (SELECT doi FROM area_dois) OR r.other_id IN (SELECT doi FROM area_dois)
    QUALIFY row_number() OVER (
        PARTITION BY r.record_doi, r.relation, r.update_type, r.other_id
        ORDER BY r.other_year DESC NULLS LAST, r.record_type, r.record_title, r.record_year, r.other_id_type, r.other_type,
                 r.other_title
    ) = 1
)
SELECT e.*, rp.publication_id AS record_publication_id, op.publication_id AS other_publication_id
FROM entries AS e
LEFT JOIN publications AS rp ON rp.doi = e.record_doi
LEFT JOIN publications AS op ON op.doi = e.other_id AND e.other_id_type = 'doi'
ORDER BY e.record_doi, e.relation, e.update_type, e.other_id
