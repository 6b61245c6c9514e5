"""APOC's Cypher export (`apoc.export.cypher.all`) read like the other two formats: each shape APOC writes gives the
nodes and relationships the same graph gives as JSON-lines, every unreadable statement or row is a reject with its
reason, lines are conserved, and a cut file fails. The statement texts below are APOC's own shapes, from the expected
outputs of neo4j/apoc's `ExportCypherTest.java` / `ExportCypherTestUtils.java` (468861ea), with the KG's labels."""

from __future__ import annotations

import io
import json
import math
import re
from pathlib import Path

import duckdb
import pytest

from recon_assets.kg.apoc_format import ApocCypherWriter, cypher_from_json_lines, cypher_name, cypher_value, java_double
from recon_assets.kg.cypher_export import CypherValueError, parse_cypher_literal
from recon_assets.kg.export_reader import KgExportError, KgFormat, ReadStats, detect_format, read_export
from recon_assets.kg.ingest import current_snapshot_id, ingest_export
from recon_assets.shared.paths import SAMPLE_DIR

SAMPLE = SAMPLE_DIR
UIL, UID = "`UNIQUE IMPORT LABEL`", "`UNIQUE IMPORT ID`"
SCHEMA = (
    f":begin\nCREATE CONSTRAINT UNIQUE_IMPORT_NAME FOR (node:{UIL}) REQUIRE (node.{UID}) IS UNIQUE;\n:commit\n"
    "CALL db.awaitIndexes(300);\n"
)
CLEAN_UP = (
    f":begin\nMATCH (n:{UIL})  WITH n LIMIT 20000 REMOVE n:{UIL} REMOVE n.{UID};\n:commit\n"
    ":begin\nDROP CONSTRAINT UNIQUE_IMPORT_NAME;\n:commit\n"
)
NODES = (
    ":begin\n"
    'UNWIND [{_id:0, properties:{doi:"10.1000/a", year:"2019"}}, {_id:1, properties:{doi:"10.1000/b"}}] AS row\n'
    f"CREATE (n:{UIL}{{{UID}: row._id}}) SET n += row.properties SET n:Publication;\n"
    'UNWIND [{_id:2, properties:{globalId:"g-d", shortName:"AIRS2RET"}}] AS row\n'
    f"CREATE (n:{UIL}{{{UID}: row._id}}) SET n += row.properties SET n:Dataset;\n"
    ":commit\n"
)
RELATIONSHIPS = (
    ":begin\n"
    "UNWIND [{start: {_id:0}, end: {_id:2}, properties:{}}, {start: {_id:1}, end: {_id:2}, properties:{}}] AS row\n"
    f"MATCH (start:{UIL}{{{UID}: row.start._id}})\n"
    f"MATCH (end:{UIL}{{{UID}: row.end._id}})\n"
    "CREATE (start)-[r:USES_DATASET]->(end) SET r += row.properties;\n"
    ":commit\n"
)
DEFAULT_EXPORT = SCHEMA + NODES + RELATIONSHIPS + CLEAN_UP

EXPECTED_NODES = [
    ("0", ["Publication"], {"doi": "10.1000/a", "year": "2019"}),
    ("1", ["Publication"], {"doi": "10.1000/b"}),
    ("2", ["Dataset"], {"globalId": "g-d", "shortName": "AIRS2RET"}),
]


def ingest(con: duckdb.DuckDBPyConnection, path: Path, text: str):
    path.write_text(text, encoding="utf-8")
    return ingest_export(con, path, "test")


def nodes(con: duckdb.DuckDBPyConnection) -> list[tuple]:
    return [(i, labels, json.loads(p)) for i, labels, p in con.execute("SELECT node_id, labels, properties FROM kg_nodes ORDER BY node_id").fetchall()]


def relationships(con: duckdb.DuckDBPyConnection) -> list[tuple]:
    return [(*row[:4], json.loads(row[4])) for row in con.execute(
        "SELECT relationship_id, rel_type, start_id, end_id, properties FROM kg_relationships ORDER BY start_id, relationship_id"
    ).fetchall()]


def rejects(con: duckdb.DuckDBPyConnection, snapshot_id: str) -> list[tuple]:
    return con.execute(
        "SELECT line_number, element_id, reason FROM kg_rejects WHERE snapshot_id = ? ORDER BY line_number, element_id", [snapshot_id]
    ).fetchall()


