-- Judge every line read from a KG export (kg_lines: position, line_number, raw, read_error; a stream, read once)
-- and keep the verdict in temp table kg_elements: reject_reason is NULL for an accepted node or relationship,
-- else says why the line is rejected. Rows are keyed by `position` (unique ordinal in the file); `line_number` is
-- only shown, as minified GraphML puts many elements on one line. Of the line's text only the start is kept
-- (raw_head, variable raw_text_limit characters), for kg_rejects.
-- Needs temp table kg_relationship_types(rel_type, start_label, end_label): the known types and, where the
-- typed tables depend on it, the required endpoint labels (NULL = any).
-- An id (node, relationship, endpoint) is a non-blank JSON string or an integer (APOC writes Neo4j's integer ids
-- as strings, other exporters as numbers); true, {}, [] or 1.5 would all turn into text that looks like an id.
CREATE OR REPLACE TEMP MACRO usable_id(id) AS CASE json_type(id)
    WHEN 'VARCHAR' THEN trim(id->>'$', e' \t\r\n') <> ''
    WHEN 'BIGINT' THEN true
    WHEN 'UBIGINT' THEN true
    WHEN 'DOUBLE' THEN regexp_full_match(id->>'$', '-?[0-9]+')  -- integers beyond 64 bits; not 1.5 or 1e3
    ELSE false
