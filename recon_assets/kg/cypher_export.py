"""Read a Neo4j APOC Cypher export (`apoc.export.cypher.all`) as APOC JSON-lines elements, streamed.

A narrow reader of exactly the statements APOC writes, not a Cypher parser. No maintained Python library reads
them: the one Cypher grammar on PyPI, antlr4-cypher 0.1.2 (a single 2025 release on ANTLR's Python runtime 4.13.2),
parsed a 20-row UNWIND statement of APOC's at 0.2 MB/s on the 2-core build machine (25 minutes for the real
306 MB `graph.cypher`) and gives a parse tree, not values. The shapes read here are APOC's own, from its source
and its tests (neo4j/apoc at 468861ea, 2026-01-16: `common/.../export/cypher/formatter/AbstractCypherFormatter.java`,
`CypherFormatterUtils.java`, `CreateCypherFormatter.java`, `UpdateAllCypherFormatter.java`,
`AddStructureCypherFormatter.java`, `UpdateStructureCypherFormatter.java`, `core/.../MultiStatementCypherSubGraphExporter.java`,
`common/.../export/util/FormatUtils.java` and `ExportFormat.java`; expected outputs in
`core/src/test/java/apoc/export/cypher/ExportCypherTest.java` and `ExportCypherTestUtils.java`; documented at
https://neo4j.com/docs/apoc/current/export/cypher/):

- data in UNWIND batches (`useOptimizations: {type: 'UNWIND_BATCH'}`, APOC's default; `unwindBatchSize` rows a
  statement), nodes grouped by label set, relationships by type and endpoint labels::

      UNWIND [{_id:0, properties:{name:"foo"}}, {_id:4, properties:{...}}] AS row
      CREATE (n:`UNIQUE IMPORT LABEL`{`UNIQUE IMPORT ID`: row._id}) SET n += row.properties SET n:Foo;
      UNWIND [{name:"bar", properties:{age:42}}] AS row
      CREATE (n:Bar{name: row.name}) SET n += row.properties;
      UNWIND [{start: {_id:0}, end: {name:"bar"}, properties:{since:2016}}] AS row
      MATCH (start:`UNIQUE IMPORT LABEL`{`UNIQUE IMPORT ID`: row.start._id})
      MATCH (end:Bar{name: row.end.name})
      CREATE (start)-[r:KNOWS]->(end) SET r += row.properties;

  with MERGE for `cypherFormat` updateAll / updateStructure, `MERGE ... ON CREATE SET n += row.properties` for
  addStructure, `[r:KNOWS{`UNIQUE IMPORT ID REL`:row.id}]` and an `id: <relationship id>` in each row for
  `multipleRelationshipsWithType`, and `:param rows => [...]` then `UNWIND $rows AS row` for UNWIND_BATCH_PARAMS;
- one statement an element (`useOptimizations: {type: 'NONE'}`):
  `CREATE (:Foo:`UNIQUE IMPORT LABEL` {name:"foo", `UNIQUE IMPORT ID`:0});`,
  `MERGE (n:`UNIQUE IMPORT LABEL`{`UNIQUE IMPORT ID`:0}) SET n.name="foo", n:Foo;` (ON CREATE SET for addStructure),
  `MATCH (n1:`UNIQUE IMPORT LABEL`{`UNIQUE IMPORT ID`:0}), (n2:Bar{name:"bar"}) CREATE (n1)-[r:KNOWS {since:2016}]->(n2);`
  and `... MERGE (n1)-[r:KNOWS]->(n2) SET r.since=2016;`;
- statements that carry no element, skipped and counted (`ReadStats.skipped_statements`): `:begin` / `:commit`
  (cypher-shell), `BEGIN` / `COMMIT` / `SCHEMA AWAIT` (neo4j-shell), `CREATE CONSTRAINT ...`, `CREATE ... INDEX ...`,
  `CALL db.awaitIndexes(300);`, the clean-up `MATCH (n:`UNIQUE IMPORT LABEL`)  WITH n LIMIT 20000 REMOVE ...;`,
  `MATCH ()-[r]->() WHERE r.`UNIQUE IMPORT ID REL` IS NOT NULL ...;` and `DROP CONSTRAINT UNIQUE_IMPORT_NAME;`.

Values are Cypher literals as APOC writes them (`CypherFormatterUtils.toString`): strings in double quotes with
only \\\\, \\n, \\r, \\t and \\" escaped (other control characters raw), Java's Long and Double.toString numbers
(`1.416785E32`, `NaN`, `Infinity`), true / false / null, lists `[a, b]`, and temporal values as `date('2018-10-31')`
(also datetime, localdatetime, time, localtime, duration). They become the JSON that APOC's JSON export writes for
the same property: temporal values and NaN / Infinity as strings. Anything else (a point, a map value) fails its
element with the reason.

What the rows become, so that the JSON-lines judge (`recon_assets/kg/sql/kg_elements.sql`) takes them as they are:
- a node's id is its `UNIQUE IMPORT ID` (Neo4j's node id, the `id` of APOC's JSON export), or, for a node that
  APOC identifies by a uniqueness constraint, its label and key as APOC's lookup writes them (`Bar{name:"bar"}`);
  the key properties go back into its properties (APOC moves them out of `properties`). The `UNIQUE IMPORT LABEL`
  is APOC's scaffolding, removed by the export's own clean-up: it is not a label of the node.
- the export carries no relationship ids (unless `multipleRelationshipsWithType`): a CREATE relationship gets
  `rel:<n>`, n its ordinal among the file's relationships; a MERGE relationship `<start>-[TYPE]-><end>`, so that a
  second MERGE of the same pattern (one relationship in Neo4j) is rejected as a duplicate id, the first kept.

"Line" for the accounting (lines read = nodes + relationships + rejects): one element row (a row of an UNWIND
list, or a one-element statement), or one statement that could not be read (rejected whole, with the reason).
Skipped statements are no lines; they are counted apart. `line_number` is the line where the row's text starts:
every row of an UNWIND list shares the line of its list.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

UNIQUE_ID_LABEL = "UNIQUE IMPORT LABEL"
UNIQUE_ID_PROPERTY = "UNIQUE IMPORT ID"
UNIQUE_ID_REL_PROPERTY = "UNIQUE IMPORT ID REL"
UNIQUE_ID_CONSTRAINT = "UNIQUE_IMPORT_NAME"
# The longest statement APOC writes spans four lines (UNWIND, MATCH start, MATCH end, CREATE).
_MAX_STATEMENT_LINES = 4

Row = tuple[int, int | None, str | None, str | None, int | None]

# ---------------------------------------------------------------------------------------------------------------
# Names and literals
# ---------------------------------------------------------------------------------------------------------------

# APOC's Util.quote: a name is written bare when it is a Java identifier (without $), else in backticks, as is.
_NAME = r"(?:`[^`]*`|[^\W\d][\w]*)"
_LABELS = rf"(?:\s*:\s*{_NAME})+"
# Unrolled ("[^"\\]*(?:\\.[^"\\]*)*"): a string's long runs of plain characters are one tight loop of the regex engine.
_STRING_BODY = r'"[^"\\]*(?:\\.[^"\\]*)*"'
_QUOTED_BODY = r"'[^'\\]*(?:\\.[^'\\]*)*'"
_TEMPORAL = "date|datetime|localdatetime|time|localtime|duration"
_LITERAL_TOKEN = re.compile(
    rf"""(?P<string>{_STRING_BODY})
      | (?P<quoted>{_QUOTED_BODY})
      | (?<![\w.])(?P<key>{_NAME})(?=\s*:)
      | (?<![\w.])(?P<temporal>(?:{_TEMPORAL})\(\s*(?P<argument>{_QUOTED_BODY}|{_STRING_BODY})\s*\))
      | (?<![\w.])(?P<nonfinite>-?Infinity|NaN)\b
      | (?<![\w.])(?P<word>[^\W\d]\w*)""",
    re.X,
)
_BARE_KEY = re.compile(r"(?<![\w.])([^\W\d]\w*)(?=\s*:)")
# A bare word that is not a key once _BARE_KEY quoted them, nor true / false / null (nor the E of 1.0E-5).
_OTHER_WORD = re.compile(r'(?<![\w."])(?!(?:true|false|null)\b)[^\W\d]\w*')
# Characters a JSON string may not hold raw (RFC 8259, section 7) but APOC leaves unescaped.
_RAW_CONTROL = re.compile(r"[\x00-\x1f]")
# Cypher escapes JSON does not have (APOC writes none: its strings only have \\ \n \r \t \").
_NON_JSON_ESCAPE = re.compile(r"\\(?:[^\"\\/bfnrtu]|u(?![0-9A-Fa-f]{4}))")
_CYPHER_ESCAPE = re.compile(r"\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(.))", re.S)
_SIMPLE_ESCAPES = {"\\": "\\", "'": "'", '"': '"', "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "/": "/"}


# One encoder for every element (json.dumps with options builds a new one a call).
_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


class CypherValueError(ValueError):
    """A Cypher literal that is not one APOC writes for a property value."""


def _cypher_string(token: str) -> str:
    """The value of a Cypher string literal (either quote), with Cypher's escapes."""
    body = token[1:-1]

    def unescape(match: re.Match) -> str:
        four, eight, other = match.groups()
        if four or eight:
            return chr(int(four or eight, 16))
        if other not in _SIMPLE_ESCAPES:
            raise CypherValueError(f"unknown escape \\{other} in a string")
        return _SIMPLE_ESCAPES[other]

    return _CYPHER_ESCAPE.sub(unescape, body)