def assert_conserved(con: duckdb.DuckDBPyConnection, summary) -> None:
    assert summary.lines_read == summary.nodes_accepted + summary.relationships_accepted + summary.rejected
    assert con.execute("SELECT count(*) FROM kg_nodes").fetchone()[0] == summary.nodes_accepted
    assert con.execute("SELECT count(*) FROM kg_relationships").fetchone()[0] == summary.relationships_accepted
    assert len(rejects(con, summary.snapshot_id)) == summary.rejected


@pytest.fixture
def con():
    with duckdb.connect() as connection:
        yield connection


# --- Cypher literals as APOC writes them ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('{name:"foo"}', {"name": "foo"}),
        (r'{s:"a \"b\" c\\d\ne\rf\tg"}', {"s": 'a "b" c\\d\ne\rf\tg'}),  # FormatUtils.formatString's five escapes
        ('{s:"bell\x07 and \x0b raw"}', {"s": "bell\x07 and \x0b raw"}),  # other control characters are written raw
        ('{s:"caf\u00e9 \u2014 \U0001f30d"}', {"s": "caf\u00e9 \u2014 \U0001f30d"}),
        ('{s:"x: {y}, [z]"}', {"s": "x: {y}, [z]"}),  # structure inside a string is text
        ("{`$lock`:true, `UNIQUE IMPORT ID`:20, `a b`:false}", {"$lock": True, "UNIQUE IMPORT ID": 20, "a b": False}),
        ("{var1:1.416785E32, var2:120000.0, x:1.0E-5, n:-42, z:0.0}", {"var1": 1.416785e32, "var2": 120000.0, "x": 1e-5, "n": -42, "z": 0.0}),
        ("{a:NaN, b:Infinity, c:-Infinity}", {"a": "NaN", "b": "Infinity", "c": "-Infinity"}),  # as APOC's JSON export writes them
        ("{born:date('2018-10-31'), t:datetime('2018-10-31T10:00:00Z'), d:duration('P1D')}",
         {"born": "2018-10-31", "t": "2018-10-31T10:00:00Z", "d": "P1D"}),
        ('{l:[1, 2.5, "a", null, true], e:[]}', {"l": [1, 2.5, "a", None, True], "e": []}),
        ('[{_id:0, properties:{}}, {_id:1, properties:{date:"x"}}]', [{"_id": 0, "properties": {}}, {"_id": 1, "properties": {"date": "x"}}]),
        ("{s:'single \\'quoted\\''}", {"s": "single 'quoted'"}),
    ],
)
def test_apoc_literals_are_read(text: str, value: object) -> None:
    assert parse_cypher_literal(text) == value


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{p:point({x: 1.0, y: 2.0, crs: 'cartesian'})}", "not a literal APOC writes for a property value: point"),
        ("{v:row.x}", "not a literal APOC writes for a property value: row"),
        ('{s:"bad \\q escape"}', r"unknown escape \\q"),
        ("{a:1,,}", "not a Cypher literal"),
        ('{s:"unterminated}', "not a literal APOC writes for a property value: unterminated"),
    ],
)
def test_other_literals_are_refused_with_a_reason(text: str, message: str) -> None:
    with pytest.raises(CypherValueError, match=message):
        parse_cypher_literal(text)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0.15, "0.15"), (1.416785e32, "1.416785E32"), (120000.0, "120000.0"), (1e-5, "1.0E-5"), (9.9e-4, "9.9E-4"),
        (1e7, "1.0E7"), (12345678.9, "1.23456789E7"), (-2.5e-10, "-2.5E-10"), (5.0, "5.0"), (0.0, "0.0"), (-0.0, "-0.0"),
        (math.nan, "NaN"), (math.inf, "Infinity"), (-math.inf, "-Infinity"),
    ],
)
def test_java_double_to_string(value: float, text: str) -> None:
    """Java's Double.toString, as APOC writes doubles (ExportCypherTest: 1.416785E32, 120000.0)."""
    assert java_double(value) == text


@pytest.mark.parametrize(
    "value",
    ["plain", 'a "b" c\\d\ne\rf\tg\x07', "", 0, -7, 2**62, 0.15, 1e-5, 1.416785e32, True, False, None, [1, "a", [2.5, None]], []],
)
def test_a_written_value_reads_back(value: object) -> None:
    assert parse_cypher_literal(f"{{v:{cypher_value(value)}}}") == {"v": value}


