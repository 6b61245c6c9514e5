"""ingest_export against real DuckDB (in memory and on disk): every bad line becomes a kg_rejects row with its
reason and line number, lines are conserved, and re-ingesting never duplicates."""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Iterator
from pathlib import Path

import dagster as dg
import duckdb
import pytest

from recon_assets.cli.launch_checks import settings_problems
from recon_assets.definitions import resources_from_environment
from recon_assets.kg import ingest as ingest_module
from recon_assets.kg.checksum import file_sha256
from recon_assets.kg.export_reader import KgExportError, graphml_element_tags
from recon_assets.kg.ingest import RAW_TEXT_LIMIT, SnapshotSummary, current_snapshot_id, ingest_export
from recon_assets.shared.paths import SAMPLE_DIR
from recon_assets.storage.duckdb_settings import physical_memory_bytes
from recon_assets.storage.duckdb_store import TableStore

SAMPLE = SAMPLE_DIR
SAMPLE_GRAPHML = SAMPLE / "graph.graphml"


def line(**element: object) -> bytes:
    return json.dumps(element).encode()


def node(node_id: str, *labels: str, **properties: object) -> bytes:
    return line(type="node", id=node_id, labels=list(labels), properties=properties)


def rel(rel_id: str, rel_type: str, start: str, end: str) -> bytes:
    return line(type="relationship", id=rel_id, label=rel_type, start={"id": start}, end={"id": end})


PUBLICATION = node("p1", "Publication", doi="10.1000/a")
DATASET = node("d1", "Dataset", shortName="AIRS2RET")


def write(path: Path, lines: list[bytes]) -> Path:
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


