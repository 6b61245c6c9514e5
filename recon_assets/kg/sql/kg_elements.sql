-- Judge every line read from a KG export (kg_lines: position, line_number, raw, read_error, byte_offset; a stream,
-- read once) and keep the verdict in temp table kg_elements: reject_reason is NULL for an accepted node or
-- relationship, else says why the line is rejected. Rows are keyed by `position` (unique ordinal in the file);
-- `line_number` is only shown, as minified GraphML puts many elements on one line. The line's text is not kept:
-- a JSON line is in the file at `byte_offset`, where the caller reads back the few rejected ones for kg_rejects; a
-- GraphML element transcoded to JSON has no byte_offset and keeps its start (raw_head, variable raw_text_limit
-- characters) here.
-- Needs temp table kg_relationship_types(rel_type, start_label, end_label): the known types and, where the
-- typed tables depend on it, the required endpoint labels (NULL = any).
-- An id (node, relationship, endpoint) is a non-blank JSON string without control characters (Unicode category Cc:
-- C0, DEL and C1), or an integer (APOC writes Neo4j's integer ids as strings, other exporters as numbers); true, {},
-- [] or 1.5 would all turn into text that looks like an id, and "\u0000" or "\u009b[31m" into one no reader can show.
CREATE OR REPLACE TEMP MACRO usable_id(id) AS CASE json_type(id)
    WHEN 'VARCHAR' THEN trim(id->>'$', e' \t\r\n') <> '' AND NOT regexp_matches(id->>'$', '[\x00-\x1f\x7f-\x9f]')
    WHEN 'BIGINT' THEN true
    WHEN 'UBIGINT' THEN true
    WHEN 'DOUBLE' THEN regexp_full_match(id->>'$', '-?[0-9]+')  -- integers beyond 64 bits; not 1.5 or 1e3
    ELSE false
END;
-- A line's text with every JSON string emptied (escaped quotes and backslashes kept inside their string), so that what
-- is searched below is the text outside strings.
CREATE OR REPLACE TEMP MACRO outside_strings(raw) AS regexp_replace(raw, '"(?:[^"\\]|\\.)*"', '""', 'g');
-- What DuckDB's JSON reader (yyjson, with its ALLOW_INF_AND_NAN and ALLOW_TRAILING_COMMAS flags) reads but JSON
-- (RFC 8259) is not: NaN, Infinity or inf in any case (section 6: a number is digits), and a comma before } or ]
-- (sections 4 and 5). Returns the first such text outside strings, or NULL. Only a line where one may sit after
-- :, [ or , (the guard) has its strings blanked and is searched. The guard is three patterns, each starting with one
-- character, which RE2 finds by memchr: 0.24 CPU-s over a 273 MB export where one pattern of the three starts took
-- 0.68 (json_extract of the members: 0.22). A GraphML element's JSON is the reader's (Python's json writes a
-- non-finite double read from GraphML, `NaN`, `INF`, `-INF` or `1e999`, as NaN, Infinity or -Infinity).
CREATE OR REPLACE TEMP MACRO non_json_text(raw) AS CASE
    WHEN regexp_matches(raw, ':\s*-?(?i:nan|inf)') OR regexp_matches(raw, ',\s*(?:-?(?i:nan|inf)|[}\]])')
        OR regexp_matches(raw, '\[\s*-?(?i:nan|inf)')
        THEN nullif(regexp_extract(outside_strings(raw), '(?i)-?(?:infinity|inf|nan)|,\s*[}\]]'), '')
END;
-- The first number outside strings beyond the range of a 64-bit float (IEEE 754 binary64, largest 1.8e308), which
-- DuckDB and Python's json read as infinity (`1e999`, 400 digits), or NULL. JSON's grammar allows it; RFC 8259
-- section 6 leaves the range to implementations and says numbers beyond binary64 are not interoperable. Only a line
-- with an exponent of three digits or 309 digits in a row (the guard) is searched.
CREATE OR REPLACE TEMP MACRO out_of_range_number(raw) AS CASE
    WHEN regexp_matches(raw, '[0-9][eE]\+?[0-9]{3}|[0-9]{309}')
        THEN list_filter(
            regexp_extract_all(outside_strings(raw), '-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?'),
            lambda number: isinf(TRY_CAST(number AS DOUBLE))
        )[1]
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
    byte_offset   BIGINT,
    raw_head      VARCHAR
);
-- Verdicts on each line alone. Each line is parsed once, by one json_extract of the few members judged here (a
-- relationship's endpoints, written by APOC with all their properties, are not copied): an array or scalar line
-- gives all members NULL, a member that is missing gives NULL and one that is JSON null gives 'null', so a null
-- `properties` is rejected while a missing one means none. Malformed JSON gives no list at all. (At v1.2.0 size this
-- judged the lines in 3.7 s where from_json into a struct, plus regular expressions over every line, took 5.0 s.)
INSERT INTO kg_elements
WITH parsed AS (
    SELECT position, line_number, raw, read_error, byte_offset,
           CASE WHEN read_error IS NULL THEN try(json_extract(raw, ['$.type', '$.id', '$.labels', '$.label', '$.start.id', '$.end.id', '$.properties'])) END AS members
    FROM kg_lines
), shaped AS (
    SELECT position, line_number, raw, read_error, byte_offset, members,
           members[1]->>'$' AS element_type,
           members[2] AS id_json,
           members[2]->>'$' AS element_id,
           members[3] AS labels_json,
           -- Blank labels (null, '') are dropped; any other non-string fails the labels check below. A label given
           -- twice is kept once (Neo4j labels are a set): a list with repeats comes out sorted, in linear time (a
           -- first-seen order filter took 35 s on one node of 30,000 labels).
           list_filter(TRY_CAST(members[3] AS VARCHAR[]), lambda l: l IS NOT NULL AND l <> '') AS label_list,
           CASE WHEN len(list_distinct(label_list)) = len(label_list) THEN label_list ELSE list_sort(list_distinct(label_list)) END AS labels,
           members[4]->>'$' AS rel_type,
           members[5] AS start_json,
           members[5]->>'$' AS start_id,
           members[6] AS end_json,
           members[6]->>'$' AS end_id,
           coalesce(members[7], '{}') AS properties,
           -- Every format: a GraphML element's JSON holds NaN or Infinity for a non-finite double, and a Cypher row
           -- keeps its numbers' text (1e999) and brackets (a trailing comma).
           CASE WHEN members IS NOT NULL THEN non_json_text(raw) END AS non_json,
           CASE WHEN members IS NOT NULL THEN out_of_range_number(raw) END AS out_of_range,
           -- A JSON line's own text is malformed; a GraphML or Cypher element's JSON is the reader's (no byte_offset).
           CASE WHEN byte_offset IS NOT NULL THEN 'malformed JSON: ' ELSE '' END AS malformed
    FROM parsed
), judged AS (
    SELECT *,
           CASE
               WHEN read_error IS NOT NULL THEN read_error
               -- Only a line json_extract could not read, or read as no object, can be blank, malformed or not an
               -- object: the text is searched for that on those lines alone (the guards keep it off the others).
               WHEN members IS NULL AND regexp_full_match(raw, '\s*') THEN 'empty line'  -- trim() alone keeps tabs
               WHEN members IS NULL THEN 'malformed JSON'
               WHEN non_json LIKE ',%' THEN malformed || 'a comma before ' || right(non_json, 1) || ' (JSON allows no trailing comma)'
               WHEN non_json IS NOT NULL THEN malformed || non_json || ' is not a JSON number (JSON has no NaN or Infinity, RFC 8259 section 6)'
               WHEN out_of_range IS NOT NULL THEN 'number ' || left(out_of_range, 40) || ' is beyond a 64-bit float and would read as infinity '
                   || '(RFC 8259 section 6: numbers beyond IEEE 754 binary64 are not interoperable)'
               WHEN element_type IS NULL AND NOT regexp_matches(raw, '^\s*\{') THEN 'not a JSON object'
               WHEN element_type IS NULL OR element_type NOT IN ('node', 'relationship')
                   THEN 'unknown element type: ' || coalesce(element_type, 'none')
               WHEN element_id IS NULL THEN element_type || ' without id'
               WHEN NOT usable_id(id_json) THEN element_type || ' id must be a non-empty string without control characters, or an integer'
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
               WHEN element_type = 'relationship' AND NOT (usable_id(start_json) AND usable_id(end_json))
                   THEN 'relationship start and end ids must be non-empty strings without control characters, or integers'
           END AS line_reason
    FROM shaped
)
SELECT position, line_number, element_type, element_id, labels, rel_type, start_id, end_id,
       CASE WHEN line_reason IS NULL THEN properties END, line_reason, byte_offset,
       CASE WHEN byte_offset IS NULL THEN left(raw, getvariable('raw_text_limit')) END
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