@pytest.mark.parametrize(("name", "text"), [("year", "year"), ("_id", "_id"), ("$lock", "`$lock`"), ("a b", "`a b`"), ("1st", "`1st`")])
def test_names_are_quoted_as_apoc_quotes_them(name: str, text: str) -> None:
    assert cypher_name(name) == text


# --- Every shape APOC writes gives the same graph ------------------------------------------------------------------

CONSTRAINED_SCHEMA = (
    ":begin\nCREATE CONSTRAINT dataset_global_id FOR (node:Dataset) REQUIRE (node.globalId) IS UNIQUE;\n"
    f"CREATE CONSTRAINT UNIQUE_IMPORT_NAME FOR (node:{UIL}) REQUIRE (node.{UID}) IS UNIQUE;\n:commit\nCALL db.awaitIndexes(300);\n"
)
CONSTRAINED_DATASET = 'Dataset{globalId:"g-d"}'
SHAPES = {
    "UNWIND_BATCH, cypher-shell, create (APOC's defaults)": (DEFAULT_EXPORT, ["rel:1", "rel:2"], "2"),
    "UNWIND_BATCH, neo4j-shell, updateAll": (
        (SCHEMA + NODES + RELATIONSHIPS + CLEAN_UP).replace(":begin", "BEGIN").replace(":commit", "COMMIT")
        .replace("CALL db.awaitIndexes(300);", "SCHEMA AWAIT").replace("CREATE (n:", "MERGE (n:").replace("CREATE (start)", "MERGE (start)"),
        ["0-[USES_DATASET]->2", "1-[USES_DATASET]->2"], "2",
    ),
    "UNWIND_BATCH, plain, addStructure": (
        NODES.replace(":begin\n", "").replace(":commit\n", "").replace("CREATE (n:", "MERGE (n:").replace(") SET n +=", ") ON CREATE SET n +=")
        + RELATIONSHIPS.replace(":begin\n", "").replace(":commit\n", "").replace(") SET r +=", ")  SET r +="),
        ["rel:1", "rel:2"], "2",
    ),
    "UNWIND_BATCH_PARAMS": (
        SCHEMA + ":begin\n"
        + ':param rows => [{_id:0, properties:{doi:"10.1000/a", year:"2019"}}, {_id:1, properties:{doi:"10.1000/b"}}]\n'
        + f"UNWIND $rows AS row\nCREATE (n:{UIL}{{{UID}: row._id}}) SET n += row.properties SET n:Publication;\n"
        + ':param rows => [{_id:2, properties:{globalId:"g-d", shortName:"AIRS2RET"}}]\n'
        + f"UNWIND $rows AS row\nCREATE (n:{UIL}{{{UID}: row._id}}) SET n += row.properties SET n:Dataset;\n:commit\n:begin\n"
        + ":param rows => [{start: {_id:0}, end: {_id:2}, properties:{}}, {start: {_id:1}, end: {_id:2}, properties:{}}]\n"
        + f"UNWIND $rows AS row\nMATCH (start:{UIL}{{{UID}: row.start._id}})\nMATCH (end:{UIL}{{{UID}: row.end._id}})\n"
        + "CREATE (start)-[r:USES_DATASET]->(end) SET r += row.properties;\n:commit\n" + CLEAN_UP,
        ["rel:1", "rel:2"], "2",
    ),
    "multipleRelationshipsWithType": (
        SCHEMA + NODES
        + ":begin\nUNWIND [{start: {_id:0}, id: 7, end: {_id:2}, properties:{}}, {start: {_id:1}, id: 8, end: {_id:2}, properties:{}}] AS row\n"
        + f"MATCH (start:{UIL}{{{UID}: row.start._id}})\nMATCH (end:{UIL}{{{UID}: row.end._id}})\n"
        + "CREATE (start)-[r:USES_DATASET{`UNIQUE IMPORT ID REL`:row.id}]->(end) SET r += row.properties;\n:commit\n"
        + CLEAN_UP
        + ":begin\nMATCH ()-[r]->() WHERE r.`UNIQUE IMPORT ID REL` IS NOT NULL WITH r LIMIT 20000 REMOVE r.`UNIQUE IMPORT ID REL`;\n:commit\n",
        ["7", "8"], "2",
    ),
    "a uniqueness constraint keys the Dataset": (
        CONSTRAINED_SCHEMA
        + ":begin\n"
        + 'UNWIND [{_id:0, properties:{doi:"10.1000/a", year:"2019"}}, {_id:1, properties:{doi:"10.1000/b"}}] AS row\n'
        + f"CREATE (n:{UIL}{{{UID}: row._id}}) SET n += row.properties SET n:Publication;\n"
        + 'UNWIND [{globalId:"g-d", properties:{shortName:"AIRS2RET"}}] AS row\n'
        + "CREATE (n:Dataset{globalId: row.globalId}) SET n += row.properties;\n:commit\n:begin\n"
        + 'UNWIND [{start: {_id:0}, end: {globalId:"g-d"}, properties:{}}, {start: {_id:1}, end: {globalId:"g-d"}, properties:{}}] AS row\n'
        + f"MATCH (start:{UIL}{{{UID}: row.start._id}})\nMATCH (end:Dataset{{globalId: row.end.globalId}})\n"
        + "CREATE (start)-[r:USES_DATASET]->(end) SET r += row.properties;\n:commit\n" + CLEAN_UP,
        ["rel:1", "rel:2"], CONSTRAINED_DATASET,
    ),
    "NONE, neo4j-shell, create": (
        f"BEGIN\nCREATE (:Publication:{UIL} {{doi:\"10.1000/a\", year:\"2019\", {UID}:0}});\n"
        f"CREATE (:Publication:{UIL} {{doi:\"10.1000/b\", {UID}:1}});\n"
        f"CREATE (:Dataset:{UIL} {{globalId:\"g-d\", shortName:\"AIRS2RET\", {UID}:2}});\nCOMMIT\n"
        f"BEGIN\nCREATE CONSTRAINT UNIQUE_IMPORT_NAME FOR (node:{UIL}) REQUIRE (node.{UID}) IS UNIQUE;\nCOMMIT\nSCHEMA AWAIT\n"
        f"BEGIN\nMATCH (n1:{UIL}{{{UID}:0}}), (n2:{UIL}{{{UID}:2}}) CREATE (n1)-[r:USES_DATASET]->(n2);\n"
        f"MATCH (n1:{UIL}{{{UID}:1}}), (n2:{UIL}{{{UID}:2}}) CREATE (n1)-[r:USES_DATASET]->(n2);\nCOMMIT\n"
        + CLEAN_UP.replace(":begin", "BEGIN").replace(":commit", "COMMIT"),
        ["rel:1", "rel:2"], "2",
    ),
    "NONE, cypher-shell, updateAll": (
        f":begin\nMERGE (n:{UIL}{{{UID}:0}}) SET n.doi=\"10.1000/a\", n.year=\"2019\", n:Publication;\n"
        f"MERGE (n:{UIL}{{{UID}:1}}) SET n.doi=\"10.1000/b\", n:Publication;\n"
        f"MERGE (n:{UIL}{{{UID}:2}}) SET n.globalId=\"g-d\", n.shortName=\"AIRS2RET\", n:Dataset;\n:commit\n" + SCHEMA
        + f":begin\nMATCH (n1:{UIL}{{{UID}:0}}), (n2:{UIL}{{{UID}:2}}) MERGE (n1)-[r:USES_DATASET]->(n2);\n"
        f"MATCH (n1:{UIL}{{{UID}:1}}), (n2:{UIL}{{{UID}:2}}) MERGE (n1)-[r:USES_DATASET]->(n2);\n:commit\n" + CLEAN_UP,
        ["0-[USES_DATASET]->2", "1-[USES_DATASET]->2"], "2",
    ),
    "NONE, create, a uniqueness constraint keys the Dataset": (
        f":begin\nCREATE (:Publication:{UIL} {{doi:\"10.1000/a\", year:\"2019\", {UID}:0}});\n"
        f"CREATE (:Publication:{UIL} {{doi:\"10.1000/b\", {UID}:1}});\n"
        "CREATE (:Dataset {globalId:\"g-d\", shortName:\"AIRS2RET\"});\n:commit\n"
        ":begin\nCREATE CONSTRAINT dataset_global_id FOR (node:Dataset) REQUIRE (node.globalId) IS UNIQUE;\n:commit\n"
        f":begin\nMATCH (n1:{UIL}{{{UID}:0}}), (n2:Dataset{{globalId:\"g-d\"}}) CREATE (n1)-[r:USES_DATASET]->(n2);\n"
        f"MATCH (n1:{UIL}{{{UID}:1}}), (n2:Dataset{{globalId:\"g-d\"}}) CREATE (n1)-[r:USES_DATASET]->(n2);\n:commit\n",
        ["rel:1", "rel:2"], CONSTRAINED_DATASET,
    ),
}