@pytest.fixture(params=["memory", "file"])
def con(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    connection = duckdb.connect() if request.param == "memory" else duckdb.connect(str(tmp_path / "kg.duckdb"))
    yield connection
    connection.close()


def rejects(con: duckdb.DuckDBPyConnection, snapshot_id: str) -> list[tuple]:
    return con.execute(
        "SELECT line_number, element_id, reason FROM kg_rejects WHERE snapshot_id = ? ORDER BY line_number", [snapshot_id]
    ).fetchall()


def assert_conserved(con: duckdb.DuckDBPyConnection, summary: SnapshotSummary) -> None:
    """lines read = nodes + relationships + rejects, and the tables hold exactly those rows."""
    assert summary.lines_read == summary.nodes_accepted + summary.relationships_accepted + summary.rejected
    assert con.execute("SELECT count(*) FROM kg_nodes").fetchone()[0] == summary.nodes_accepted
    assert con.execute("SELECT count(*) FROM kg_relationships").fetchone()[0] == summary.relationships_accepted
    assert len(rejects(con, summary.snapshot_id)) == summary.rejected
    assert sum(summary.node_counts.values()) >= summary.nodes_accepted  # a node with two labels counts under both
    assert sum(summary.relationship_counts.values()) == summary.relationships_accepted


BEYOND_FLOAT = "is beyond a 64-bit float and would read as infinity (RFC 8259 section 6: numbers beyond IEEE 754 binary64 are not interoperable)"
NOT_A_JSON_NUMBER = "is not a JSON number (JSON has no NaN or Infinity, RFC 8259 section 6)"

BAD_LINES = {
    "malformed JSON": ([b'{"type":"node","id":'], [(3, None, "malformed JSON")]),
    "blank line": ([b""], [(3, None, "empty line")]),
    "whitespace line": ([b" \t "], [(3, None, "empty line")]),
    "JSON array line": ([b'[{"type":"node","id":"x","labels":["Dataset"]}]'], [(3, None, "not a JSON object")]),
    "JSON scalar line": ([b"42"], [(3, None, "not a JSON object")]),
    "JSON null line": ([b"null"], [(3, None, "not a JSON object")]),
    "two objects on one line": ([PUBLICATION + DATASET], [(3, None, "malformed JSON")]),
    # Hostile pass (issue 24): DuckDB's JSON reader takes NaN, Infinity, inf (any case) and trailing commas, none JSON.
    "NaN property": (
        [b'{"type":"node","id":"x","labels":["Dataset"],"properties":{"pagerank":NaN}}'],
        [(3, "x", "malformed JSON: NaN is not a JSON number (JSON has no NaN or Infinity, RFC 8259 section 6)")],
    ),
    "-Infinity in a list, after a space": (
        [b'{"type":"node","id":"x","labels":["Dataset"],"properties":{"v":[1, -Infinity]}}'],
        [(3, "x", "malformed JSON: -Infinity is not a JSON number (JSON has no NaN or Infinity, RFC 8259 section 6)")],
    ),
    "inf in lower case": (
        [b'{"type":"node","id":"x","labels":["Dataset"],"properties":{"v": inf}}'],
        [(3, "x", "malformed JSON: inf is not a JSON number (JSON has no NaN or Infinity, RFC 8259 section 6)")],
    ),
    "NaN in a relationship's endpoint properties": (
        [b'{"type":"relationship","id":"r1","label":"USES_DATASET","start":{"id":"p1","properties":{"x":nan}},"end":{"id":"d1"}}'],
        [(3, "r1", "malformed JSON: nan is not a JSON number (JSON has no NaN or Infinity, RFC 8259 section 6)")],
    ),
    "trailing comma": (
        [b'{"type":"node","id":"x","labels":["Dataset",],"properties":{}}'],
        [(3, "x", "malformed JSON: a comma before ] (JSON allows no trailing comma)")],
    ),
    # Left from the hostile pass: a number beyond a 64-bit float is JSON by its grammar but reads as infinity.
    "a number beyond a 64-bit float": (
        [b'{"type":"node","id":"x","labels":["Dataset"],"properties":{"pagerank":1e999}}'],
        [(3, "x", f"number 1e999 {BEYOND_FLOAT}")],
    ),
    "a negative one in a list, after a finite 1e300": (
        [b'{"type":"node","id":"x","labels":["Dataset"],"properties":{"v":[1e300, -2.5E+400]}}'],
        [(3, "x", f"number -2.5E+400 {BEYOND_FLOAT}")],
    ),
    "400 digits in a relationship's endpoint properties": (
        [b'{"type":"relationship","id":"r1","label":"USES_DATASET","start":{"id":"p1","properties":{"x":1' + b"0" * 399 + b'}},"end":{"id":"d1"}}'],
        [(3, "r1", f"number 1{'0' * 39} {BEYOND_FLOAT}")],
    ),
    "invalid UTF-8": ([b'{"type":"node","id":"caf\xe9","labels":["Dataset"]}'], [(3, None, "invalid UTF-8 at byte 24")]),
    "start node missing": ([rel("r1", "USES_DATASET", "p9", "d1")], [(3, "r1", "start node p9 does not exist")]),
    "end node missing": ([rel("r1", "USES_DATASET", "p1", "d9")], [(3, "r1", "end node d9 does not exist")]),
    "endpoint was rejected": (
        [node("d2"), rel("r1", "USES_DATASET", "p1", "d2")],
        [(3, "d2", "node without labels"), (4, "r1", "end node d2 does not exist")],
    ),
    "duplicate node id": ([node("p1", "Dataset")], [(3, "p1", "duplicate node id p1 (first at line 1)")]),
    "duplicate relationship id": (
        [rel("r1", "USES_DATASET", "p1", "d1"), rel("r1", "USES_DATASET", "p1", "d1")],
        [(4, "r1", "duplicate relationship id r1 (first at line 3)")],
    ),
    "labels empty": ([node("x")], [(3, "x", "node without labels")]),
    "labels missing": ([line(type="node", id="x", properties={})], [(3, "x", "node without labels")]),
    "labels null": ([line(type="node", id="x", labels=None)], [(3, "x", "node without labels")]),
    "labels a string": ([line(type="node", id="x", labels="Dataset")], [(3, "x", "node labels must be a list of strings")]),
    "labels an object": ([line(type="node", id="x", labels={"Dataset": 1})], [(3, "x", "node labels must be a list of strings")]),
    "labels holding a number": ([line(type="node", id="x", labels=[1, "Dataset"])], [(3, "x", "node labels must be a list of strings")]),
    "labels holding a list": ([line(type="node", id="x", labels=[["Dataset"]])], [(3, "x", "node labels must be a list of strings")]),
    "labels blank": ([line(type="node", id="x", labels=[None, ""])], [(3, "x", "node without labels")]),
    "labels Publication and Dataset": (
        [node("x", "Publication", "Dataset")], [(3, "x", "node cannot be both Publication and Dataset")],
    ),
    "node id true": ([line(type="node", id=True, labels=["Dataset"])], [(3, "true", "node id must be a non-empty string without control characters, or an integer")]),
    "node id an object": ([line(type="node", id={}, labels=["Dataset"])], [(3, "{}", "node id must be a non-empty string without control characters, or an integer")]),
    "node id a list": ([line(type="node", id=["x"], labels=["Dataset"])], [(3, '["x"]', "node id must be a non-empty string without control characters, or an integer")]),
    "node id empty": ([node("", "Dataset")], [(3, "", "node id must be a non-empty string without control characters, or an integer")]),
    "node id blank": ([node(" ", "Dataset")], [(3, " ", "node id must be a non-empty string without control characters, or an integer")]),
    # Hostile finding: a node id "\u0000" was accepted and its edge scored.
    "node id a NUL character": (
        [node("\u0000", "Dataset")], [(3, "\u0000", "node id must be a non-empty string without control characters, or an integer")],
    ),
    # Final hostile pass: C1 controls (U+0080-U+009F, an 8-bit terminal colour code among them) passed the C0 check.
    "node id with a C1 control": (
        [node("P\u009b[31m1", "Dataset")],
        [(3, "P\u009b[31m1", "node id must be a non-empty string without control characters, or an integer")],
    ),
    "relationship start id with a line feed": (
        [rel("r1", "USES_DATASET", "p\n1", "d1")],
        [(3, "r1", "relationship start and end ids must be non-empty strings without control characters, or integers")],
    ),
    "node id a fraction": ([line(type="node", id=1.5, labels=["Dataset"])], [(3, "1.5", "node id must be a non-empty string without control characters, or an integer")]),
    "relationship id false": (
        [line(type="relationship", id=False, label="USES_DATASET", start={"id": "p1"}, end={"id": "d1"})],
        [(3, "false", "relationship id must be a non-empty string without control characters, or an integer")],
    ),
    "relationship start id an object": (
        [line(type="relationship", id="r1", label="USES_DATASET", start={"id": {}}, end={"id": "d1"})],
        [(3, "r1", "relationship start and end ids must be non-empty strings without control characters, or integers")],
    ),
    "relationship end id empty": (
        [rel("r1", "USES_DATASET", "p1", "")], [(3, "r1", "relationship start and end ids must be non-empty strings without control characters, or integers")],
    ),
    "relationship end id true": (
        [line(type="relationship", id="r1", label="USES_DATASET", start={"id": "p1"}, end={"id": True})],
        [(3, "r1", "relationship start and end ids must be non-empty strings without control characters, or integers")],
    ),
    "duplicate relationship id after a rejected first copy": (
        [rel("r1", "USES_DATASET", "p9", "d1"), rel("r1", "USES_DATASET", "p1", "d1")],
        [(3, "r1", "start node p9 does not exist")],
    ),
    "unknown relationship type": ([rel("r1", "LIKES", "p1", "d1")], [(3, "r1", "unknown relationship type: LIKES")]),
    "relationship type null": ([rel("r1", None, "p1", "d1")], [(3, "r1", "unknown relationship type: none")]),
    "relationship type missing": (
        [line(type="relationship", id="r1", start={"id": "p1"}, end={"id": "d1"})],
        [(3, "r1", "unknown relationship type: none")],
    ),
    "relationship start a string, not an object": (
        [line(type="relationship", id="r1", label="USES_DATASET", start="p1", end={"id": "d1"})],
        [(3, "r1", "relationship without start or end id")],
    ),
    "relationship without end": (
        [line(type="relationship", id="r1", label="USES_DATASET", start={"id": "p1"})],
        [(3, "r1", "relationship without start or end id")],
    ),
    "node without id": ([line(type="node", labels=["Dataset"])], [(3, None, "node without id")]),
    "relationship without id": (
        [line(type="relationship", label="USES_DATASET", start={"id": "p1"}, end={"id": "d1"})],
        [(3, None, "relationship without id")],
    ),
    "unknown type": ([line(type="edge", id="x")], [(3, "x", "unknown element type: edge")]),
    "type missing": ([line(id="x", labels=["Dataset"])], [(3, "x", "unknown element type: none")]),
    "properties a list": ([line(type="node", id="x", labels=["Dataset"], properties=[1])], [(3, "x", "properties is not a JSON object")]),
    "properties a string": ([line(type="node", id="x", labels=["Dataset"], properties="{}")], [(3, "x", "properties is not a JSON object")]),
    "properties null": ([line(type="node", id="x", labels=["Dataset"], properties=None)], [(3, "x", "properties is not a JSON object")]),
    "USES_DATASET from a Dataset to a Publication": (
        [rel("r1", "USES_DATASET", "d1", "p1")],
        [(3, "r1", "USES_DATASET must start at a Publication node, not Dataset")],
    ),
    "USES_DATASET to a Publication": (
        [rel("r1", "USES_DATASET", "p1", "p1")],
        [(3, "r1", "USES_DATASET must end at a Dataset node, not Publication")],
    ),
    "CITES a Dataset": ([rel("r1", "CITES", "p1", "d1")], [(3, "r1", "CITES must end at a Publication node, not Dataset")]),
    "research area not a ScienceKeyword": (
        [rel("r1", "HAS_APPLIEDRESEARCHAREA", "p1", "d1")],
        [(3, "r1", "HAS_APPLIEDRESEARCHAREA must end at a ScienceKeyword node, not Dataset")],
    ),
}


@pytest.mark.parametrize(("extra", "expected"), BAD_LINES.values(), ids=BAD_LINES.keys())
def test_bad_lines_become_rejects(con, tmp_path: Path, extra: list[bytes], expected: list[tuple]) -> None:
    path = write(tmp_path / "graph.json", [PUBLICATION, DATASET, *extra])

    summary = ingest_export(con, path, "test")

    assert rejects(con, summary.snapshot_id) == expected
    assert con.execute("SELECT node_id, line_number FROM kg_nodes ORDER BY line_number").fetchall()[:2] == [("p1", 1), ("d1", 2)]
    assert summary.lines_read == 2 + len(extra)
    assert_conserved(con, summary)


def test_every_bad_line_in_one_file(con, tmp_path: Path) -> None:
    lines = [PUBLICATION, DATASET]
    for extra, _ in BAD_LINES.values():
        lines += extra
    path = write(tmp_path / "graph.json", lines)

    summary = ingest_export(con, path, "test")

    assert summary.lines_read == len(lines)
    assert summary.nodes_accepted == 2
    # Every relationship line reuses id r1: the first one with valid endpoints is kept, later valid ones are duplicates.
    first_valid = lines.index(rel("r1", "USES_DATASET", "p1", "d1")) + 1
    assert summary.relationships_accepted == 1
    assert summary.rejected == len(lines) - 3
    assert {reason for _, _, reason in rejects(con, summary.snapshot_id)} >= {
        f"duplicate relationship id r1 (first at line {first_valid})", "duplicate node id p1 (first at line 1)", "empty line",
    }
    assert_conserved(con, summary)


@pytest.mark.parametrize(
    "text",
    ["NaN", "value: NaN, then Infinity", 'a quoted \\" : -Infinity, [inf, nan]', "a list ending ,] or ,}", "Infinity\\", "1e999 and 1" + "0" * 400],
    ids=["NaN", "after a colon and a comma", "after an escaped quote", "a trailing comma", "before an escaped backslash", "1e999"],
)
def test_nan_infinity_and_trailing_commas_inside_strings_are_text(con, tmp_path: Path, text: str) -> None:
    """The NaN, trailing-comma and out-of-range verdicts read only the text outside strings: a property or key
    holding such words is accepted whole."""
    path = write(tmp_path / "graph.json", [PUBLICATION, node("d1", "Dataset", **{"abstract": text, text: [text, 1.5]})])

    summary = ingest_export(con, path, "test")

    assert rejects(con, summary.snapshot_id) == []
    (properties,) = con.execute("SELECT properties FROM kg_nodes WHERE node_id = 'd1'").fetchone()
    assert json.loads(properties) == {"abstract": text, text: [text, 1.5]}
    assert_conserved(con, summary)


def test_the_largest_finite_numbers_are_accepted(con, tmp_path: Path) -> None:
    """The out-of-range verdict is the float's range, not the exponent's length: 1.7976931348623157e308 (the largest
    binary64), -1e300 and 308 digits read as finite numbers and are kept."""
    numbers = b'[1.7976931348623157e308, -1e300, 1' + b"0" * 307 + b"]"
    path = write(tmp_path / "graph.json", [PUBLICATION, b'{"type":"node","id":"d1","labels":["Dataset"],"properties":{"v":' + numbers + b"}}"])

    summary = ingest_export(con, path, "test")

    assert rejects(con, summary.snapshot_id) == []
    (properties,) = con.execute("SELECT properties FROM kg_nodes WHERE node_id = 'd1'").fetchone()
    assert json.loads(properties) == {"v": [1.7976931348623157e308, -1e300, 10**307]}
    assert_conserved(con, summary)


GRAPHML_DOUBLE_KEY = '<key id="pagerank" for="node" attr.name="pagerank" attr.type="double"/>\n'


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ('<data key="pagerank">NaN</data>', f"NaN {NOT_A_JSON_NUMBER}"),
        ('<data key="pagerank">INF</data>', f"Infinity {NOT_A_JSON_NUMBER}"),
        ('<data key="pagerank">-INF</data>', f"-Infinity {NOT_A_JSON_NUMBER}"),
        ('<data key="pagerank">1e999</data>', f"Infinity {NOT_A_JSON_NUMBER}"),
        ('<data key="values">[0.5, NaN]</data>', f"NaN {NOT_A_JSON_NUMBER}"),  # APOC writes a list property as JSON text
        ('<data key="values">[0.5, 1e999]</data>', f"Infinity {NOT_A_JSON_NUMBER}"),
    ],
    ids=["NaN", "INF", "-INF", "1e999", "NaN in a list", "1e999 in a list"],
)
def test_a_graphml_non_finite_double_is_rejected(con, tmp_path: Path, data: str, reason: str) -> None:
    """GraphML's xs:double has NaN, INF and -INF, and 1e999 overflows to infinity: the element is rejected with the
    reason a JSON line holding the same value gets (without "malformed JSON", the JSON being the reader's), its
    neighbours kept (hostile pass, issue 24)."""
    path = tmp_path / "graph.graphml"
    body = f'<node id="d2" labels=":Dataset">{data}</node>\n<node id="d3" labels=":Dataset"><data key="pagerank">0.25</data></node>\n'
    path.write_text(MINIFIED_HEAD.replace("<graph ", GRAPHML_DOUBLE_KEY + "<graph ") + body + "</graph>\n</graphml>\n", encoding="utf-8")

    summary = ingest_export(con, path, "test")

    assert rejects(con, summary.snapshot_id) == [(7, "d2", reason)]
    assert con.execute("SELECT node_id, properties->>'pagerank' FROM kg_nodes ORDER BY 1").fetchall() == [("d1", None), ("d3", "0.25")]
    assert_conserved(con, summary)