def _json_token(match: re.Match) -> str:
    kind = match.lastgroup
    token = match.group(kind if kind != "argument" else "temporal")
    if kind == "string":
        # Valid JSON as it stands unless it holds a raw control character or an escape JSON lacks.
        if _RAW_CONTROL.search(token) or _NON_JSON_ESCAPE.search(token):
            return _encode(_cypher_string(token))
        return token
    return _json_other(kind, token, match)


def _json_token_clean(match: re.Match) -> str:
    """_json_token for a text known to hold no raw control character and no escape JSON lacks (nearly always:
    APOC's five escapes are JSON's): its double-quoted strings are JSON strings as they stand."""
    kind = match.lastgroup
    if kind == "string":
        return match.group("string")
    return _json_other(kind, match.group(kind if kind != "argument" else "temporal"), match)


def _json_other(kind: str, token: str, match: re.Match) -> str:
    if kind == "quoted":
        return _encode(_cypher_string(token))
    if kind == "key":
        # A bare key is an identifier: nothing in it needs escaping in JSON.
        return _encode(token[1:-1]) if token.startswith("`") else f'"{token}"'
    if kind in ("temporal", "argument"):
        return _encode(_cypher_string(match.group("argument")))
    if kind == "nonfinite":
        return f'"{token}"'  # as APOC's JSON export (Jackson) writes a non-finite double
    if token in ("true", "false", "null"):
        return token
    raise CypherValueError(f"not a literal APOC writes for a property value: {token}")