@pytest.mark.parametrize(("text", "relationship_ids", "dataset_id"), SHAPES.values(), ids=SHAPES.keys())
def test_every_shape_apoc_writes_gives_the_graph(con, tmp_path: Path, text: str, relationship_ids: list[str], dataset_id: str) -> None:
    """In the last shape the constraint comes after the node it keys, as APOC's NONE export writes them (nodes, then
    schema, then relationships)."""
    path = tmp_path / "graph.cypher"
    path.write_text(text, encoding="utf-8")
    assert detect_format(path) is KgFormat.APOC_CYPHER

    summary = ingest_export(con, path, "test")

    assert rejects(con, summary.snapshot_id) == []
    assert nodes(con) == [(node_id if node_id != "2" else dataset_id, labels, properties) for node_id, labels, properties in EXPECTED_NODES]
    assert relationships(con) == [
        (relationship_ids[0], "USES_DATASET", "0", dataset_id, {}), (relationship_ids[1], "USES_DATASET", "1", dataset_id, {}),
    ]
    assert summary.format == "apoc_cypher" and summary.rejected == 0
    assert_conserved(con, summary)


# --- Bad statements and rows: each a reject with its reason, lines conserved ----------------------------------------

ROW_NODE = f"CREATE (n:{UIL}{{{UID}: row._id}}) SET n += row.properties SET n:"
MATCH_BY_ID = f"MATCH (start:{UIL}{{{UID}: row.start._id}})\nMATCH (end:{UIL}{{{UID}: row.end._id}})\n"
DAMAGED = [
    SCHEMA.encode(),  # lines 1-4
    b":begin\n",  # 5
    ('UNWIND [{_id:0, properties:{doi:"10.1000/a"}}, {_id:1, properties:{p:point({x: 1.0, y: 2.0, crs: \'cartesian\'})}}, 42, '
     '{_id:2, properties:{doi:"10.1000/c"}}] AS row\n' + ROW_NODE + "Publication;\n").encode(),  # 6-7
    ('UNWIND [{_id:3, properties:{shortName:"AIRS2RET"}}] AS row\n' + ROW_NODE + "Dataset;\n").encode(),  # 8-9
    ("UNWIND [{_id:0, properties:{}}] AS row\n" + ROW_NODE + "Dataset;\n").encode(),  # 10-11
    (f"UNWIND [{{_id:4, properties:{{}}}}] AS row\nCREATE (n:{UIL}{{{UID}: row._id}}) SET n += row.properties;\n").encode(),  # 12-13
    b'UNWIND [{_id:5, properties:{title:"cut short\n',  # 14: no ';' before the next statement
    b":commit\n:begin\n",  # 15-16
    b"MATCH (n) DETACH DELETE n;\n",  # 17
    b"UNWIND [{_id:6}] AS row\nCREATE (n:Thing) SET n.x = row.x;\n",  # 18-19
    ("UNWIND [{start: {_id:0}, end: {_id:3}, properties:{}}, {start: {_id:2}, end: {_id:9}, properties:{}}] AS row\n"
     + MATCH_BY_ID + "CREATE (start)-[r:USES_DATASET]->(end) SET r += row.properties;\n").encode(),  # 20-23
    ("UNWIND [{start: {_id:0}, end: {_id:2}, properties:{}}] AS row\n" + MATCH_BY_ID
     + "CREATE (start)-[r:LIKES]->(end) SET r += row.properties;\n").encode(),  # 24-27
    ("UNWIND [{start: {_id:2}, end: {_id:3}, properties:{}}, {start: {_id:2}, end: {_id:3}, properties:{}}] AS row\n" + MATCH_BY_ID
     + "MERGE (start)-[r:USES_DATASET]->(end) SET r += row.properties;\n").encode(),  # 28-31
    b'UNWIND [{_id:7, properties:{name:"caf\xe9"}}] AS row\n' + (ROW_NODE + "Dataset;\n").encode(),  # 32-33
    b":commit\n",  # 34
    CLEAN_UP.encode(),
]