def test_a_graphml_nan_string_is_text(con, tmp_path: Path) -> None:
    """Only a double is judged: NaN or INF in a string property is text."""
    path = tmp_path / "graph.graphml"
    path.write_text(MINIFIED_HEAD + '<node id="d2" labels=":Dataset"><data key="doi">NaN INF 1e999</data></node>\n</graph>\n</graphml>\n', encoding="utf-8")

    summary = ingest_export(con, path, "test")

    assert rejects(con, summary.snapshot_id) == []
    assert con.execute("SELECT properties->>'doi' FROM kg_nodes WHERE node_id = 'd2'").fetchone() == ("NaN INF 1e999",)
    assert_conserved(con, summary)


def test_raw_text_is_cut(con, tmp_path: Path) -> None:
    long_line = b'{"type":"node","id":"x","labels":["Dataset"],"properties":{"abstract":"' + b"a" * 2000
    path = write(tmp_path / "graph.json", [PUBLICATION, long_line])

    summary = ingest_export(con, path, "test")

    (raw,) = con.execute("SELECT raw FROM kg_rejects WHERE snapshot_id = ?", [summary.snapshot_id]).fetchone()
    assert raw == long_line[:RAW_TEXT_LIMIT].decode() and len(raw) == 500
    assert_conserved(con, summary)