def cypher_literal_to_json(text: str) -> str:
    """JSON text of a Cypher map or list literal as APOC writes it (see the module docstring for the values).

    Raises:
        CypherValueError: a bare word or a function that is not a value APOC writes (e.g. `point(`), or an
            unknown string escape. JSON syntax errors are left to the JSON parser.
    """
    if '"' not in text and "'" not in text and "`" not in text:
        # No string and no quoted name (relationship rows with numeric properties, mostly): the bare keys are quoted by
        # one template substitution instead of _json_token's branches, when no other bare word is left.
        converted = _BARE_KEY.sub(r'"\1"', text)
        if _OTHER_WORD.search(converted) is None:
            return converted
    clean = _RAW_CONTROL.search(text) is None and _NON_JSON_ESCAPE.search(text) is None
    return _LITERAL_TOKEN.sub(_json_token_clean if clean else _json_token, text)


def parse_cypher_literal(text: str) -> Any:
    """The value of a Cypher map or list literal as APOC writes it.

    Raises:
        CypherValueError: the text is not such a literal (the message says what was found).
    """
    try:
        return json.loads(cypher_literal_to_json(text))
    except CypherValueError:
        raise
    except (ValueError, RecursionError) as error:
        raise CypherValueError(f"not a Cypher literal: {error}") from error


def unquote(name: str) -> str:
    return name[1:-1] if name.startswith("`") else name


def _labels(text: str | None) -> list[str]:
    return [unquote(name) for name in re.findall(_NAME, text or "")]


def constrained_node_id(label: str, key: dict[str, Any]) -> str:
    """Id of a node APOC identifies by a uniqueness constraint: its label and key as APOC's lookup writes them,
    keys in name order: `Bar{name:"bar"}`, `Dataset{globalId:"4ebd..."}`."""
    pairs = ", ".join(f"{name}:{json.dumps(value, ensure_ascii=False)}" for name, value in sorted(key.items()))
    return f"{label}{{{pairs}}}"


# ---------------------------------------------------------------------------------------------------------------
# Statement shapes
# ---------------------------------------------------------------------------------------------------------------

# `name: row.field` pairs of an UNWIND lookup: {`UNIQUE IMPORT ID`: row._id} or {name: row.name, age: row.age}.
_ROW_KEY = re.compile(rf"({_NAME})\s*:\s*row\.(?:(?:start|end)\.)?({_NAME})")
_UNWIND = re.compile(r"UNWIND\s+(?P<rows>\[.*\]|\$rows)\s+AS\s+row", re.S)
_UNWIND_NODE = re.compile(
    rf"(?P<op>CREATE|MERGE)\s+\(n:(?P<label>{_NAME})\{{(?P<key>[^{{}}]*)\}}\)\s+(?P<on_create>ON\s+CREATE\s+)?SET\s+n\s*\+=\s*row\.properties"
    rf"(?:\s+SET\s+n(?P<labels>{_LABELS}))?\s*;"
)
_UNWIND_RELATIONSHIP = re.compile(
    rf"MATCH\s+\(start:(?P<start_label>{_NAME})\{{(?P<start_key>[^{{}}]*)\}}\)\s*"
    rf"MATCH\s+\(end:(?P<end_label>{_NAME})\{{(?P<end_key>[^{{}}]*)\}}\)\s*"
    rf"(?P<op>CREATE|MERGE)\s+\(start\)-\[r:(?P<type>{_NAME})(?P<with_id>\{{\s*`{UNIQUE_ID_REL_PROPERTY}`\s*:\s*row\.id\s*\}})?\]->\(end\)\s*"
    r"(?:ON\s+CREATE\s+)?SET\s+r\s*\+=\s*row\.properties\s*;"
)
# A flat map literal (APOC's node keys hold scalars), strings skipped whole.
_FLAT_MAP = rf"\{{(?:{_STRING_BODY}|{_QUOTED_BODY}|[^{{}}\"'])*\}}"