END;
CREATE OR REPLACE TEMP TABLE kg_elements (
    position      BIGINT NOT NULL,
    line_number   BIGINT,
    element_type  VARCHAR,
    element_id    VARCHAR,
    labels        VARCHAR[],
    rel_type      VARCHAR,
    start_id      VARCHAR,
    end_id        VARCHAR,
    properties    JSON,      -- NULL on rejected lines
    reject_reason VARCHAR,
    raw_head      VARCHAR
);
-- Verdicts on each line alone. Each line is parsed once, into the few members judged here: from_json keeps a
-- JSON member as its text, so a relationship's endpoints (APOC writes them with all their properties) are not
-- copied. from_json reads any JSON (an array or scalar gives all members NULL) and makes a JSON null NULL like a
-- missing member: the text decides whether the line is an object, and `properties` is looked up again only when
-- the text may hold a null one (null is rejected, missing means none; most relationships have no properties).
INSERT INTO kg_elements
WITH parsed AS (
    SELECT position, line_number, raw, read_error,
           CASE WHEN read_error IS NULL THEN try(from_json(raw, '{"type": "JSON", "id": "JSON", "labels": "JSON",
               "label": "JSON", "start": {"id": "JSON"}, "end": {"id": "JSON"}, "properties": "JSON"}')) END AS element
    FROM kg_lines
), shaped AS (
    SELECT position, line_number, raw, read_error, element,
           element.type->>'$' AS element_type,
           element.id->>'$' AS element_id,
           element.labels AS labels_json,
           -- Blank labels (null, '') are dropped; any other non-string fails the labels check below.
           list_filter(TRY_CAST(element.labels AS VARCHAR[]), lambda l: l IS NOT NULL AND l <> '') AS labels,
           element.label->>'$' AS rel_type,
           element.start.id->>'$' AS start_id,
           element."end".id->>'$' AS end_id,
           CASE WHEN element IS NOT NULL THEN coalesce(
               element.properties,
               CASE WHEN regexp_matches(raw, '"properties"\s*:\s*null') THEN raw->'properties' END,
               '{}'::JSON
           ) END AS properties
    FROM parsed
), judged AS (
    SELECT *,
           CASE
               WHEN read_error IS NOT NULL THEN read_error
               WHEN regexp_full_match(raw, '\s*') THEN 'empty line'  -- trim() alone keeps tabs
               WHEN element IS NULL AND NOT json_valid(raw) THEN 'malformed JSON'
               WHEN NOT starts_with(ltrim(raw, e' \t\r\n'), '{') THEN 'not a JSON object'
               WHEN element_type IS NULL OR element_type NOT IN ('node', 'relationship')
                   THEN 'unknown element type: ' || coalesce(element_type, 'none')
               WHEN element_id IS NULL THEN element_type || ' without id'
               WHEN NOT usable_id(element.id) THEN element_type || ' id must be a non-empty string or integer'
               WHEN json_type(properties) <> 'OBJECT' THEN 'properties is not a JSON object'
               -- json_structure merges an array's item types: '["VARCHAR"]' for strings and nulls, '["NULL"]' for [].
               WHEN element_type = 'node' AND json_type(labels_json) <> 'NULL' AND json_structure(labels_json) NOT IN ('["VARCHAR"]', '["NULL"]')
                   THEN 'node labels must be a list of strings'
               WHEN element_type = 'node' AND coalesce(len(labels), 0) = 0 THEN 'node without labels'
               WHEN element_type = 'node' AND list_contains(labels, 'Publication') AND list_contains(labels, 'Dataset')
                   THEN 'node cannot be both Publication and Dataset'
               WHEN element_type = 'relationship' AND (rel_type IS NULL OR rel_type NOT IN (SELECT rel_type FROM kg_relationship_types))
                   THEN 'unknown relationship type: ' || coalesce(rel_type, 'none')
               WHEN element_type = 'relationship' AND (start_id IS NULL OR end_id IS NULL)
                   THEN 'relationship without start or end id'
               WHEN element_type = 'relationship' AND NOT (usable_id(element.start.id) AND usable_id(element."end".id))
                   THEN 'relationship start and end ids must be non-empty strings or integers'
           END AS line_reason
    FROM shaped
)
SELECT position, line_number, element_type, element_id, labels, rel_type, start_id, end_id,
       CASE WHEN line_reason IS NULL THEN properties END, line_reason, left(raw, getvariable('raw_text_limit'))
FROM judged;
-- Verdicts that need other lines: duplicate ids, and relationship endpoints among the accepted nodes. They are
-- few, so they are written over the line verdicts rather than the table being built again.
CREATE OR REPLACE TEMP TABLE kg_late_rejects AS
WITH nodes AS (
    SELECT position, element_id, labels,
           row_number() OVER (PARTITION BY element_id ORDER BY position) AS occurrence,
           first_value(line_number) OVER (PARTITION BY element_id ORDER BY position) AS first_line
    FROM kg_elements
    WHERE reject_reason IS NULL AND element_type = 'node'
), accepted_nodes AS (
    SELECT element_id, labels FROM nodes WHERE occurrence = 1
), endpoints AS (
    SELECT j.position, j.line_number, j.element_id,
           CASE
               WHEN s.labels IS NULL THEN 'start node ' || j.start_id || ' does not exist'
               WHEN e.labels IS NULL THEN 'end node ' || j.end_id || ' does not exist'
               WHEN t.start_label IS NOT NULL AND NOT list_contains(s.labels, t.start_label)
                   THEN j.rel_type || ' must start at a ' || t.start_label || ' node, not ' || array_to_string(s.labels, ':')
               WHEN t.end_label IS NOT NULL AND NOT list_contains(e.labels, t.end_label)
                   THEN j.rel_type || ' must end at a ' || t.end_label || ' node, not ' || array_to_string(e.labels, ':')
           END AS endpoint_reason
    FROM kg_elements AS j
    JOIN kg_relationship_types AS t USING (rel_type)
    LEFT JOIN accepted_nodes AS s ON s.element_id = j.start_id
    LEFT JOIN accepted_nodes AS e ON e.element_id = j.end_id
    WHERE j.reject_reason IS NULL AND j.element_type = 'relationship'
), relationships AS (
    -- A duplicate id is judged among relationships with valid endpoints only, so a rejected first copy
    -- never costs a valid later one.
    SELECT position, element_id, endpoint_reason,
           row_number() OVER (PARTITION BY element_id, endpoint_reason IS NULL ORDER BY position) AS occurrence,
           first_value(line_number) OVER (PARTITION BY element_id, endpoint_reason IS NULL ORDER BY position) AS first_line
    FROM endpoints
)
SELECT position, 'duplicate node id ' || element_id || ' (first at line ' || first_line || ')' AS reason
FROM nodes WHERE occurrence > 1
UNION ALL
SELECT position, coalesce(endpoint_reason, 'duplicate relationship id ' || element_id || ' (first at line ' || first_line || ')')
FROM relationships WHERE endpoint_reason IS NOT NULL OR occurrence > 1;
UPDATE kg_elements SET reject_reason = late.reason, properties = NULL
FROM kg_late_rejects AS late WHERE kg_elements.position = late.position;
DROP TABLE kg_late_rejects;