@pytest.mark.parametrize(
    ("lines", "kind"),
    [
        ([b"{oops"], "judged alone"),
        ([b'{"type":"node","id":"caf\xe9","labels":["Dataset"]}'], "read error"),
        ([b'{"type":"node","id":"\xe2\x82\xac","labels":[]}' + b" " * 600], "judged alone, multi-byte"),
        ([node("p1", "Dataset", abstract="\u20ac" * 600)], "duplicate, judged with other lines"),
        ([rel("r1", "USES_DATASET", "p1", "ghost")], "missing endpoint, judged with other lines"),
    ],
)
@pytest.mark.parametrize("last", [False, True], ids=["mid-file", "last line, no line end"])
@pytest.mark.parametrize("line_end", [b"\n", b"\r\n"], ids=["LF", "CRLF"])
def test_the_raw_text_of_every_kind_of_reject_is_read_back_from_the_file(
    con, tmp_path: Path, lines: list[bytes], kind: str, line_end: bytes, last: bool
) -> None:
    """kg_elements keeps no JSON line text: a rejected line's start is read again at its byte offset (after a BOM)."""
    path = tmp_path / "graph.json"
    ordered = [PUBLICATION, DATASET, *lines] if last else [PUBLICATION, *lines, DATASET]
    path.write_bytes(b"\xef\xbb\xbf" + line_end.join(ordered))
    if last and kind in ("judged alone", "read error"):  # a last line cut short: the file is incomplete (issue 14)
        with pytest.raises(KgExportError, match="truncated or still being copied"):
            ingest_export(con, path, "test")
        return

    summary = ingest_export(con, path, "test")

    (raw,) = con.execute("SELECT raw FROM kg_rejects WHERE snapshot_id = ?", [summary.snapshot_id]).fetchone()
    assert raw == lines[0].decode("utf-8", "backslashreplace")[:RAW_TEXT_LIMIT], kind
    assert_conserved(con, summary)


def test_graphml_rejects_keep_their_transcoded_text(con, tmp_path: Path) -> None:
    """GraphML elements are not JSON lines of the file: their text, judged alone or with other lines, comes from the reader."""
    path = tmp_path / "graph.graphml"
    path.write_text(
        MINIFIED_HEAD + '<node id="x" labels=""/>\n<edge id="r9" source="ghost" target="d1" label="USES_DATASET"/>\n</graph>\n</graphml>\n',
        encoding="utf-8",
    )

    summary = ingest_export(con, path, "test")

    raws = con.execute("SELECT raw FROM kg_rejects WHERE snapshot_id = ? ORDER BY line_number", [summary.snapshot_id]).fetchall()
    assert [json.loads(raw)["id"] for (raw,) in raws] == ["x", "r9"]
    assert_conserved(con, summary)


def test_valid_quirks_are_accepted(con, tmp_path: Path) -> None:
    path = tmp_path / "graph.json"
    lines = [
        rel("r1", "USES_DATASET", "p1", "d1"),  # relationships may come before their nodes
        node("d1", "Dataset", "Other"),  # multi-label endpoint
        PUBLICATION,
        node("pl", "Platform"),
        rel("r2", "OF_PROJECT", "d1", "pl"),  # endpoint labels are not enforced for this type (real KG quirk)
        rel("r3", "CITES", "p1", "p1"),
        line(type="node", id=7, labels=["Project"]),  # a numeric id is read as text
        line(type="node", id=12345678901234567890123, labels=["Project"]),  # integers beyond 64 bits too
        line(type="node", id="k1", labels=[None, "", "ScienceKeyword"]),  # blank labels are dropped, the others kept
        line(type="node", id="k2", labels=["ScienceKeyword", "Other", "ScienceKeyword"]),  # bug row: counted twice
    ]
    path.write_bytes(b"\xef\xbb\xbf" + b"\r\n".join(lines))  # BOM, CRLF, no final newline

    summary = ingest_export(con, path, "test")

    assert summary.rejected == 0
    assert summary.node_counts == {"Dataset": 1, "Other": 2, "Platform": 1, "Project": 2, "Publication": 1, "ScienceKeyword": 2}
    assert summary.relationship_counts == {"CITES": 1, "OF_PROJECT": 1, "USES_DATASET": 1}
    assert con.execute("SELECT labels FROM kg_nodes WHERE node_id = 'd1'").fetchone() == (["Dataset", "Other"],)
    assert con.execute("SELECT node_id FROM kg_nodes WHERE line_number = 7").fetchone() == ("7",)
    assert con.execute("SELECT node_id FROM kg_nodes WHERE line_number = 8").fetchone() == ("12345678901234567890123",)
    assert con.execute("SELECT labels FROM kg_nodes WHERE node_id = 'k1'").fetchone() == (["ScienceKeyword"],)
    assert con.execute("SELECT labels FROM kg_nodes WHERE node_id = 'k2'").fetchone() == (["Other", "ScienceKeyword"],)
    assert_conserved(con, summary)


def test_graphml_with_a_syntax_error_mid_file(con, tmp_path: Path) -> None:
    path = tmp_path / "graph.json"  # GraphML content, JSON name: detected from content
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<graphml xmlns="http://graphml.graphdrawing.org/xmlns">\n'
        '<key id="rank" for="node" attr.name="pagerank_global" attr.type="double"/>\n<graph id="G" edgedefault="directed">\n'
        '<node id="n0" labels=":Publication"><data key="labels">:Publication</data><data key="rank">0.5</data></node>\n'
        '<node id="n1" labels=":Dataset:Other"><data key="labels">:Dataset:Other</data></node>\n'
        '<edge id="e0" source="n0" target="n1" label="USES_DATASET"><data key="label">USES_DATASET</data></edge>\n'
        '<edge id="e1" source="n1" target="n0" label="USES_DATASET"/>\n'
        '<node id="n2" labels=":Dataset" <oops/>\n<node id="n3" labels=":Dataset"/>\n</graph>\n</graphml>\n',
        encoding="utf-8",
    )

    summary = ingest_export(con, path, "test")

    assert summary.format == "apoc_graphml"
    (wrong_way, *syntax_errors) = rejects(con, summary.snapshot_id)
    assert wrong_way == (8, "e1", "USES_DATASET must start at a Publication node, not Dataset:Other")
    assert [error[:2] for error in syntax_errors] == [(9, None), (9, None)]
    assert all(error[2].startswith("GraphML syntax error at line 9") for error in syntax_errors)
    assert all(error[2].endswith("recovered: the element there may be damaged or lost") for error in syntax_errors)
    # The nodes after the damage are read: n2 as libxml2 recovered it, n3 whole.
    assert con.execute("SELECT node_id, properties->>'pagerank_global' FROM kg_nodes ORDER BY 1").fetchall() == [
        ("n0", "0.5"), ("n1", None), ("n2", None), ("n3", None),
    ]
    assert con.execute("SELECT relationship_id, start_id, end_id FROM kg_relationships").fetchall() == [("e0", "n0", "n1")]
    assert summary.lines_read == 8  # 6 elements + 2 parser errors
    assert_conserved(con, summary)