def _lookup(name: str) -> str:
    """A node lookup of the one-statement-an-element shapes: `(n1:Label{key:value})`, groups <name>_labels and _key."""
    return rf"\(n[12](?P<{name}_labels>{_LABELS})\s*(?P<{name}_key>{_FLAT_MAP})\)"


_CREATE_NODE = re.compile(rf"CREATE\s+\((?P<labels>{_LABELS})\s*(?P<properties>\{{.*\}})\s*\)\s*;", re.S)
_MERGE_NODE = re.compile(
    rf"MERGE\s+\(n(?P<labels>{_LABELS})\s*(?P<key>{_FLAT_MAP})\)(?:\s+(?:ON\s+CREATE\s+)?SET\s+(?P<set>.*))?;", re.S
)
_MATCH_RELATIONSHIP = re.compile(
    r"MATCH\s+" + _lookup("first") + r"\s*,\s*" + _lookup("second")
    + rf"\s+(?P<op>CREATE|MERGE)\s+\(n1\)-\[r:(?P<type>{_NAME})\s*(?P<id>\{{\s*`{UNIQUE_ID_REL_PROPERTY}`\s*:\s*[^}}]*\}})?\s*"
    r"(?P<properties>\{.*\})?\]->\(n2\)(?:\s+(?:ON\s+CREATE\s+)?SET\s+(?P<set>.*))?;",
    re.S,
)
_PARAM_ROWS = re.compile(r":param\s+rows\s*=>\s*(?P<rows>\[.*\])\s*", re.S)

# Statements that carry no element, by kind.
_SKIPPED = [
    ("transaction", re.compile(r":begin|:commit|:rollback|BEGIN|COMMIT|ROLLBACK|SCHEMA AWAIT", re.I)),
    ("schema", re.compile(r"CREATE\s+(?:CONSTRAINT|(?:\w+\s+)?INDEX)\b.*;", re.S | re.I)),
    ("schema", re.compile(r"DROP\s+(?:CONSTRAINT|INDEX)\b.*;", re.S | re.I)),
    ("schema", re.compile(r"CALL\s+db\.awaitIndex(?:es)?\s*\([^)]*\)\s*;", re.I)),
    ("clean-up", re.compile(
        rf"MATCH\s+\(n:`{UNIQUE_ID_LABEL}`\)\s+WITH\s+n\s+LIMIT\s+\d+\s+REMOVE\s+n:`{UNIQUE_ID_LABEL}`\s+REMOVE\s+n\.`{UNIQUE_ID_PROPERTY}`\s*;")),
    ("clean-up", re.compile(
        rf"MATCH\s+\(\)-\[r\]->\(\)\s+WHERE\s+r\.`{UNIQUE_ID_REL_PROPERTY}`\s+IS\s+NOT\s+NULL\s+WITH\s+r\s+LIMIT\s+\d+\s+"
        rf"REMOVE\s+r\.`{UNIQUE_ID_REL_PROPERTY}`\s*;")),
]
_CONSTRAINT = re.compile(
    rf"CREATE\s+CONSTRAINT\s+(?:(?P<name>{_NAME})\s+)?(?:IF\s+NOT\s+EXISTS\s+)?"
    rf"(?:FOR|ON)\s+\(\s*(?P<var>\w+)\s*:\s*(?P<label>{_NAME})\s*\)\s+(?:REQUIRE|ASSERT)\s+\(?(?P<keys>[^)]*?)\)?\s+IS\s+(?:UNIQUE|NODE\s+KEY)\s*;",
    re.I,
)
_DROP_UNIQUE_ID = re.compile(rf"DROP\s+CONSTRAINT\s+`?{UNIQUE_ID_CONSTRAINT}`?\b", re.I)
# Lines that continue an UNWIND statement; any other line ends one that has no ';' yet.
_CONTINUATION = re.compile(r"\s*(?:MATCH\s+\((?:start|end):|CREATE\s+\(|MERGE\s+\()")
_TRANSACTION_OPEN = {":begin", "begin"}
_TRANSACTION_CLOSE = {":commit", "commit", ":rollback", "rollback"}


@dataclass
class CypherReadState:
    """What a Cypher export's statements told so far: the uniqueness constraints (label -> key properties, for the
    one-statement-an-element shapes), counts of skipped statements, and what the end of the file must show."""

    constraints: dict[str, list[str]] = field(default_factory=dict)
    skipped: Counter = field(default_factory=Counter)
    relationships: int = 0
    rows_parameter: tuple[int, str] | None = None  # (line, list text) of the last `:param rows => [...]`
    open_transaction: int | None = None  # line of a :begin / BEGIN not yet committed
    unique_id_constraint: int | None = None  # line of CREATE CONSTRAINT UNIQUE_IMPORT_NAME
    unique_id_dropped: bool = False


# ---------------------------------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------------------------------