def test_every_bad_statement_or_row_is_a_reject_with_its_reason(con, tmp_path: Path) -> None:
    path = tmp_path / "graph.cypher"
    path.write_bytes(b"".join(DAMAGED))

    summary = ingest_export(con, path, "test")

    assert rejects(con, summary.snapshot_id) == [
        (6, None, "UNWIND row: not a literal APOC writes for a property value: point"),
        (6, None, "UNWIND row is not a map"),
        (10, "0", "duplicate node id 0 (first at line 6)"),
        (12, "4", "node without labels"),
        (14, None, "Cypher statement without ';' at its end (at line 15)"),
        (17, None, "not a MATCH statement APOC's Cypher export writes: 'MATCH (n) DETACH DELETE n;'"),
        (18, None, "not an UNWIND statement APOC's Cypher export writes: 'CREATE (n:Thing) SET n.x = row.x;'"),
        (20, "rel:2", "end node 9 does not exist"),
        (24, "rel:3", "unknown relationship type: LIKES"),
        (28, "2-[USES_DATASET]->3", "duplicate relationship id 2-[USES_DATASET]->3 (first at line 28)"),
        (32, None, "invalid UTF-8 at byte 37 of line 32"),
        (33, None, f"not a CREATE statement APOC's Cypher export writes: {(ROW_NODE + 'Dataset;')[:80]!r}"),
    ]
    assert nodes(con) == [
        ("0", ["Publication"], {"doi": "10.1000/a"}), ("2", ["Publication"], {"doi": "10.1000/c"}), ("3", ["Dataset"], {"shortName": "AIRS2RET"}),
    ]
    assert [row[:4] for row in relationships(con)] == [("rel:1", "USES_DATASET", "0", "3"), ("2-[USES_DATASET]->3", "USES_DATASET", "2", "3")]
    assert_conserved(con, summary)
    raw = dict(con.execute("SELECT reason, raw FROM kg_rejects").fetchall())
    assert raw["UNWIND row: not a literal APOC writes for a property value: point"] == "{_id:1, properties:{p:point({x: 1.0, y: 2.0, crs: 'cartesian'})}}"
    assert json.loads(raw["node without labels"]) == {"type": "node", "labels": [], "id": 4, "properties": {}}
    assert raw["Cypher statement without ';' at its end (at line 15)"] == 'UNWIND [{_id:5, properties:{title:"cut short'