MINIFIED_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<graphml xmlns="http://graphml.graphdrawing.org/xmlns">\n'
    '<key id="doi" for="node" attr.name="doi" attr.type="string"/>\n<graph id="G" edgedefault="directed">\n'
    '<node id="d1" labels=":Dataset"><data key="doi">10.5067/X</data></node>\n'
)


@pytest.mark.parametrize(
    ("body", "expected_rejects"),
    [
        pytest.param(
            '<node id="p1" labels=":Publication"/><node id="p2" labels=":Publication"/>\n'
            '<edge id="r1" source="p1" target="d1" label="USES_DATASET"/>\n<edge id="r2" source="p2" target="d1" label="USES_DATASET"/>\n',
            [],
            id="two nodes on one line",  # was: duplicate key in the line-number join
        ),
        pytest.param(
            '<node id="p1" labels=":Publication"/>\n'
            '<node id="p2" labels=":Publication"/><edge id="rX" source="ghost" target="d1" label="USES_DATASET"/>\n'
            '<edge id="r1" source="p1" target="d1" label="USES_DATASET"/>\n<edge id="r2" source="p2" target="d1" label="USES_DATASET"/>\n',
            [(7, "rX", "start node ghost does not exist")],
            id="a node and a bad edge on one line",  # was: p2 rejected with the edge's reason
        ),
        pytest.param(
            '<node id="p1" labels=":Publication"/><node id="p2" labels=":Publication"/><node id="p1" labels=":Dataset"/>'
            '<edge id="r1" source="p1" target="d1" label="USES_DATASET"/><edge id="r2" source="p2" target="d1" label="USES_DATASET"/>\n',
            [(6, "p1", "duplicate node id p1 (first at line 6)")],
            id="everything on one line, with a duplicate",
        ),
    ],
)
def test_graphml_elements_sharing_a_line(con, tmp_path: Path, body: str, expected_rejects: list[tuple]) -> None:
    path = tmp_path / "graph.graphml"
    path.write_text(MINIFIED_HEAD + body + "</graph>\n</graphml>\n", encoding="utf-8")

    summary = ingest_export(con, path, "test")

    assert rejects(con, summary.snapshot_id) == expected_rejects
    assert con.execute("SELECT node_id FROM kg_nodes ORDER BY 1").fetchall() == [("d1",), ("p1",), ("p2",)]
    assert con.execute("SELECT relationship_id FROM kg_relationships ORDER BY 1").fetchall() == [("r1",), ("r2",)]
    assert_conserved(con, summary)


@pytest.mark.parametrize(
    ("lines", "reasons"),
    [
        ([b"{oops", line(type="node", id="x"), rel("r1", "USES_DATASET", "p1", "d1")],
         [(1, "malformed JSON"), (2, "node without labels"), (3, "start node p1 does not exist")]),
        ([node("p1", "Publication", "Dataset")], [(1, "node cannot be both Publication and Dataset")]),
    ],
    ids=["every line bad", "the only node rejected"],
)
def test_a_file_without_accepted_nodes_fails_and_keeps_the_current_snapshot(
    con, tmp_path: Path, lines: list[bytes], reasons: list[tuple]
) -> None:
    good = ingest_export(con, write(tmp_path / "good.json", [PUBLICATION, DATASET]), "good")
    bad = write(tmp_path / "bad.json", lines)

    with pytest.raises(KgExportError, match=rf"^no node of {re.escape(str(bad))} was accepted: {len(lines)} lines, all rejected - see kg_rejects$"):
        ingest_export(con, bad, "bad")

    assert current_snapshot_id(con) == good.snapshot_id
    assert con.execute("SELECT node_id FROM kg_nodes ORDER BY 1").fetchall() == [("d1",), ("p1",)]
    assert con.execute("SELECT count(*) FROM kg_snapshots").fetchone() == (1,)
    bad_rejects = con.execute("SELECT source, line_number, reason FROM kg_rejects WHERE source = 'bad' ORDER BY 2").fetchall()
    assert bad_rejects == [("bad", number, reason) for number, reason in reasons]
    assert_conserved(con, good)
    with pytest.raises(KgExportError, match="all rejected"):  # trying again fails the same way, without duplicate rejects
        ingest_export(con, bad, "bad")
    assert con.execute("SELECT count(*) FROM kg_rejects WHERE source = 'bad'").fetchone() == (len(reasons),)


def test_a_graphml_file_without_elements_fails_and_keeps_the_current_snapshot(con, tmp_path: Path) -> None:
    good = ingest_export(con, write(tmp_path / "good.json", [PUBLICATION, DATASET]), "good")
    path = tmp_path / "graph.graphml"
    path.write_text(MINIFIED_HEAD.replace("<node", "<!--node").replace("</node>", "</node-->") + "</graph>\n</graphml>\n")

    with pytest.raises(KgExportError, match=f"no node or edge element could be read from KG export {re.escape(str(path))}"):
        ingest_export(con, path, "bad")

    assert current_snapshot_id(con) == good.snapshot_id
    assert con.execute("SELECT node_id FROM kg_nodes ORDER BY 1").fetchall() == [("d1",), ("p1",)]


@pytest.mark.parametrize(
    ("content", "message"),
    [(None, "cannot read KG export"), (b"", "is empty"), (b"id,labels\n", "neither APOC JSON-lines, GraphML nor a Cypher export")],
    ids=["missing", "empty", "neither format"],
)
def test_unreadable_export_raises_and_writes_nothing(con, tmp_path: Path, content: bytes | None, message: str) -> None:
    path = tmp_path / "graph.json"
    if content is not None:
        path.write_bytes(content)

    with pytest.raises(KgExportError, match=message) as raised:
        ingest_export(con, path, "test")

    assert str(path) in str(raised.value)
    assert con.execute("SELECT count(*) FROM information_schema.tables WHERE table_name LIKE 'kg_%'").fetchone() == (0,)


def test_reingesting_the_current_file_reuses_it(tmp_path: Path) -> None:
    path = write(tmp_path / "graph.json", [PUBLICATION, DATASET, b"{oops"])
    database = str(tmp_path / "kg.duckdb")
    with duckdb.connect(database) as con:
        first = ingest_export(con, path, "test")
    messages: list[str] = []

    with duckdb.connect(database) as con:  # a new process would open the file again
        again = ingest_export(con, path, "test", progress=messages.append)

        assert again.reused and not first.reused
        assert again.loaded_at == first.loaded_at
        assert (again.lines_read, again.nodes_accepted, again.rejected) == (first.lines_read, first.nodes_accepted, first.rejected)
        assert messages == [f"snapshot {first.snapshot_id} (graph.json) is already loaded: nothing to ingest"]
        assert con.execute("SELECT count(*) FROM kg_snapshots").fetchone() == (1,)
        assert rejects(con, first.snapshot_id) == [(3, None, "malformed JSON")]
        assert_conserved(con, again)