@dataclass
class _Statement:
    line_number: int
    lines: list[str]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def cypher_rows(path: Path, stats: Any, max_line_bytes: int, raw_text_limit: int) -> Iterator[Row]:
    """Yield (position, line_number, raw, read_error, None) rows for every element of an APOC Cypher export, as
    `export_reader.read_export` hands rows on: `raw` is the element as an APOC JSON-lines element, or, with
    `read_error` set, the start of a statement that could not be read.

    Fills `stats` (an export_reader.ReadStats): lines_read / elements_read, skipped_statements, and incomplete_end
    when the file ends inside a statement, inside a transaction, or (having created APOC's UNIQUE_IMPORT_NAME
    constraint) before the clean-up that drops it: what a cut or still-copying export looks like.
    """
    state = CypherReadState(constraints=_constraints(path))
    pending: _Statement | None = None
    with path.open("rb") as handle:
        for number, text, error in _lines(handle, max_line_bytes):
            if error is not None:
                if pending is not None:
                    yield from _unterminated(pending, stats, raw_text_limit, f"at line {number}")
                    pending = None
                yield _reject(stats, number, text, error, raw_text_limit)
                continue
            stripped = text.strip()
            if pending is not None and not (pending.lines[0].lstrip().startswith("UNWIND") and _CONTINUATION.match(text)):
                yield from _unterminated(pending, stats, raw_text_limit, f"at line {number}")
                pending = None
            if pending is None:
                if not stripped:
                    continue  # blank lines between statements are layout
                if match := _PARAM_ROWS.fullmatch(stripped):
                    state.rows_parameter = (number, match.group("rows"))
                    state.skipped["parameter"] += 1
                    continue
                pending = _Statement(number, [text])
            else:
                pending.lines.append(text)
            if stripped.endswith(";") or _is_transaction(stripped):
                yield from _statement_rows(pending, state, stats, raw_text_limit)
                pending = None
            elif len(pending.lines) >= _MAX_STATEMENT_LINES:
                yield from _unterminated(pending, stats, raw_text_limit, f"within {_MAX_STATEMENT_LINES} lines")
                pending = None
    if pending is not None:
        yield from _unterminated(pending, stats, raw_text_limit, "at the end of the file")
        stats.incomplete_end = f"its last statement (line {pending.line_number:,}) has no ';' at its end"
    elif state.open_transaction is not None:
        stats.incomplete_end = f"the transaction begun at line {state.open_transaction:,} is never committed"
    elif state.unique_id_constraint is not None and not state.unique_id_dropped:
        stats.incomplete_end = (
            f"it creates APOC's {UNIQUE_ID_CONSTRAINT} constraint (line {state.unique_id_constraint:,}) but ends before the "
            "clean-up that drops it"
        )
    stats.skipped_statements = dict(sorted(state.skipped.items()))


def _constraints(path: Path) -> dict[str, list[str]]:
    """Label -> key properties of the export's uniqueness constraints, read ahead: the one-statement-an-element
    export writes its nodes before its schema, and a constrained node is known by its key."""
    state = CypherReadState()
    with path.open("rb") as handle:
        for line in handle:
            if line[:17].upper() == b"CREATE CONSTRAINT":
                _note_schema(line.decode("utf-8", "replace").strip(), 0, state)
    return state.constraints


def _lines(handle, max_line_bytes: int) -> Iterator[tuple[int, str | None, str | None]]:
    """(line number, text without its line end, read error) of each line; an over-long line is skipped unread."""
    number = 0
    while line := handle.readline(max_line_bytes + 1):
        number += 1
        if len(line) > max_line_bytes and not line.endswith(b"\n"):
            while (rest := handle.readline(max_line_bytes + 1)) and not rest.endswith(b"\n"):
                pass
            yield number, line[: 4 * 500].decode("utf-8", "replace"), f"line longer than {_size(max_line_bytes)}"
            continue
        line = line.rstrip(b"\r\n")
        if number == 1:
            line = line.removeprefix(b"\xef\xbb\xbf")
        try:
            yield number, line.decode("utf-8"), None
        except UnicodeDecodeError as error:
            yield number, line.decode("utf-8", "backslashreplace"), f"invalid UTF-8 at byte {error.start} of line {number}"


def _size(limit: int) -> str:
    return f"{limit // 2**20} MiB" if limit % 2**20 == 0 else f"{limit} bytes"


def _is_transaction(stripped: str) -> bool:
    # The length first: data lines run to megabytes, and are never a transaction command.
    return len(stripped) <= 12 and (stripped.lower() in _TRANSACTION_OPEN | _TRANSACTION_CLOSE or stripped.upper() == "SCHEMA AWAIT")


def _reject(stats: Any, line_number: int, text: str | None, reason: str, raw_text_limit: int) -> Row:
    stats.lines_read += 1
    stats.elements_read += 1
    return stats.lines_read, line_number, (text or "")[:raw_text_limit], reason, None


def _element(stats: Any, line_number: int, element: dict) -> Row:
    stats.lines_read += 1
    stats.elements_read += 1
    return stats.lines_read, line_number, _encode(element), None, None


def _unterminated(statement: _Statement, stats: Any, raw_text_limit: int, where: str) -> Iterator[Row]:
    yield _reject(stats, statement.line_number, statement.text, f"Cypher statement without ';' at its end ({where})", raw_text_limit)