def test_a_statement_over_the_line_limit_is_rejected_without_being_held(tmp_path: Path) -> None:
    path = tmp_path / "graph.cypher"
    long_row = "{_id:9, properties:{abstract:\"" + "a" * 300 + "\"}}"
    path.write_text(SCHEMA + f"UNWIND [{long_row}] AS row\n{ROW_NODE}Dataset;\n" + NODES + CLEAN_UP, encoding="utf-8")
    stats = ReadStats()

    rows = [row for table in read_export(path, KgFormat.APOC_CYPHER, stats, max_line_bytes=200) for row in table.to_pylist()]

    assert [(row["line_number"], row["read_error"]) for row in rows if row["read_error"]] == [
        (5, "line longer than 200 bytes"), (6, f"not a CREATE statement APOC's Cypher export writes: {(ROW_NODE + 'Dataset;')[:80]!r}"),
    ]
    assert len(rows[0]["raw"]) <= 500
    assert stats.lines_read == len(rows) == 2 + 3


def test_rows_are_streamed_in_numbered_batches(tmp_path: Path) -> None:
    path = tmp_path / "graph.cypher"
    path.write_text(DEFAULT_EXPORT, encoding="utf-8")
    stats = ReadStats()

    tables = list(read_export(path, KgFormat.APOC_CYPHER, stats, batch_lines=2))

    assert [table.num_rows for table in tables] == [2, 2, 1]
    rows = [row for table in tables for row in table.to_pylist()]
    assert [(row["position"], row["line_number"], row["byte_offset"]) for row in rows] == [
        (1, 6, None), (2, 6, None), (3, 8, None), (4, 12, None), (5, 12, None),
    ]
    assert json.loads(rows[3]["raw"]) == {"type": "relationship", "label": "USES_DATASET", "start": {"id": 0}, "end": {"id": 2}, "id": "rel:1", "properties": {}}
    assert stats.skipped_statements == {"clean-up": 1, "schema": 3, "transaction": 10}