def test_a_node_with_many_repeated_labels_keeps_each_once(con, tmp_path: Path) -> None:
    """Bug row: removing repeats compared every label with every other (35 s for one node of 30,000 labels;
    this one took 16 s), so a 300 KB line could stall the ingest."""
    labels = [f"L{i:05d}" for i in range(20_000)]
    path = write(tmp_path / "graph.json", [PUBLICATION, line(type="node", id="many", labels=[*labels, *labels[:10]])])

    summary = ingest_export(con, path, "test")

    assert con.execute("SELECT labels FROM kg_nodes WHERE node_id = 'many'").fetchone() == (labels,)
    assert summary.node_counts["L00000"] == 1 and len(summary.node_counts) == 20_001
    assert_conserved(con, summary)


@pytest.mark.parametrize("table", ["kg_nodes", "kg_relationships"])
def test_a_current_snapshot_missing_rows_is_loaded_again(con, tmp_path: Path, table: str) -> None:
    """Bug row: only kg_nodes was counted, so an emptied kg_relationships was taken for a loaded snapshot."""
    path = write(tmp_path / "graph.json", [PUBLICATION, DATASET, rel("r1", "USES_DATASET", "p1", "d1")])
    first = ingest_export(con, path, "test")
    con.execute(f"DELETE FROM {table}")

    again = ingest_export(con, path, "test")

    assert not again.reused and again.snapshot_id == first.snapshot_id
    assert con.execute("SELECT count(*) FROM kg_relationships").fetchone() == (1,)
    assert_conserved(con, again)


def test_a_then_b_then_a(con, tmp_path: Path) -> None:
    a = write(tmp_path / "a.json", [PUBLICATION, DATASET, b"{oops"])
    b = write(tmp_path / "b.json", [DATASET, node("d2", "Dataset"), b"", b"[]"])

    first_a = ingest_export(con, a, "a")
    first_b = ingest_export(con, b, "b")
    second_a = ingest_export(con, a, "a")

    assert not second_a.reused  # A was known but not current: loaded again
    assert current_snapshot_id(con) == first_a.snapshot_id
    assert second_a.ingested_at == first_a.ingested_at
    assert second_a.loaded_at > first_b.loaded_at
    assert con.execute("SELECT snapshot_id FROM kg_snapshots ORDER BY snapshot_id").fetchall() == sorted(
        [(first_a.snapshot_id,), (first_b.snapshot_id,)]
    )
    assert con.execute("SELECT node_id FROM kg_nodes ORDER BY 1").fetchall() == [("d1",), ("p1",)]
    assert rejects(con, first_a.snapshot_id) == [(3, None, "malformed JSON")]
    assert rejects(con, first_b.snapshot_id) == [(3, None, "empty line"), (4, None, "not a JSON object")]
    assert_conserved(con, second_a)
    assert ingest_export(con, a, "a").reused


def primary_keys(con: duckdb.DuckDBPyConnection) -> list[tuple]:
    return con.execute(
        "SELECT table_name, constraint_column_names FROM duckdb_constraints() WHERE constraint_type = 'PRIMARY KEY' "
        "AND table_name IN ('kg_nodes', 'kg_relationships') ORDER BY 1"
    ).fetchall()


def test_a_new_snapshot_keeps_the_primary_keys(con, tmp_path: Path) -> None:
    """kg_nodes and kg_relationships are made again for each snapshot: with their keys, which still refuse a duplicate."""
    a = write(tmp_path / "a.json", [PUBLICATION, DATASET, rel("r1", "USES_DATASET", "p1", "d1")])
    b = write(tmp_path / "b.json", [DATASET, PUBLICATION, rel("r1", "USES_DATASET", "p1", "d1")])
    ingest_export(con, a, "a")

    ingest_export(con, b, "b")

    assert primary_keys(con) == [("kg_nodes", ["node_id"]), ("kg_relationships", ["relationship_id"])]
    with pytest.raises(duckdb.ConstraintException):
        con.execute("INSERT INTO kg_nodes SELECT * FROM kg_nodes LIMIT 1")