def _statement_rows(statement: _Statement, state: CypherReadState, stats: Any, raw_text_limit: int) -> Iterator[Row]:
    text = statement.text.strip()
    first = statement.lines[0].strip()
    if _is_transaction(first):
        if first.lower() in _TRANSACTION_OPEN:
            state.open_transaction = statement.line_number
        elif first.lower() in _TRANSACTION_CLOSE:
            state.open_transaction = None
        state.skipped["transaction"] += 1  # SCHEMA AWAIT (neo4j-shell) counts here too: it changes no transaction
        return
    for kind, pattern in _SKIPPED:
        if pattern.fullmatch(text):
            _note_schema(text, statement.line_number, state)
            state.skipped[kind] += 1
            return
    try:
        if unwind := _UNWIND.fullmatch(first):
            yield from _unwind_rows(statement, unwind.group("rows"), state, stats, raw_text_limit)
        elif first.startswith("CREATE"):
            yield _element(stats, statement.line_number, _created_node(text, state))
        elif first.startswith("MERGE"):
            yield _element(stats, statement.line_number, _merged_node(text))
        elif first.startswith("MATCH"):
            yield _element(stats, statement.line_number, _matched_relationship(text, state))
        else:
            raise CypherValueError(f"not a statement APOC's Cypher export writes: {first[:60]!r}")
    except CypherValueError as error:
        yield _reject(stats, statement.line_number, statement.text, str(error), raw_text_limit)


def _note_schema(text: str, line_number: int, state: CypherReadState) -> None:
    if constraint := _CONSTRAINT.fullmatch(text):
        keys = [unquote(key.split(".", 1)[1]) for key in re.findall(rf"\w+\.{_NAME}", constraint.group("keys"))]
        name = unquote(constraint.group("name") or "")
        label = unquote(constraint.group("label"))
        if name == UNIQUE_ID_CONSTRAINT or label == UNIQUE_ID_LABEL:
            state.unique_id_constraint = line_number
        elif keys and (label not in state.constraints or len(keys) < len(state.constraints[label])):
            state.constraints[label] = keys  # APOC keys a node by its label's constraint with the fewest properties
    elif _DROP_UNIQUE_ID.match(text):
        state.unique_id_dropped = True


# --- UNWIND batches ---------------------------------------------------------------------------------------------


def _unwind_rows(statement: _Statement, rows_text: str, state: CypherReadState, stats: Any, raw_text_limit: int) -> Iterator[Row]:
    clause = "\n".join(statement.lines[1:]).strip()
    if rows_text == "$rows":
        if state.rows_parameter is None:
            raise CypherValueError("UNWIND $rows without a ':param rows => [...]' before it")
        rows_line, rows_text = state.rows_parameter
        state.rows_parameter = None
    else:
        rows_line = statement.line_number
    if node := _UNWIND_NODE.fullmatch(clause):
        make = _node_row_maker(node)
    elif relationship := _UNWIND_RELATIONSHIP.fullmatch(clause):
        if _PLAIN_RELATIONSHIP_LIST.fullmatch(rows_text) and _by_unique_import_id(relationship):
            yield from _plain_relationship_rows(relationship, rows_text, rows_line, state, stats)
            return
        make = _relationship_row_maker(relationship, state)
    else:
        raise CypherValueError(f"not an UNWIND statement APOC's Cypher export writes: {clause[:80]!r}")
    for row in _list_items(rows_text):
        if isinstance(row, CypherValueError):
            yield _reject(stats, rows_line, row.args[1], f"UNWIND row: {row.args[0]}", raw_text_limit)
        elif not isinstance(row, dict):
            yield _reject(stats, rows_line, json.dumps(row, ensure_ascii=False), "UNWIND row is not a map", raw_text_limit)
        else:
            yield _element(stats, rows_line, make(row))


# The commonest rows of all (the KG's relationships carry no properties): `{start: {_id:0}, end: {_id:2}, properties:{}}`.
_PLAIN_RELATIONSHIP = r"\{start: \{_id:(-?\d+)\}, end: \{_id:(-?\d+)\}, properties:\{\}\}"
_PLAIN_RELATIONSHIP_LIST = re.compile(rf"\[{_PLAIN_RELATIONSHIP}(?:, {_PLAIN_RELATIONSHIP})*\]")
_PLAIN_RELATIONSHIP_ROW = re.compile(_PLAIN_RELATIONSHIP)


def _by_unique_import_id(clause: re.Match) -> bool:
    return (
        unquote(clause.group("start_label")) == unquote(clause.group("end_label")) == UNIQUE_ID_LABEL
        and clause.group("with_id") is None
        and _row_key(clause.group("start_key")) == _row_key(clause.group("end_key")) == [(UNIQUE_ID_PROPERTY, "_id")]
    )