# --- A cut file fails (issue 14) -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "found"),
    [
        (DEFAULT_EXPORT[: DEFAULT_EXPORT.index("{_id:2")], r"its last statement \(line 8\) has no ';' at its end"),
        (DEFAULT_EXPORT[: DEFAULT_EXPORT.index("MATCH (end")], r"its last statement \(line 12\) has no ';' at its end"),
        (SCHEMA + NODES + RELATIONSHIPS.removesuffix(":commit\n"), r"the transaction begun at line 11 is never committed"),
        (SCHEMA + NODES + RELATIONSHIPS, r"it creates APOC's UNIQUE_IMPORT_NAME constraint \(line 2\) but ends before the clean-up that drops it"),
        (SCHEMA + NODES, r"it creates APOC's UNIQUE_IMPORT_NAME constraint \(line 2\) but ends before the clean-up that drops it"),
    ],
    ids=["cut inside an UNWIND list", "cut inside a statement", "cut inside a transaction", "cut before the clean-up", "cut after the nodes"],
)
def test_a_cut_cypher_export_fails_and_keeps_the_current_snapshot(con, tmp_path: Path, content: str, found: str) -> None:
    good = ingest(con, tmp_path / "good.cypher", DEFAULT_EXPORT)
    path = tmp_path / "graph.cypher"
    path.write_text(content, encoding="utf-8")

    with pytest.raises(KgExportError, match=rf"^KG export {re.escape(str(path))} is incomplete: {found}\. It is truncated or still being copied"):
        ingest_export(con, path, "cut")

    assert current_snapshot_id(con) == good.snapshot_id
    assert con.execute("SELECT count(*) FROM kg_rejects WHERE source = 'cut'").fetchone() == (0,)
    assert len(nodes(con)) == 3 and len(relationships(con)) == 2


def test_a_plain_export_without_apoc_scaffolding_needs_no_clean_up(con, tmp_path: Path) -> None:
    """The plain format has no transactions; a graph keyed by constraints alone has no UNIQUE IMPORT scaffolding to drop."""
    text = (
        "CREATE CONSTRAINT dataset_global_id FOR (node:Dataset) REQUIRE (node.globalId) IS UNIQUE;\n"
        'UNWIND [{globalId:"g-d", properties:{shortName:"AIRS2RET"}}] AS row\nCREATE (n:Dataset{globalId: row.globalId}) SET n += row.properties;\n'
    )

    summary = ingest(con, tmp_path / "graph.cypher", text)

    assert nodes(con) == [(CONSTRAINED_DATASET, ["Dataset"], {"shortName": "AIRS2RET", "globalId": "g-d"})]
    assert_conserved(con, summary)


# --- The shipped sample -------------------------------------------------------------------------------------------


def test_the_shipped_cypher_sample_is_apoc_s_export_of_the_json_lines_sample() -> None:
    """recon_assets/sample/graph.cypher is a conversion (tools/build_sample.py), reproducible from graph.json alone."""
    written = io.StringIO()
    with (SAMPLE / "graph.json").open(encoding="utf-8") as lines:
        cypher_from_json_lines(lines, written)

    assert (SAMPLE / "graph.cypher").read_text(encoding="utf-8") == written.getvalue()


def test_the_shipped_cypher_sample_ingests_like_the_json_lines_sample(tmp_path: Path) -> None:
    loaded = {}
    for name in ("graph.json", "graph.cypher"):
        with duckdb.connect() as connection:
            summary = ingest_export(connection, SAMPLE / name, name)
            assert summary.rejected == 0
            assert_conserved(connection, summary)
            loaded[name] = (summary, nodes(connection), sorted(row[1:] for row in relationships(connection)))
    (json_summary, json_nodes, json_rels), (cypher_summary, cypher_nodes, cypher_rels) = loaded.values()

    assert (cypher_summary.lines_read, cypher_summary.nodes_accepted, cypher_summary.relationships_accepted) == (
        json_summary.lines_read, json_summary.nodes_accepted, json_summary.relationships_accepted,
    )
    assert cypher_summary.node_counts == json_summary.node_counts
    assert cypher_summary.relationship_counts == json_summary.relationship_counts
    assert cypher_nodes == json_nodes  # same ids, labels and typed properties
    assert cypher_rels == json_rels  # same types, endpoints and properties (the ids are the file's own)


