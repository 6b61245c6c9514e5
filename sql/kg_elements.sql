-- Judge every line read from a KG export (temp table kg_lines) and keep the verdict in temp table kg_elements:
-- reject_reason is NULL for an accepted node or relationship, else says why the line is rejected.
-- Needs temp table kg_relationship_types(rel_type, start_label, end_label): the known types and, where the
-- typed tables depend on it, the required endpoint labels (NULL = any).
CREATE OR REPLACE TEMP TABLE kg_elements AS
WITH parsed AS (
    SELECT line_number, raw, read_error,
           CASE WHEN read_error IS NULL AND json_valid(raw) THEN raw::JSON END AS element
    FROM kg_lines
), shaped AS (
    SELECT *,
           element->>'type' AS element_type,
           element->>'id' AS element_id,
           TRY_CAST(element->'labels' AS VARCHAR[]) AS labels,
           element->>'label' AS rel_type,
           element->'start'->>'id' AS start_id,
           element->'end'->>'id' AS end_id,
           coalesce(element->'properties', '{}'::JSON) AS properties
    FROM parsed
), judged AS (
    SELECT *,
           CASE
               WHEN read_error IS NOT NULL THEN read_error
               WHEN regexp_full_match(raw, '\s*') THEN 'empty line'  -- trim() alone keeps tabs
               WHEN element IS NULL THEN 'malformed JSON'
               WHEN json_type(element) <> 'OBJECT' THEN 'not a JSON object'
               WHEN element_type IS NULL OR element_type NOT IN ('node', 'relationship')
                   THEN 'unknown element type: ' || coalesce(element_type, 'none')
               WHEN element_id IS NULL THEN element_type || ' without id'
               WHEN json_type(properties) <> 'OBJECT' THEN 'properties is not a JSON object'
               WHEN element_type = 'node' AND coalesce(len(list_filter(labels, lambda l: l IS NOT NULL AND l <> '')), 0) = 0
                   THEN 'node without labels'
               WHEN element_type = 'relationship' AND (rel_type IS NULL OR rel_type NOT IN (SELECT rel_type FROM kg_relationship_types))
                   THEN 'unknown relationship type: ' || coalesce(rel_type, 'none')
               WHEN element_type = 'relationship' AND (start_id IS NULL OR end_id IS NULL)
                   THEN 'relationship without start or end id'
           END AS line_reason
    FROM shaped
), nodes AS (
    SELECT line_number, element_id, labels,
           row_number() OVER (PARTITION BY element_id ORDER BY line_number) AS occurrence,
           min(line_number) OVER (PARTITION BY element_id) AS first_line
    FROM judged
    WHERE line_reason IS NULL AND element_type = 'node'
), accepted_nodes AS (
    SELECT element_id, labels FROM nodes WHERE occurrence = 1
), endpoints AS (
    SELECT j.line_number, j.element_id,
           CASE
               WHEN s.labels IS NULL THEN 'start node ' || j.start_id || ' does not exist'
               WHEN e.labels IS NULL THEN 'end node ' || j.end_id || ' does not exist'
               WHEN t.start_label IS NOT NULL AND NOT list_contains(s.labels, t.start_label)
                   THEN j.rel_type || ' must start at a ' || t.start_label || ' node, not ' || array_to_string(s.labels, ':')
               WHEN t.end_label IS NOT NULL AND NOT list_contains(e.labels, t.end_label)
                   THEN j.rel_type || ' must end at a ' || t.end_label || ' node, not ' || array_to_string(e.labels, ':')
           END AS endpoint_reason
    FROM judged AS j
    JOIN kg_relationship_types AS t USING (rel_type)
    LEFT JOIN accepted_nodes AS s ON s.element_id = j.start_id
    LEFT JOIN accepted_nodes AS e ON e.element_id = j.end_id
    WHERE j.line_reason IS NULL AND j.element_type = 'relationship'
), relationships AS (
    -- A duplicate id is judged among relationships with valid endpoints only, so a rejected first copy
    -- never costs a valid later one.
    SELECT line_number, element_id, endpoint_reason,
           row_number() OVER (PARTITION BY element_id, endpoint_reason IS NULL ORDER BY line_number) AS occurrence,
           min(line_number) OVER (PARTITION BY element_id, endpoint_reason IS NULL) AS first_line
    FROM endpoints
)
SELECT j.line_number, j.raw, j.element_type, j.element_id, j.labels, j.rel_type, j.start_id, j.end_id, j.properties,
       coalesce(
           j.line_reason,
           CASE WHEN n.occurrence > 1 THEN 'duplicate node id ' || n.element_id || ' (first at line ' || n.first_line || ')' END,
           r.endpoint_reason,
           CASE WHEN r.occurrence > 1 THEN 'duplicate relationship id ' || r.element_id || ' (first at line ' || r.first_line || ')' END
       ) AS reject_reason
FROM judged AS j
LEFT JOIN nodes AS n USING (line_number)
LEFT JOIN relationships AS r USING (line_number);