def _plain_relationship_rows(clause: re.Match, rows_text: str, rows_line: int, state: CypherReadState, stats: Any) -> Iterator[Row]:
    """The elements _relationship_row_maker makes of plain rows, byte for byte, without a JSON round trip a row
    (relationship rows are most of an export's rows)."""
    rel_type = unquote(clause.group("type"))
    label = _encode(rel_type)
    merge = clause.group("op") == "MERGE"
    for start, end in _PLAIN_RELATIONSHIP_ROW.findall(rows_text):
        state.relationships += 1
        relationship_id = _encode(f"{int(start)}-[{rel_type}]->{int(end)}" if merge else f"rel:{state.relationships}")
        stats.lines_read += 1
        stats.elements_read += 1
        element = (f'{{"type":"relationship","label":{label},"start":{{"id":{int(start)}}},"end":{{"id":{int(end)}}},'
                   f'"id":{relationship_id},"properties":{{}}}}')
        yield stats.lines_read, rows_line, element, None, None


def _list_items(rows_text: str) -> Iterator[Any]:
    """The items of a Cypher list literal; when the list as a whole is not one APOC writes, each item on its own,
    so that one bad item costs only itself (a CypherValueError(reason, item text) in its place)."""
    try:
        rows = parse_cypher_literal(rows_text)
    except CypherValueError:
        rows = None
    if isinstance(rows, list):
        yield from rows
        return
    for item in _top_level_items(rows_text):
        try:
            yield parse_cypher_literal(item)
        except CypherValueError as error:
            yield CypherValueError(str(error), item)


_STRUCTURE = re.compile(rf"{_STRING_BODY}|{_QUOTED_BODY}|`[^`]*`|[\[\]{{}}(),]")


def _top_level_items(list_text: str) -> list[str]:
    """The text of each item of a list literal `[a, b, ...]`, split at its top-level commas (strings skipped)."""
    items, depth, start = [], 0, 1
    for match in _STRUCTURE.finditer(list_text):
        token = match.group()
        if token in "[{(":
            depth += 1
        elif token in "]})":
            depth -= 1
            if depth == 0:
                items.append(list_text[start : match.start()])
                break
        elif token == "," and depth == 1:
            items.append(list_text[start : match.start()])
            start = match.end()
    else:
        items.append(list_text[start:])  # no closing bracket: the rest is the last item
    return [item.strip() for item in items if item.strip()]


def _row_key(key_text: str) -> list[tuple[str, str]]:
    """(property name, row field) pairs of an UNWIND lookup map."""
    return [(unquote(name), unquote(row_field)) for name, row_field in _ROW_KEY.findall(key_text)]


def _node_identity(label: str, pairs: list[tuple[str, str]], values: Any) -> tuple[Any, dict]:
    """(node id, key properties to put back) of a lookup `(x:label{name: row.field, ...})` over the row's map."""
    if not isinstance(values, dict):
        return None, {}
    if label == UNIQUE_ID_LABEL:
        return values.get("_id"), {}
    key = {name: values[row_field] for name, row_field in pairs if row_field in values}
    if len(key) < len(pairs) or not key:
        return None, {}
    return constrained_node_id(label, key), key


def _node_row_maker(clause: re.Match):
    label = unquote(clause.group("label"))
    pairs = _row_key(clause.group("key"))
    labels = ([] if label == UNIQUE_ID_LABEL else [label]) + _labels(clause.group("labels"))

    def make(row: dict) -> dict:
        node_id, key = _node_identity(label, pairs, row)
        element: dict = {"type": "node", "labels": labels}
        if node_id is not None:
            element["id"] = node_id
        if "properties" in row:
            properties = row["properties"]
            element["properties"] = {**properties, **key} if isinstance(properties, dict) else properties
        elif key:
            element["properties"] = key
        return element

    return make


def _relationship_row_maker(clause: re.Match, state: CypherReadState):
    start_label, end_label = unquote(clause.group("start_label")), unquote(clause.group("end_label"))
    start_pairs, end_pairs = _row_key(clause.group("start_key")), _row_key(clause.group("end_key"))
    rel_type, merge, with_id = unquote(clause.group("type")), clause.group("op") == "MERGE", clause.group("with_id") is not None

    def make(row: dict) -> dict:
        state.relationships += 1
        start_id = _node_identity(start_label, start_pairs, row.get("start"))[0]
        end_id = _node_identity(end_label, end_pairs, row.get("end"))[0]
        if with_id:
            relationship_id = row.get("id")
        elif merge:
            relationship_id = f"{start_id}-[{rel_type}]->{end_id}"
        else:
            relationship_id = f"rel:{state.relationships}"
        element: dict = {"type": "relationship", "label": rel_type, "start": {"id": start_id}, "end": {"id": end_id}}
        if relationship_id is not None:
            element["id"] = relationship_id
        if "properties" in row:
            element["properties"] = row["properties"]
        return element

    return make


# --- One statement an element -----------------------------------------------------------------------------------