def test_a_snapshot_that_fails_to_be_stored_keeps_the_current_one(con, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tables are dropped inside the transaction that refills them: an error there brings the old ones back."""
    a = write(tmp_path / "a.json", [PUBLICATION, DATASET])
    b = write(tmp_path / "b.json", [DATASET, node("d2", "Dataset")])
    first = ingest_export(con, a, "a")

    def failing(*args: object) -> None:
        raise duckdb.IOException("disk full")

    monkeypatch.setattr(ingest_module, "_replace_rejects", failing)
    with pytest.raises(duckdb.IOException):
        ingest_export(con, b, "b")

    assert current_snapshot_id(con) == first.snapshot_id
    assert con.execute("SELECT node_id FROM kg_nodes ORDER BY 1").fetchall() == [("d1",), ("p1",)]
    assert primary_keys(con) == [("kg_nodes", ["node_id"]), ("kg_relationships", ["relationship_id"])]


def test_shipped_sample_formats_ingest_alike(tmp_path: Path) -> None:
    loaded = {}
    for name in ("graph.json", "graph.graphml"):
        with duckdb.connect() as con:
            summary = ingest_export(con, SAMPLE / name, name)
            assert summary.rejected == 0
            assert_conserved(con, summary)
            nodes = con.execute("SELECT regexp_replace(node_id, '^n', ''), labels, properties::VARCHAR FROM kg_nodes").fetchall()
            relationships = con.execute(
                "SELECT rel_type, regexp_replace(start_id, '^n', ''), regexp_replace(end_id, '^n', '') FROM kg_relationships"
            ).fetchall()
            loaded[name] = (summary, sorted(nodes), sorted(relationships))
    (json_summary, json_nodes, json_rels), (graphml_summary, graphml_nodes, graphml_rels) = loaded.values()

    assert (json_summary.lines_read, json_summary.nodes_accepted, json_summary.relationships_accepted) == (
        graphml_summary.lines_read, graphml_summary.nodes_accepted, graphml_summary.relationships_accepted,
    )
    assert json_summary.node_counts == graphml_summary.node_counts
    assert json_summary.relationship_counts == graphml_summary.relationship_counts
    assert json_nodes == graphml_nodes  # same ids, labels and typed properties
    assert json_rels == graphml_rels


def test_the_snapshot_is_named_by_the_file_hash_computed_while_reading(con, tmp_path: Path) -> None:
    path = write(tmp_path / "graph.json", [PUBLICATION, DATASET, b"{oops"])

    summary = ingest_export(con, path, "test")

    assert summary.sha256 == file_sha256(path)
    assert summary.snapshot_id == file_sha256(path)[:16]
    assert con.execute("SELECT sha256 FROM kg_snapshots").fetchall() == [(file_sha256(path),)]


def test_a_file_of_the_current_size_but_other_bytes_is_ingested(con, tmp_path: Path) -> None:
    """The size only tells when the hash must be awaited before reading; the hash decides."""
    first = ingest_export(con, write(tmp_path / "a.json", [PUBLICATION, DATASET]), "a")
    same_size = write(tmp_path / "b.json", [PUBLICATION.replace(b"p1", b"p2"), DATASET])
    assert same_size.stat().st_size == first.size_bytes

    second = ingest_export(con, same_size, "b")

    assert not second.reused and second.snapshot_id != first.snapshot_id
    assert con.execute("SELECT node_id FROM kg_nodes ORDER BY 1").fetchall() == [("d1",), ("p2",)]
    assert_conserved(con, second)


@pytest.mark.parametrize(("setting", "limit"), [(None, "3GB"), ("", "3GB"), ("1GB", "1GB")], ids=["unset", "empty", "set"])
def test_duckdb_memory_limit_and_spill_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, setting: str | None, limit: str
) -> None:
    """The DuckDB resource the assets use is limited (RECON_DUCKDB_MEMORY_LIMIT) and spills beside the database."""
    monkeypatch.setenv("RECON_DB_PATH", str(tmp_path / "recon.duckdb"))
    if setting is None:
        monkeypatch.delenv("RECON_DUCKDB_MEMORY_LIMIT", raising=False)
    else:
        monkeypatch.setenv("RECON_DUCKDB_MEMORY_LIMIT", setting)

    with resources_from_environment()["store"].connect() as connection:
        memory_limit, temp_directory = connection.execute(
            "SELECT current_setting('memory_limit'), current_setting('temp_directory')"
        ).fetchone()

    # DuckDB reports the limit in its own units (1GB -> 953.6 MiB).
    assert memory_limit == duckdb.connect(config={"memory_limit": limit}).execute("SELECT current_setting('memory_limit')").fetchone()[0]
    assert temp_directory == f"{tmp_path / 'recon.duckdb'}.tmp"


@pytest.mark.parametrize(
    ("setting", "refused"),
    [
        ("0GB", "must be at least 256MB (docs/CONFIGURATION.md), got '0GB'"),
        ("1KB", "must be at least 256MB (docs/CONFIGURATION.md), got '1KB'"),
        ("255MB", "must be at least 256MB (docs/CONFIGURATION.md), got '255MB'"),
        ("1%", "must be at least 256MB (docs/CONFIGURATION.md), got '1%'"),
        ("-1GB", "must not be negative (DuckDB would read '-1GB' as no limit at all): give a size such as '3GB'"),
        ("-1", "must not be negative (DuckDB would read '-1' as no limit at all): give a size such as '3GB'"),
        # Hostile pass: DuckDB reads '1e3GB' as 931.3 GiB; '.5GB' and '3.GB' are typos away from another size.
        ("1e3GB", "must be a plain decimal number and a unit, such as '3GB', '2GiB' or '1.5GB', got '1e3GB'"),
        (".5GB", "must be a plain decimal number and a unit, such as '3GB', '2GiB' or '1.5GB', got '.5GB'"),
        ("3.GB", "must be a plain decimal number and a unit, such as '3GB', '2GiB' or '1.5GB', got '3.GB'"),
        ("256MB", None),
        ("2GiB", None),
        ("1.5 GB", None),
    ],
)
def test_a_memory_limit_below_the_floor_or_negative_is_refused_where_the_definitions_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, setting: str, refused: str | None
) -> None:
    """Hostile pass: 0GB or 1KB ended the first step in a 107-line DuckDB OutOfMemoryException; -1GB or -1 became
    DuckDB's default (80% of RAM), the documented cap gone without a word. The code location the UI loads, its launch
    check and a run's resources refuse them in one line naming the variable (`recon run`: test_rerun)."""
    monkeypatch.setenv("RECON_DB_PATH", str(tmp_path / "recon.duckdb"))
    monkeypatch.setenv("RECON_DUCKDB_MEMORY_LIMIT", setting)
    if refused is None:
        assert resources_from_environment()["store"].connection_config["memory_limit"] == setting
        assert settings_problems(None) == []
        return
    with pytest.raises(ValueError, match=re.escape(f"RECON_DUCKDB_MEMORY_LIMIT {refused}")):
        resources_from_environment()
    assert settings_problems(None) == [f"environment: RECON_DUCKDB_MEMORY_LIMIT {refused}"]  # the UI's launch check
    # a launchpad's run config giving the resource that limit is refused when the resource is built
    monkeypatch.delenv("RECON_DUCKDB_MEMORY_LIMIT")
    with pytest.raises(ValueError, match=re.escape(f"the store's memory_limit (RECON_DUCKDB_MEMORY_LIMIT) {refused}")):
        TableStore(database=str(tmp_path / "recon.duckdb"), connection_config={"memory_limit": setting})


def test_a_memory_limit_with_a_space_is_duckdbs_own_size_and_passes_recon_runs_pre_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RECON_DUCKDB_MEMORY_LIMIT="10 GB" (a space between number and unit): DuckDB itself reads it, as it reads '10GB'
    (9.3 GiB), so it is accepted, not refused: by `recon run`'s pre-check, the UI's launch check and a step's
    connection, which runs with it."""
    from recon_assets.cli.run import _preflight

    database = tmp_path / "recon.duckdb"
    monkeypatch.setenv("RECON_DB_PATH", str(database))
    monkeypatch.setenv("RECON_DUCKDB_MEMORY_LIMIT", "10 GB")
    with duckdb.connect(config={"memory_limit": "10GB"}) as con:
        ten_gb = con.execute("SELECT current_setting('memory_limit')").fetchone()[0]
    assert ten_gb == "9.3 GiB"
    _preflight(database)  # raises PreflightError on a limit it refuses
    assert settings_problems(None) == []
    with resources_from_environment()["store"].connect() as connection:
        assert connection.execute("SELECT current_setting('memory_limit')").fetchone()[0] == ten_gb


def test_a_memory_limit_above_the_machines_memory_is_run_with_one_warning(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Hostile pass: RECON_DUCKDB_MEMORY_LIMIT=1000TB passed without a word. Above the machine's memory (sysconf) a
    limit still runs (DuckDB spills only beyond it), and the run's log says so in one line; 256MB says nothing."""
    physical = physical_memory_bytes()
    above = f"{physical // 2**30 + 1}GiB"
    monkeypatch.setenv("RECON_DB_PATH", str(tmp_path / "recon.duckdb"))
    warnings = {}
    for setting in (above, "256MB"):
        monkeypatch.setenv("RECON_DUCKDB_MEMORY_LIMIT", setting)
        resource = resources_from_environment()["store"]  # accepted where the definitions load

        @dg.asset
        def touches_the_database(store: TableStore) -> None:
            with store.connect() as connection:
                connection.execute("SELECT 1")

        with dg.instance_for_test() as instance:
            result = dg.materialize([touches_the_database], resources={"store": resource}, instance=instance)
            warnings[setting] = [log.user_message for log in instance.all_logs(result.run_id) if log.level == logging.WARNING]
    assert warnings["256MB"] == []
    (line,) = warnings[above]
    assert "\n" not in line and line.startswith(f"RECON_DUCKDB_MEMORY_LIMIT '{above}' is {above[:-3]}.0GiB, more than this machine's memory (")
    assert line.endswith("give less (default 3GB)")


def test_graphml_elements_lost_to_a_syntax_error_fail_the_ingest_and_keep_the_current_snapshot(con, tmp_path: Path) -> None:
    """Bug: a stray '<' in a node line made libxml2 drop the rest of the sample (146 nodes, 584 edges) silently."""
    good = ingest_export(con, SAMPLE_GRAPHML, "sample")
    lines = SAMPLE_GRAPHML.read_text().splitlines(keepends=True)
    middle = next(n for n in range(len(lines) // 2, len(lines)) if lines[n].lstrip().startswith("<node "))
    lines[middle] = lines[middle].replace("<node ", "<node < ", 1)
    damaged = tmp_path / "damaged.graphml"
    damaged.write_text("".join(lines))

    with pytest.raises(KgExportError, match=r"node/edge elements of .*damaged.graphml could not be read"):
        ingest_export(con, damaged, "damaged")

    assert current_snapshot_id(con) == good.snapshot_id
    assert con.execute("SELECT count(*) FROM kg_nodes").fetchone()[0] == good.nodes_accepted
    assert con.execute("SELECT count(*) FROM kg_rejects WHERE source = 'damaged'").fetchone()[0] > 0


@pytest.mark.parametrize("block_bytes", [7, 37, 4096])
def test_graphml_element_tags_counts_across_block_boundaries(block_bytes: int) -> None:
    # the GraphML holds the same elements as the JSON-lines export: one line each
    assert graphml_element_tags(SAMPLE_GRAPHML, block_bytes=block_bytes) == len((SAMPLE / "graph.json").read_text().splitlines())


# Issue 14: a KG file still being copied was ingested partially and the run exited 0.
GOOD = b"\n".join([PUBLICATION, DATASET]) + b"\n"
CUT_GRAPHML = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<graphml xmlns="http://graphml.graphdrawing.org/xmlns">\n<graph id="G" edgedefault="directed">\n'
    '<node id="n1" labels=":Publication"><data key="labels">:Publication</data></node>\n'
    '<node id="n2" labels=":Dataset"><data key="labels">:Dataset</data></node>\n'
)


@pytest.mark.parametrize(
    ("name", "content", "found"),
    [
        ("graph.json", GOOD + b'{"type":"relationship","id":"r1","label":"USES_DA',
         r"its last line \(3\) has no newline at the end and is not valid JSON"),
        ("graph.json", GOOD + b'{"type":"node","id":"d2","labels":["Dataset"],"properties":{"shortName":"caf\xc3',
         r"its last line \(3\) has no newline at the end and is not valid JSON"),  # cut inside a UTF-8 character
        ("graph.graphml", CUT_GRAPHML.encode(), r"it ends before its GraphML root element is closed \(no </graphml> at the end\)"),
        ("graph.graphml", (CUT_GRAPHML + '<edge id="e1" source="n1" tar').encode(),
         r"it ends before its GraphML root element is closed \(no </graphml> at the end\)"),
    ],
    ids=["JSON-lines cut mid-line", "JSON-lines cut mid-character", "GraphML cut between elements", "GraphML cut mid-element"],
)
def test_a_truncated_file_fails_and_keeps_the_current_snapshot(con, tmp_path: Path, name: str, content: bytes, found: str) -> None:
    good = ingest_export(con, write(tmp_path / "good.json", [PUBLICATION, DATASET]), "good")
    path = tmp_path / name
    path.write_bytes(content)

    with pytest.raises(KgExportError, match=rf"^KG export {re.escape(str(path))} is incomplete: {found}\. It is truncated or still being copied"):
        ingest_export(con, path, "cut")

    assert current_snapshot_id(con) == good.snapshot_id
    assert con.execute("SELECT count(*) FROM kg_snapshots").fetchone() == (1,)
    assert con.execute("SELECT count(*) FROM kg_rejects WHERE source = 'cut'").fetchone() == (0,)
    assert con.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name = 'kg_elements'").fetchone() == (0,)
    assert_conserved(con, good)


@pytest.mark.parametrize(
    "content",
    [GOOD.rstrip(b"\n"), GOOD + b'{"type":"node","id":"x"}', (CUT_GRAPHML + "</graph>\n</graphml>").encode()],
    ids=["JSON-lines: a whole last line without newline", "JSON-lines: a whole last object, rejected", "GraphML without final newline"],
)
def test_a_whole_file_without_a_final_newline_is_not_truncated(con, tmp_path: Path, content: bytes) -> None:
    path = tmp_path / ("graph.graphml" if content.startswith(b"<") else "graph.json")
    path.write_bytes(content)

    summary = ingest_export(con, path, "test")

    assert summary.nodes_accepted == 2
    assert_conserved(con, summary)


@pytest.mark.parametrize("change", ["append", "touch"])
@pytest.mark.parametrize("name", ["graph.json", "graph.graphml"])
def test_a_file_that_changes_while_it_is_read_fails_and_keeps_the_current_snapshot(
    con, tmp_path: Path, change: str, name: str
) -> None:
    """The file is changed when the reader reports it has read everything, before the ingest stores anything: what a copy
    still writing to it does (appending), or any other writer (a new modification time alone)."""
    good = ingest_export(con, write(tmp_path / "good.json", [PUBLICATION, DATASET]), "good")
    path = tmp_path / name
    # Not the current snapshot's bytes: those would be recognised by their hash and not read at all.
    path.write_bytes(GOOD + DATASET.replace(b"d1", b"d2") + b"\n" if name == "graph.json" else (CUT_GRAPHML + "</graph>\n</graphml>\n").encode())
    stamp = path.stat().st_mtime_ns

    def copy_still_writing(message: str) -> None:
        if message.startswith("read "):
            if change == "append":
                with path.open("ab") as handle:
                    handle.write(b"\n")
            os.utime(path, ns=(stamp + 10**9, stamp + 10**9))

    with pytest.raises(KgExportError, match=r"is incomplete: it changed while it was read \(size .* modified .*\)\. It is truncated or still being copied"):
        ingest_export(con, path, "changing", progress=copy_still_writing)

    assert current_snapshot_id(con) == good.snapshot_id
    assert con.execute("SELECT node_id FROM kg_nodes ORDER BY 1").fetchall() == [("d1",), ("p1",)]
    assert con.execute("SELECT count(*) FROM kg_rejects WHERE source = 'changing'").fetchone() == (0,)