def test_the_writer_groups_rows_as_apoc_does(tmp_path: Path) -> None:
    """Transactions of batch_size rows, UNWIND statements of unwind_batch_size rows, nodes grouped by label set."""
    out = io.StringIO()
    writer = ApocCypherWriter(out, batch_size=3, unwind_batch_size=2)
    for node_id, label in enumerate(["Publication", "Dataset", "Publication", "Publication", "Dataset"]):
        writer.node(node_id, [label], {"n": node_id})
    writer.relationship((0, ["Publication"]), "USES_DATASET", (1, ["Dataset"]), {})
    writer.close()

    assert out.getvalue() == SCHEMA + (
        ":begin\n"
        f"UNWIND [{{_id:0, properties:{{n:0}}}}, {{_id:2, properties:{{n:2}}}}] AS row\n{ROW_NODE}Publication;\n"
        f"UNWIND [{{_id:1, properties:{{n:1}}}}] AS row\n{ROW_NODE}Dataset;\n"
        ":commit\n:begin\n"
        f"UNWIND [{{_id:3, properties:{{n:3}}}}] AS row\n{ROW_NODE}Publication;\n"
        f"UNWIND [{{_id:4, properties:{{n:4}}}}] AS row\n{ROW_NODE}Dataset;\n"
        ":commit\n:begin\n"
        f"UNWIND [{{start: {{_id:0}}, end: {{_id:1}}, properties:{{}}}}] AS row\n{MATCH_BY_ID}"
        "CREATE (start)-[r:USES_DATASET]->(end) SET r += row.properties;\n:commit\n"
        f":begin\nMATCH (n:{UIL})  WITH n LIMIT 3 REMOVE n:{UIL} REMOVE n.{UID};\n:commit\n"
        f":begin\nMATCH (n:{UIL})  WITH n LIMIT 3 REMOVE n:{UIL} REMOVE n.{UID};\n:commit\n"
        ":begin\nDROP CONSTRAINT UNIQUE_IMPORT_NAME;\n:commit\n"
    )


def test_schema_await_inside_an_open_transaction_does_not_close_it(con, tmp_path: Path) -> None:
    path = tmp_path / "graph.cypher"
    path.write_text(NODES.replace(":begin", "BEGIN").replace(":commit\n", "SCHEMA AWAIT\n"), encoding="utf-8")

    with pytest.raises(KgExportError, match=r"the transaction begun at line 1 is never committed"):
        ingest_export(con, path, "test")


@pytest.mark.parametrize("op", ["CREATE", "MERGE"])
def test_plain_relationship_rows_read_fast_give_the_general_path_s_elements(tmp_path: Path, op: str) -> None:
    """Rows `{start: {_id:0}, end: {_id:2}, properties:{}}` skip the JSON round trip; a space more sends the same rows
    through the general path, which must give the same elements byte for byte."""
    clause = MATCH_BY_ID + f"{op} (start)-[r:USES_DATASET]->(end) SET r += row.properties;\n"
    plain = "UNWIND [{start: {_id:0}, end: {_id:2}, properties:{}}, {start: {_id:1}, end: {_id:2}, properties:{}}] AS row\n"
    general = plain.replace("properties:{}", "properties: {}")
    raws = {}
    for name, rows in (("plain", plain), ("general", general)):
        path = tmp_path / f"{name}.cypher"
        path.write_text(rows + clause, encoding="utf-8")
        raws[name] = [row["raw"] for table in read_export(path, KgFormat.APOC_CYPHER, ReadStats()) for row in table.to_pylist()]

    assert raws["plain"] == raws["general"]
    assert [json.loads(raw)["id"] for raw in raws["plain"]] == (["rel:1", "rel:2"] if op == "CREATE" else ["0-[USES_DATASET]->2", "1-[USES_DATASET]->2"])