def _created_node(text: str, state: CypherReadState) -> dict:
    """`CREATE (:Foo:`UNIQUE IMPORT LABEL` {name:"foo", `UNIQUE IMPORT ID`:0});`, or a constrained node
    `CREATE (:Bar {age:42, name:"bar"});` keyed by its label's constraint (read from the file's schema statements)."""
    match = _CREATE_NODE.fullmatch(text)
    if not match:
        raise CypherValueError(f"not a CREATE statement APOC's Cypher export writes: {text[:80]!r}")
    labels = _labels(match.group("labels"))
    properties = parse_cypher_literal(match.group("properties"))
    if not isinstance(properties, dict):
        raise CypherValueError("node properties are not a map")
    element: dict = {"type": "node", "labels": [label for label in labels if label != UNIQUE_ID_LABEL]}
    if UNIQUE_ID_LABEL in labels:
        node_id = properties.pop(UNIQUE_ID_PROPERTY, None)
    else:
        node_id = next(
            (constrained_node_id(label, {key: properties[key] for key in state.constraints[label]})
             for label in sorted(labels) if label in state.constraints and all(key in properties for key in state.constraints[label])),
            None,
        )
    if node_id is not None:
        element["id"] = node_id
    element["properties"] = properties
    return element


def _merged_node(text: str) -> dict:
    """`MERGE (n:`UNIQUE IMPORT LABEL`{`UNIQUE IMPORT ID`:0}) SET n.name="foo", n:Foo;` (or ON CREATE SET)."""
    match = _MERGE_NODE.fullmatch(text)
    if not match:
        raise CypherValueError(f"not a MERGE statement APOC's Cypher export writes: {text[:80]!r}")
    lookup_labels = _labels(match.group("labels"))
    key = parse_cypher_literal(match.group("key"))
    if not isinstance(key, dict):
        raise CypherValueError("node key is not a map")
    properties, labels = _set_items(match.group("set") or "", "n")
    element: dict = {"type": "node"}
    if UNIQUE_ID_LABEL in lookup_labels:
        node_id = key.get(UNIQUE_ID_PROPERTY)
    else:
        node_id = constrained_node_id(lookup_labels[0], key) if lookup_labels and key else None
        properties = {**properties, **key}
    element["labels"] = [label for label in lookup_labels if label != UNIQUE_ID_LABEL] + labels
    if node_id is not None:
        element["id"] = node_id
    element["properties"] = properties
    return element


def _matched_relationship(text: str, state: CypherReadState) -> dict:
    """`MATCH (n1:...{...}), (n2:...{...}) CREATE (n1)-[r:TYPE {props}]->(n2);` or `... MERGE (n1)-[r:TYPE]->(n2)
    SET r.since=2016;` (ON CREATE SET for updateStructure; `{`UNIQUE IMPORT ID REL`:5}` for multiple relationships)."""
    match = _MATCH_RELATIONSHIP.fullmatch(text)
    if not match:
        raise CypherValueError(f"not a MATCH statement APOC's Cypher export writes: {text[:80]!r}")
    state.relationships += 1
    start_id = _lookup_id(match.group("first_labels"), match.group("first_key"))
    end_id = _lookup_id(match.group("second_labels"), match.group("second_key"))
    rel_type = unquote(match.group("type"))
    properties = parse_cypher_literal(match.group("properties")) if match.group("properties") else {}
    if not isinstance(properties, dict):
        raise CypherValueError("relationship properties are not a map")
    properties.update(_set_items(match.group("set") or "", "r")[0])
    if match.group("id"):
        relationship_id = parse_cypher_literal(match.group("id")).get(UNIQUE_ID_REL_PROPERTY)
    elif match.group("op") == "MERGE":
        relationship_id = f"{start_id}-[{rel_type}]->{end_id}"
    else:
        relationship_id = f"rel:{state.relationships}"
    return {"type": "relationship", "id": relationship_id, "label": rel_type, "start": {"id": start_id}, "end": {"id": end_id},
            "properties": properties}


def _lookup_id(labels_text: str, key_text: str) -> Any:
    labels = _labels(labels_text)
    key = parse_cypher_literal(key_text)
    if not isinstance(key, dict) or not labels:
        return None
    if UNIQUE_ID_LABEL in labels:
        return key.get(UNIQUE_ID_PROPERTY)
    return constrained_node_id(labels[0], key) if key else None


_SET_ITEM = re.compile(rf"(?P<var>\w+)(?:\.(?P<key>{_NAME})\s*=(?P<value>.*)|(?P<labels>{_LABELS}))", re.S)


def _set_items(text: str, variable: str) -> tuple[dict, list[str]]:
    """Properties and labels of a SET clause `n.name="foo", n.born=date('2018-10-31'), n:Foo` (APOC's order:
    properties, then labels), split at its top-level commas."""
    properties: dict = {}
    labels: list[str] = []
    if not text.strip():
        return properties, labels
    for item in _top_level_items(f"[{text}]"):
        match = _SET_ITEM.fullmatch(item)
        if not match or match.group("var") != variable:
            raise CypherValueError(f"not a SET item APOC writes: {item[:60]!r}")
        if match.group("labels"):
            labels += _labels(match.group("labels"))
        else:
            properties[unquote(match.group("key"))] = parse_cypher_literal(f"[{match.group('value')}]")[0]
    return properties, labels
