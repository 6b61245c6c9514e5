"""How Neo4j APOC writes property values and whole graphs: the one writer of the sample (tools/build_sample.py) and
benchmark (benchmarks/generate_kg.py) KGs.

`graphml_value` is APOC's GraphML export of one property; `ApocJsonLinesWriter`, `ApocGraphmlWriter` and
`ApocCypherWriter` write a graph as APOC's JSON-lines, GraphML and Cypher exports (`apoc.export.cypher.all` with its
defaults) do. The shapes and the value formatting follow APOC's source
(neo4j/apoc at 468861ea: `AbstractCypherFormatter.buildStatementForNodes` / `buildStatementForRelationships`,
`CypherFormatterUtils.toString`, `FormatUtils.formatString`, `MultiStatementCypherSubGraphExporter.export`,
`ExportFormat.CYPHER_SHELL`) and the expected outputs of its tests (`ExportCypherTest.java`); the reader of these
files is `recon_assets/kg/cypher_export.py`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from decimal import Decimal
from typing import TextIO
from xml.sax.saxutils import escape

UNIQUE_ID_LABEL = "`UNIQUE IMPORT LABEL`"
UNIQUE_ID_PROPERTY = "`UNIQUE IMPORT ID`"
# ExportConfig's defaults: batchSize (rows a transaction) and useOptimizations.unwindBatchSize (rows a statement).
BATCH_SIZE = 20_000
UNWIND_BATCH_SIZE = 20


def graphml_value(value: object) -> tuple[str, str]:
    """(attr.type, text) as APOC's GraphML export writes a property: booleans as true/false, ints as long,
    floats as double, lists as JSON array text, anything else as a string."""
    if isinstance(value, bool):
        return "boolean", "true" if value else "false"
    if isinstance(value, int):
        return "long", str(value)
    if isinstance(value, float):
        return "double", repr(value)
    if isinstance(value, list):
        return "string", json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return "string", str(value)


def cypher_name(name: str) -> str:
    """A label, type or key as APOC's Util.quote writes it: bare when a Java identifier without $, else in
    backticks (Python's identifier rule stands in for Java's; they agree on the KG's names)."""
    return name if name.isidentifier() and "$" not in name else f"`{name}`"


def java_double(value: float) -> str:
    """Java's Double.toString (JDK 19+: shortest digits that round-trip, as Python's repr): plain decimal with at
    least one fraction digit for 1e-3 <= |x| < 1e7, else d.dddE<exponent>; NaN, Infinity, -Infinity as words."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "-0.0" if math.copysign(1.0, value) < 0 else "0.0"
    if 1e-3 <= abs(value) < 1e7:
        return repr(value)  # repr writes fixed notation in this range, with ".0" on whole numbers
    sign, digits, exponent = Decimal(repr(value)).normalize().as_tuple()
    text = "".join(map(str, digits))
    fraction = text[1:] or "0"
    return f"{'-' if sign else ''}{text[0]}.{fraction}E{exponent + len(digits) - 1}"


def cypher_value(value: object) -> str:
    """A property value as APOC's CypherFormatterUtils.toString writes it: strings quoted with \\\\ \\n \\r \\t \\"
    escaped (FormatUtils.formatString), Long and Double.toString numbers, true/false, null, lists `[a, b]`.

    Raises:
        TypeError: a map, which no Neo4j property holds.
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return java_double(value)
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t").replace('"', '\\"')
        return f'"{escaped}"'
    if isinstance(value, list):
        return "[" + ", ".join(cypher_value(item) for item in value) + "]"
    raise TypeError(f"no Neo4j property holds a {type(value).__name__}")


def cypher_map(properties: dict) -> str:
    return "{" + ", ".join(f"{cypher_name(key)}:{cypher_value(value)}" for key, value in properties.items()) + "}"


def _node_id(node_id: object) -> str:
    # APOC writes Neo4j's integer node id; a test graph's non-numeric id is written as a string.
    return str(node_id) if isinstance(node_id, int) or str(node_id).isdigit() else cypher_value(str(node_id))


class ApocCypherWriter:
    """Write a graph as `CALL apoc.export.cypher.all(file, {})` does: format cypher-shell (`:begin` / `:commit`),
    cypherFormat create, useOptimizations UNWIND_BATCH (20 rows a statement, 20,000 a transaction), for a graph
    without uniqueness constraints, so that every node carries APOC's `UNIQUE IMPORT LABEL` / `UNIQUE IMPORT ID`
    (its Neo4j id):

        :begin
        CREATE CONSTRAINT UNIQUE_IMPORT_NAME FOR (node:`UNIQUE IMPORT LABEL`) REQUIRE (node.`UNIQUE IMPORT ID`) IS UNIQUE;
        :commit
        CALL db.awaitIndexes(300);
        :begin
        UNWIND [{_id:0, properties:{name:"foo"}}, ...] AS row
        CREATE (n:`UNIQUE IMPORT LABEL`{`UNIQUE IMPORT ID`: row._id}) SET n += row.properties SET n:Foo;
        :commit
        :begin
        UNWIND [{start: {_id:0}, end: {_id:1}, properties:{}}, ...] AS row
        MATCH (start:`UNIQUE IMPORT LABEL`{`UNIQUE IMPORT ID`: row.start._id})
        MATCH (end:`UNIQUE IMPORT LABEL`{`UNIQUE IMPORT ID`: row.end._id})
        CREATE (start)-[r:KNOWS]->(end) SET r += row.properties;
        :commit
        :begin
        MATCH (n:`UNIQUE IMPORT LABEL`)  WITH n LIMIT 20000 REMOVE n:`UNIQUE IMPORT LABEL` REMOVE n.`UNIQUE IMPORT ID`;
        :commit
        :begin
        DROP CONSTRAINT UNIQUE_IMPORT_NAME;
        :commit

    Within each transaction APOC groups the rows, nodes by label set and relationships by type and endpoint labels,
    in the order of a hash map; here groups come in the order they are first met, labels sorted. Nodes are written
    before relationships: the first relationship ends the nodes. Memory: one transaction's rows.
    """

    def __init__(self, handle: TextIO, *, batch_size: int = BATCH_SIZE, unwind_batch_size: int = UNWIND_BATCH_SIZE) -> None:
        self.handle = handle
        self.batch_size = batch_size
        self.unwind_batch_size = unwind_batch_size
        self.nodes = 0
        self._rows: dict[tuple, list[str]] = {}
        self._buffered = 0
        self._section = "schema"
        handle.write(
            f":begin\nCREATE CONSTRAINT UNIQUE_IMPORT_NAME FOR (node:{UNIQUE_ID_LABEL}) REQUIRE (node.{UNIQUE_ID_PROPERTY}) IS UNIQUE;\n"
            ":commit\nCALL db.awaitIndexes(300);\n"
        )

    def node(self, node_id: object, labels: Iterable[str], properties: dict) -> None:
        self._enter("nodes")
        self.nodes += 1
        self._add(tuple(sorted(labels)), f"{{_id:{_node_id(node_id)}, properties:{cypher_map(properties)}}}")

    def relationship(self, start: tuple[object, Iterable[str]], rel_type: str, end: tuple[object, Iterable[str]], properties: dict) -> None:
        self._enter("relationships")
        key = (rel_type, tuple(sorted(start[1])), tuple(sorted(end[1])))
        self._add(key, f"{{start: {{_id:{_node_id(start[0])}}}, end: {{_id:{_node_id(end[0])}}}, properties:{cypher_map(properties)}}}")

    def raw(self, text: str) -> None:
        """Write `text` as it is, between transactions (after the rows buffered so far): for damaged statements."""
        self._flush()
        self.handle.write(text)

    def close(self) -> None:
        """Write the rows still buffered and APOC's clean-up statements; the handle stays open."""
        self._enter("clean-up")
        for _ in range(math.ceil(self.nodes / self.batch_size)):
            self.handle.write(
                f":begin\nMATCH (n:{UNIQUE_ID_LABEL})  WITH n LIMIT {self.batch_size} REMOVE n:{UNIQUE_ID_LABEL} "
                f"REMOVE n.{UNIQUE_ID_PROPERTY};\n:commit\n"
            )
        if self.nodes:
            self.handle.write(":begin\nDROP CONSTRAINT UNIQUE_IMPORT_NAME;\n:commit\n")

    def _enter(self, section: str) -> None:
        if section != self._section:
            self._flush()
            self._section = section

    def _add(self, key: tuple, row: str) -> None:
        self._rows.setdefault(key, []).append(row)
        self._buffered += 1
        if self._buffered == self.batch_size:
            self._flush()

    def _flush(self) -> None:
        if not self._buffered:
            return
        write = self.handle.write
        write(":begin\n")
        for key, rows in self._rows.items():
            clause = self._clause(key)
            for first in range(0, len(rows), self.unwind_batch_size):
                write(f"UNWIND [{', '.join(rows[first:first + self.unwind_batch_size])}] AS row\n{clause}")
        write(":commit\n")
        self._rows, self._buffered = {}, 0

    def _clause(self, key: tuple) -> str:
        if self._section == "nodes":
            labels = ":".join(cypher_name(label) for label in key)
            return (f"CREATE (n:{UNIQUE_ID_LABEL}{{{UNIQUE_ID_PROPERTY}: row._id}}) SET n += row.properties"
                    + (f" SET n:{labels}" if labels else "") + ";\n")
        return (
            f"MATCH (start:{UNIQUE_ID_LABEL}{{{UNIQUE_ID_PROPERTY}: row.start._id}})\n"
            f"MATCH (end:{UNIQUE_ID_LABEL}{{{UNIQUE_ID_PROPERTY}: row.end._id}})\n"
            f"CREATE (start)-[r:{cypher_name(key[0])}]->(end) SET r += row.properties;\n"
        )


def cypher_from_json_lines(lines: Iterable[str], handle: TextIO, **options: int) -> None:
    """Write the APOC JSON-lines elements of `lines` (nodes, then relationships, as APOC's JSON export writes
    them) as APOC's Cypher export of the same graph, through ApocCypherWriter (`options`: batch sizes).

    Relationship ids are not written: APOC's Cypher export has none. A relationship's endpoint labels come from its
    `start.labels` / `end.labels` when given, else from the nodes read before it.

    Raises:
        ValueError: a line that is not an APOC JSON-lines node or relationship.
    """
    writer = ApocCypherWriter(handle, **options)
    labels_of: dict[str, list[str]] = {}
    for line in lines:
        if not line.strip():
            continue
        element = json.loads(line)
        if element.get("type") == "node":
            labels_of[str(element["id"])] = element.get("labels") or []
            writer.node(element["id"], element.get("labels") or [], element.get("properties") or {})
        elif element.get("type") == "relationship":
            start, end = element["start"], element["end"]
            writer.relationship(
                (start["id"], start.get("labels", labels_of.get(str(start["id"]), []))),
                element["label"],
                (end["id"], end.get("labels", labels_of.get(str(end["id"]), []))),
                element.get("properties") or {},
            )
        else:
            raise ValueError(f"not an APOC JSON-lines element: {line[:80]!r}")
    writer.close()


def apoc_json(value: object) -> str:
    """`value` as APOC's JSON export writes it: compact, keys sorted, non-ASCII characters as they are."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


class ApocJsonLinesWriter:
    """Write a graph as APOC's JSON export (`apoc.export.json.all`, JSON-lines): one line per node, then one per
    relationship; ids are strings, `properties` (keys sorted) is left out when empty, and a relationship's `start` /
    `end` name the node's id and labels, plus its properties when `endpoint_properties` gives them (APOC's default
    `writeNodeProperties: true`; the function returns the node's properties as JSON text, or None)."""

    def __init__(self, handle: TextIO, *, endpoint_properties: Callable[[object], str | None] | None = None) -> None:
        self.handle = handle
        self.endpoint_properties = endpoint_properties
        self.last_line = ""

    def node(self, node_id: object, labels: Iterable[str], properties: dict) -> None:
        tail = f',"properties":{apoc_json(properties)}' if properties else ""
        self._write(f'{{"type":"node","id":{apoc_json(str(node_id))},"labels":{apoc_json(list(labels))}{tail}}}\n')

    def relationship(
        self, rel_id: object, rel_type: str, start: tuple[object, Iterable[str]], end: tuple[object, Iterable[str]], properties: dict
    ) -> None:
        middle = f'"properties":{apoc_json(properties)},' if properties else ""
        self._write(
            f'{{"type":"relationship","id":{apoc_json(str(rel_id))},"label":{apoc_json(rel_type)},{middle}'
            f'"start":{self._endpoint(*start)},"end":{self._endpoint(*end)}}}\n'
        )

    def _endpoint(self, node_id: object, labels: Iterable[str]) -> str:
        properties = self.endpoint_properties(node_id) if self.endpoint_properties else None
        tail = f',"properties":{properties}' if properties else ""
        return f'{{"id":{apoc_json(str(node_id))},"labels":{apoc_json(list(labels))}{tail}}}'

    def _write(self, line: str) -> None:
        self.last_line = line
        self.handle.write(line)


class ApocGraphmlWriter:
    """Write a graph as APOC's GraphML export (`apoc.export.graphml.all`): the property keys declared first (APOC
    declares the keys in use, never `labels` / `label`), a node's labels as attribute `labels=":A:B"` plus a `labels`
    data element, a relationship's type as attribute `label` plus a `label` data element, values as `graphml_value`
    writes them, two spaces of indent a level. `close` ends the document; the handle stays open."""

    def __init__(self, handle: TextIO, *, node_keys: dict[str, str], edge_keys: dict[str, str] | None = None) -> None:
        self.handle = handle
        handle.write("<?xml version='1.0' encoding='UTF-8'?>\n<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n")
        for scope, keys in (("node", node_keys), ("edge", edge_keys or {})):
            for name, kind in keys.items():
                handle.write(f'  <key id="{_attr(name)}" for="{scope}" attr.name="{_attr(name)}" attr.type="{kind}"/>\n')
        handle.write('  <graph id="G" edgedefault="directed">\n')

    def node(self, node_id: object, labels: Iterable[str], properties: dict) -> None:
        names = _attr("".join(f":{label}" for label in labels))
        self.handle.write(
            f'    <node id="n{node_id}" labels="{names}">\n      <data key="labels">{names}</data>\n{_data(properties)}    </node>\n'
        )

    def relationship(self, rel_id: object, rel_type: str, start: object, end: object, properties: dict) -> None:
        self.handle.write(
            f'    <edge id="e{rel_id}" source="n{start}" target="n{end}" label="{_attr(rel_type)}">\n'
            f"      <data key=\"label\">{escape(rel_type)}</data>\n{_data(properties)}    </edge>\n"
        )

    def raw(self, text: str) -> None:
        """Write `text` as it is between elements: for damaged elements."""
        self.handle.write(text)

    def close(self) -> None:
        self.handle.write("  </graph>\n</graphml>\n")


def graphml_key_types(property_maps: Iterable[dict]) -> dict[str, str]:
    """The GraphML key declarations of these properties, sorted by name: each key's `graphml_value` type, 'string'
    where its values disagree."""
    kinds: dict[str, str] = {}
    for properties in property_maps:
        for name, value in properties.items():
            kind = graphml_value(value)[0]
            kinds[name] = kind if kinds.get(name, kind) == kind else "string"
    return dict(sorted(kinds.items()))


def _data(properties: dict) -> str:
    return "".join(
        f'      <data key="{_attr(name)}">{escape(graphml_value(value)[1])}</data>\n' for name, value in sorted(properties.items())
    )


def _attr(text: str) -> str:
    """`text` inside a double-quoted XML attribute."""
    return escape(text, {'"': "&quot;"})
