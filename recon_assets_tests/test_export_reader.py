"""The export reader: format detection from content, streaming in batches, and APOC GraphML transcoded to APOC JSON lines."""

from __future__ import annotations

import bz2
import codecs
import gzip
import json
import lzma
import os
import re
from pathlib import Path

import networkx as nx
import pytest

from recon_assets.kg import export_reader
from recon_assets.kg.export_reader import (
    MAX_LINE_BYTES,
    RAW_TEXT_LIMIT,
    KgExportError,
    KgFormat,
    ReadStats,
    detect_format,
    json_line_heads,
    read_export,
)

NODE = b'{"type":"node","id":"1","labels":["Dataset"],"properties":{}}\n'
GRAPHML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<graphml xmlns="http://graphml.graphdrawing.org/xmlns">\n'


def apoc_graphml(keys: str, body: str) -> str:
    """A GraphML document shaped like APOC's: declared property keys, labels as an undeclared `labels` data key."""
    return f'{GRAPHML_HEAD}{keys}<graph id="G" edgedefault="directed">\n{body}</graph>\n</graphml>\n'


def read_rows(path: Path, batch_lines: int = 1000) -> tuple[list[dict], ReadStats]:
    stats = ReadStats()
    rows = [row for table in read_export(path, detect_format(path), stats, batch_lines) for row in table.to_pylist()]
    return rows, stats


APOC_SHAPED = apoc_graphml(
    '<key id="title" for="node" attr.name="title" attr.type="string"/>\n',
    '<node id="n0" labels=":Publication"><data key="labels">:Publication</data><data key="title">A</data></node>\n'
    '<node id="n1" labels=":Dataset:Other"><data key="labels">:Dataset:Other</data></node>\n'
    '<edge id="e0" source="n0" target="n1" label="USES_DATASET"><data key="label">USES_DATASET</data></edge>\n',
)


@pytest.mark.parametrize(
    ("name", "content", "fmt"),
    [
        ("graph.json", NODE, KgFormat.APOC_JSONL),
        ("graph.graphml", NODE, KgFormat.APOC_JSONL),  # content wins over the extension
        ("graph.json", APOC_SHAPED.encode(), KgFormat.APOC_GRAPHML),
        ("graph", b"\xef\xbb\xbf\n\n  " + NODE, KgFormat.APOC_JSONL),  # BOM and leading blank lines
        ("graph.xml", b"<graphml>\n</graphml>", KgFormat.APOC_GRAPHML),
        # APOC's Cypher export starts with a transaction (cypher-shell, neo4j-shell) or, plain, with a statement.
        ("graph.cypher", b":begin\nCREATE CONSTRAINT UNIQUE_IMPORT_NAME FOR (node:`UNIQUE IMPORT LABEL`) ...", KgFormat.APOC_CYPHER),
        ("graph.cypher", b"BEGIN\nCREATE (:Dataset {name:\"x\"});\nCOMMIT\n", KgFormat.APOC_CYPHER),
        ("export.txt", b"UNWIND [{_id:0, properties:{}}] AS row\n", KgFormat.APOC_CYPHER),
        ("graph.json", b"\xef\xbb\xbf\n:param rows => []\n", KgFormat.APOC_CYPHER),
    ],
)
def test_detect_format_from_content(tmp_path: Path, name: str, content: bytes, fmt: KgFormat) -> None:
    path = tmp_path / name
    path.write_bytes(content)

    assert detect_format(path) is fmt


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read KG export"),  # missing file
        (b"", "is empty"),
        (b" \n\r\n\t", "is empty"),
        (b"id,labels\n1,Dataset\n", "is neither APOC JSON-lines, GraphML nor a Cypher export"),
        (b'[{"type":"node"}]', "is neither APOC JSON-lines, GraphML nor a Cypher export"),  # a JSON array, not JSON lines
        (b"<html><body>404</body></html>", "is neither APOC JSON-lines, GraphML nor a Cypher export"),
    ],
)
def test_unreadable_exports_raise_naming_the_file(tmp_path: Path, content: bytes | None, message: str) -> None:
    path = tmp_path / "graph.json"
    if content is not None:
        path.write_bytes(content)

    with pytest.raises(KgExportError, match=message) as raised:
        detect_format(path)
    assert str(path) in str(raised.value)


@pytest.mark.parametrize("kind", ["directory", "fifo", "device"])
def test_only_regular_files_are_exports(tmp_path: Path, kind: str) -> None:
    """A FIFO would block the reader forever and a device never ends: both are refused before opening."""
    if kind == "directory":
        path = tmp_path
    elif kind == "fifo":
        path = tmp_path / "graph.json"
        os.mkfifo(path)
    else:
        path = Path(os.devnull)

    with pytest.raises(KgExportError, match="is not a regular file") as raised:
        detect_format(path)
    assert str(path) in str(raised.value)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (codecs.BOM_UTF16_LE + NODE.decode().encode("utf-16-le"), "is UTF-16: UTF-16 is not supported, convert to UTF-8"),
        (codecs.BOM_UTF16_BE + NODE.decode().encode("utf-16-be"), "is UTF-16: UTF-16 is not supported, convert to UTF-8"),
        (codecs.BOM_UTF32_LE + NODE.decode().encode("utf-32-le"), "is UTF-32: UTF-32 is not supported, convert to UTF-8"),
        (codecs.BOM_UTF32_BE + NODE.decode().encode("utf-32-be"), "is UTF-32: UTF-32 is not supported, convert to UTF-8"),
        (APOC_SHAPED.encode("utf-16"), "is UTF-16: UTF-16 is not supported"),  # GraphML too (Python writes a BOM)
        (NODE.decode().encode("utf-16-le"), "NUL bytes at its start"),  # UTF-16 without a byte-order mark
        (gzip.compress(NODE), "is gzip-compressed: decompress first"),
        (bz2.compress(NODE), "is bzip2-compressed: decompress first"),
        (lzma.compress(NODE), "is xz-compressed: decompress first"),
        (b"PK\x03\x04" + NODE, "is a zip archive: decompress first"),
        (NODE.replace(b"\n", b"\r") * 3, "CR-only line endings are not supported"),
    ],
    ids=["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be", "utf-16 graphml", "utf-16 no BOM", "gzip", "bzip2", "xz", "zip", "CR only"],
)
def test_encodings_and_compressions_we_cannot_read_are_named(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "graph.json"
    path.write_bytes(content)

    with pytest.raises(KgExportError, match=message) as raised:
        detect_format(path)
    assert str(path) in str(raised.value)


def test_json_lines_are_streamed_in_numbered_batches(tmp_path: Path) -> None:
    path = tmp_path / "graph.json"
    path.write_bytes(b"\xef\xbb\xbf" + NODE * 4 + b'{"type":"node"}\r\nno newline at the end')
    stats = ReadStats()

    tables = list(read_export(path, KgFormat.APOC_JSONL, stats, batch_lines=2))

    assert [table.num_rows for table in tables] == [2, 2, 2]
    rows = [row for table in tables for row in table.to_pylist()]
    assert [row["line_number"] for row in rows] == [1, 2, 3, 4, 5, 6]
    assert [row["position"] for row in rows] == [1, 2, 3, 4, 5, 6]  # in JSON lines the position is the line
    assert rows[0]["raw"] == NODE.decode().rstrip("\n")  # byte-order mark dropped
    assert rows[4]["raw"] == '{"type":"node"}'  # CRLF dropped
    assert rows[5]["raw"] == "no newline at the end"
    assert all(row["read_error"] is None for row in rows)
    assert stats.lines_read == 6


def test_invalid_utf8_is_kept_with_its_error(tmp_path: Path) -> None:
    path = tmp_path / "graph.json"
    path.write_bytes(NODE + b'{"type":"node","id":"caf\xe9"}\n')

    rows, stats = read_rows(path)

    # 24 = offset of the Latin-1 byte 0xE9 in the line.
    assert rows[1] == {
        "position": 2, "line_number": 2, "raw": '{"type":"node","id":"caf\\xe9"}', "read_error": "invalid UTF-8 at byte 24",
        "byte_offset": len(NODE),
    }
    assert stats.lines_read == 2


def test_networkx_refuses_apoc_graphml_that_we_read(tmp_path: Path) -> None:
    path = tmp_path / "graph.graphml"
    path.write_text(APOC_SHAPED, encoding="utf-8")

    with pytest.raises(nx.NetworkXError, match="no key labels"):
        nx.read_graphml(path)
    rows, stats = read_rows(path)

    assert [json.loads(row["raw"]) for row in rows] == [
        {"type": "node", "id": "n0", "labels": ["Publication"], "properties": {"title": "A"}},
        {"type": "node", "id": "n1", "labels": ["Dataset", "Other"], "properties": {}},
        {
            "type": "relationship", "id": "e0", "label": "USES_DATASET",
            "start": {"id": "n0"}, "end": {"id": "n1"}, "properties": {},
        },
    ]
    assert [row["line_number"] for row in rows] == [5, 6, 7]  # the element's line in the file
    assert stats.lines_read == 3


@pytest.mark.parametrize(
    ("attr_type", "text", "value"),
    [
        ("int", "7", 7),
        ("long", "12345678901", 12345678901),
        ("double", "0.25", 0.25),
        ("float", "1e-3", 0.001),
        ("boolean", "true", True),
        ("boolean", "False", False),
        # Hostile findings: xs:boolean's 1 and 0 were read as false, and so were a text that is no boolean and an empty one.
        ("boolean", "1", True),
        ("boolean", "0", False),
        ("boolean", "maybe", "maybe"),
        ("boolean", "", ""),
        ("string", '["Wei, Haohan", "Yu, Tongning"]', ["Wei, Haohan", "Yu, Tongning"]),  # APOC's list property
        ("string", "[not json", "[not json"),
        ("string", "2019", "2019"),
        ("int", "seven", "seven"),  # a value that does not fit its declared type is kept as text
        ("string", "", ""),
    ],
)
def test_graphml_attribute_types(tmp_path: Path, attr_type: str, text: str, value: object) -> None:
    path = tmp_path / "graph.graphml"
    path.write_text(
        apoc_graphml(
            f'<key id="p" for="node" attr.name="prop" attr.type="{attr_type}"/>\n',
            f'<node id="n0" labels=":Dataset"><data key="labels">:Dataset</data><data key="p">{text}</data></node>\n',
        ),
        encoding="utf-8",
    )

    rows, _ = read_rows(path)

    assert json.loads(rows[0]["raw"])["properties"] == {"prop": value}


@pytest.mark.parametrize(
    ("node", "labels"),
    [
        ('<node id="n0" labels=":Dataset:Other"/>', ["Dataset", "Other"]),
        ('<node id="n0"><data key="labels">:Publication</data></node>', ["Publication"]),  # labels only as data
        ('<node id="n0"/>', []),
    ],
)
def test_graphml_labels(tmp_path: Path, node: str, labels: list[str]) -> None:
    path = tmp_path / "graph.graphml"
    path.write_text(apoc_graphml("", node + "\n"), encoding="utf-8")

    rows, _ = read_rows(path)

    assert json.loads(rows[0]["raw"])["labels"] == labels


LONG = b'{"type":"node","id":"long","labels":["Dataset"],"properties":{"abstract":"' + b"a" * 300 + b'"}}'


@pytest.mark.parametrize(
    ("content", "raws", "errors"),
    [
        # raw: the line as far as it was read (limit + 1 bytes), never more than 500 characters.
        pytest.param(NODE + LONG + b"\n" + NODE, [NODE[:-1], LONG[:101], NODE[:-1]], [None, "line longer than 100 bytes", None], id="long line skipped"),
        pytest.param(NODE + LONG, [NODE[:-1], LONG[:101]], [None, "line longer than 100 bytes"], id="long last line, no newline"),
        pytest.param(
            NODE + LONG.replace(b"aaaa", b"aa\ra"), [NODE[:-1], LONG.replace(b"aaaa", b"aa\ra")[:101]],
            [None, "no newline in the first 100 bytes: CR-only line endings are not supported"],
            id="CR-only lines after the sniffed head",
        ),
        pytest.param(NODE + LONG[:100] + b"\n", [NODE[:-1], LONG[:100]], [None, None], id="exactly the limit"),
    ],
)
def test_over_long_lines_are_rejected_without_being_held(tmp_path: Path, content: bytes, raws: list[bytes], errors: list) -> None:
    path = tmp_path / "graph.json"
    path.write_bytes(content)
    stats = ReadStats()

    rows = [row for table in read_export(path, KgFormat.APOC_JSONL, stats, max_line_bytes=100) for row in table.to_pylist()]

    assert [row["raw"] for row in rows] == [raw.decode() for raw in raws]
    assert [row["read_error"] for row in rows] == errors
    assert [row["line_number"] for row in rows] == list(range(1, len(raws) + 1))
    assert stats.lines_read == stats.elements_read == len(raws)


def test_the_real_line_limit_is_64_mib(tmp_path: Path) -> None:
    path = tmp_path / "graph.json"
    with path.open("wb") as handle:
        handle.write(NODE + b'{"type":"node","abstract":"')
        handle.write(b"a" * MAX_LINE_BYTES)
        handle.write(b'"}\n' + NODE)

    rows, stats = read_rows(path)

    assert MAX_LINE_BYTES == 64 * 2**20
    assert [row["read_error"] for row in rows] == [None, "line longer than 64 MiB", None]
    assert len(rows[1]["raw"]) == 500
    assert stats.lines_read == 3


GRAPHML_NS = "http://graphml.graphdrawing.org/xmlns"
TWO_NODES_AND_AN_EDGE = (
    '<key id="t" for="node" attr.name="title" attr.type="string"/>'
    '<graph id="G"><node id="n0" labels=":Publication"><data key="t">A</data></node><node id="n1" labels=":Dataset"/>'
    '<edge id="e0" source="n0" target="n1" label="USES_DATASET"/></graph>'
)
EXPECTED_ELEMENTS = [
    {"type": "node", "id": "n0", "labels": ["Publication"], "properties": {"title": "A"}},
    {"type": "node", "id": "n1", "labels": ["Dataset"], "properties": {}},
    {"type": "relationship", "id": "e0", "label": "USES_DATASET", "start": {"id": "n0"}, "end": {"id": "n1"}, "properties": {}},
]


@pytest.mark.parametrize(
    "root",
    [
        f'<graphml xmlns="{GRAPHML_NS}">',
        "<graphml>",  # no namespace
        '<graphml xmlns="http://example.com/ns">',  # another namespace
        f'<g:graphml xmlns:g="{GRAPHML_NS}">',  # a prefix
    ],
)
def test_graphml_elements_are_matched_in_any_namespace(tmp_path: Path, root: str) -> None:
    """Minified GraphML (every element on line 2) also shows that positions, not line numbers, tell elements apart."""
    prefix = "g:" if root.startswith("<g:") else ""
    body = TWO_NODES_AND_AN_EDGE.replace("<", f"<{prefix}").replace(f"<{prefix}/", f"</{prefix}")
    path = tmp_path / "graph.graphml"
    path.write_text(f'<?xml version="1.0"?>\n{root}{body}</{prefix}graphml>\n', encoding="utf-8")

    rows, stats = read_rows(path)

    assert [json.loads(row["raw"]) for row in rows] == EXPECTED_ELEMENTS
    assert [(row["position"], row["line_number"]) for row in rows] == [(1, 2), (2, 2), (3, 2)]
    assert stats.lines_read == stats.elements_read == 3


def test_graphml_hyperedges_are_rejected(tmp_path: Path) -> None:
    path = tmp_path / "graph.graphml"
    path.write_text(
        apoc_graphml("", '<node id="n0" labels=":Dataset"/>\n<hyperedge><endpoint node="n0"/><endpoint node="n0"/></hyperedge>\n'),
        encoding="utf-8",
    )

    rows, stats = read_rows(path)

    assert [(row["position"], row["line_number"], row["read_error"]) for row in rows] == [
        (1, 4, None), (2, 5, "hyperedge is not supported"),
    ]
    assert rows[1]["raw"].startswith("<hyperedge")
    assert stats.lines_read == stats.elements_read == 2


def test_graphml_data_text_and_key_defaults(tmp_path: Path) -> None:
    path = tmp_path / "graph.graphml"
    path.write_text(
        apoc_graphml(
            '<key id="t" for="node" attr.name="title" attr.type="string"/>\n'
            '<key id="y" for="node" attr.name="year" attr.type="string"><default>1999</default></key>\n'
            '<key id="w" for="edge" attr.name="weight" attr.type="double"><default>0.5</default></key>\n'
            '<key id="s" attr.name="source" attr.type="string"><default>KG</default></key>\n',  # no `for`: all elements
            '<node id="n0" labels=":Publication"><data key="t">Aer<i>o</i>sol <b>over <i>Asia</i></b></data></node>\n'
            '<node id="n1" labels=":Publication"><data key="y">2020</data></node>\n'
            '<edge id="e0" source="n0" target="n1" label="CITES"/>\n',
        ),
        encoding="utf-8",
    )

    rows, _ = read_rows(path)

    assert [json.loads(row["raw"])["properties"] for row in rows] == [
        {"title": "Aerosol over Asia", "year": "1999", "source": "KG"},
        {"year": "2020", "source": "KG"},
        {"weight": 0.5, "source": "KG"},
    ]


RECOVERED = "recovered: the element there may be damaged or lost"


@pytest.mark.parametrize(
    ("damage", "ids", "errors"),
    [
        pytest.param(
            '<node id="n2" labels=":Dataset"><data key="labels">a & b</data></node>\n',
            ["n0", "n1", "n2", "n3"], [(6, f"GraphML syntax error at line 6, column 55: xmlParseEntityRef: no name; {RECOVERED}")],
            id="bare ampersand",
        ),
        pytest.param(
            '<node id="n2" labels=":Dataset"><data key="labels">a\x00b</data></node>\n',
            ["n0", "n1", "n2", "n3"],
            [(6, f"GraphML syntax error at line 6, column 53: Invalid character: Char 0x0 out of allowed range; {RECOVERED}"),
             (6, f"GraphML syntax error at line 6, column 53: PCDATA invalid Char value 0; {RECOVERED}")],
            id="NUL character",
        ),
        pytest.param(
            '<node id="n2" labels=":Dataset" <oops/>\n',
            ["n0", "n1", "n2", "n3"],
            [(6, f"GraphML syntax error at line 6, column 33: error parsing attribute name; {RECOVERED}"),
             (6, f"GraphML syntax error at line 6, column 33: Couldn't find end of Start Tag node; {RECOVERED}")],
            id="broken start tag",
        ),
    ],
)
def test_graphml_syntax_errors_are_recovered(tmp_path: Path, damage: str, ids: list[str], errors: list[tuple]) -> None:
    path = tmp_path / "graph.graphml"
    path.write_text(
        apoc_graphml("", f'<node id="n0" labels=":Publication"/>\n<node id="n1" labels=":Dataset"/>\n{damage}<node id="n3" labels=":Dataset"/>\n'),
        encoding="utf-8",
    )

    rows, stats = read_rows(path, batch_lines=1)

    # libxml2 reports errors as it parses ahead, so error rows may come before the elements around them.
    assert sorted(json.loads(row["raw"])["id"] for row in rows if row["raw"] is not None) == ids
    assert [(row["line_number"], row["read_error"]) for row in rows if row["read_error"]] == errors
    assert sorted(row["position"] for row in rows) == list(range(1, len(rows) + 1))
    assert len(rows) == stats.lines_read == stats.elements_read + len(errors)


LAUGHS = "".join(f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10 if i else "lol" * 10}">' for i in range(10))


@pytest.mark.parametrize(
    ("document", "message"),
    [
        pytest.param(
            apoc_graphml("", '<node id="n0" labels=":Dataset"/>\n') + '<node id="n1" labels=":Dataset"/>\n',
            "GraphML syntax error at line 7, column 1: Extra content at the end of the document; rest of file not read",
            id="content after the root",
        ),
        pytest.param(
            apoc_graphml("", '<node id="n0" labels=":Dataset"/>\n' + "<x>" * 2100 + '\n<node id="n1" labels=":Dataset"/>\n'),
            "GraphML syntax error at line 5, column 6141: Excessive depth in document: 2048, use XML_PARSE_HUGE option; rest of file not read",
            id="nesting deeper than libxml2 allows",
        ),
        pytest.param(
            # lxml 6.2 ends the node open where the parser stopped and handed it on with its value cut ('a').
            apoc_graphml("", '<node id="n0" labels=":Dataset"/>\n<node id="x" labels=":Dataset"><data key="t">a' + "<b>" * 2100 + "</data></node>\n"
                         '<node id="n1" labels=":Dataset"/>\n'),
            "GraphML syntax error at line 5, column 6181: Excessive depth in document: 2048, use XML_PARSE_HUGE option; rest of file not read",
            id="nesting deeper than libxml2 allows inside a node",
        ),
        pytest.param(
            f'<?xml version="1.0"?>\n<!DOCTYPE graphml [{LAUGHS}]>\n<graphml><graph>\n<node id="n0" labels=":Dataset"/>\n'
            '<node id="x" labels=":Dataset"><data key="t">&lol9;</data></node>\n<node id="n1" labels=":Dataset"/>\n</graph></graphml>\n',
            "GraphML syntax error at line 1, column 7: Maximum entity amplification factor exceeded, see xmlCtxtSetMaxAmplification.; "
            "rest of file not read",
            id="billion laughs",  # lxml 6.2 ended node x where the parser stopped and handed it on as {"t": ""}
        ),
    ],
)
def test_graphml_errors_libxml2_cannot_recover_from_say_the_rest_was_not_read(tmp_path: Path, document: str, message: str) -> None:
    path = tmp_path / "graph.graphml"
    path.write_text(document, encoding="utf-8")

    rows, stats = read_rows(path)

    assert [json.loads(row["raw"])["id"] for row in rows if row["raw"]] == ["n0"]
    # libxml2 2.13 (lxml 5.x wheels) words the depth error 'depth in document: 2049 use' at another column.
    [error] = [row["read_error"] for row in rows if row["read_error"]]
    def worded(text: str) -> str:
        return re.sub(r"column \d+: Excessive depth in document: 204[89],? use", "Excessive depth in document: 2048, use", text)

    assert worded(error) == worded(message)
    assert stats.lines_read == 2 and stats.elements_read == 1


def test_graphml_too_many_errors_say_so(tmp_path: Path) -> None:
    body = "".join(f'<node id="n{i}" labels=":Dataset"><data key="labels">a & b</data></node>\n' for i in range(150))
    path = tmp_path / "graph.graphml"
    path.write_text(apoc_graphml("", body), encoding="utf-8")

    rows, stats = read_rows(path)

    errors = [row["read_error"] for row in rows if row["read_error"]]
    assert len(errors) == 101  # libxml2 stops reporting after 100 errors: the elements are still read
    assert errors[-1] == "more GraphML syntax errors after these 100 were not reported; elements after them may be damaged or lost"
    assert stats.elements_read == 150 and stats.lines_read == 251


@pytest.mark.parametrize(
    "doctype",
    [
        '<!DOCTYPE graphml [<!ENTITY leak SYSTEM "file://{secret}">]>',
        '<!DOCTYPE graphml [<!ENTITY % ext SYSTEM "file://{dtd}"> %ext;]>',  # parameter entity from an external DTD
        '<!DOCTYPE graphml SYSTEM "file://{dtd}">',  # external DTD subset
        '<!DOCTYPE graphml [<!ENTITY leak SYSTEM "http://127.0.0.1:9/secret">]>',  # network
    ],
    ids=["file entity", "parameter entity", "external DTD", "http entity"],
)
@pytest.mark.parametrize("secret_file", ["/etc/hostname", "tmp"])
def test_graphml_external_entities_are_never_read(tmp_path: Path, doctype: str, secret_file: str) -> None:
    secret = Path(secret_file) if secret_file != "tmp" else tmp_path / "secret.txt"
    if secret_file == "tmp":
        secret.write_text("TOP-SECRET")
    (tmp_path / "evil.dtd").write_text(f'<!ENTITY leak SYSTEM "file://{secret}">')
    path = tmp_path / "graph.graphml"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        + doctype.format(secret=secret, dtd=tmp_path / "evil.dtd")
        + f'\n<graphml xmlns="{GRAPHML_NS}">\n<graph>\n'
        '<node id="n0" labels=":Publication"><data key="title">LEAK[&leak;]</data></node>\n'
        '<node id="n1" labels=":Dataset"/>\n</graph>\n</graphml>\n',
        encoding="utf-8",
    )

    rows, stats = read_rows(path)

    # The reference is never expanded nor loaded: the node holding it is a rejected row that keeps it as text, and
    # the rest of the file is read (lxml 6.2, expanding internal entities, stopped at it: 'LEAK[' and n1 lost).
    text = json.dumps(rows)
    assert [json.loads(row["raw"])["properties"] for row in rows if row["raw"] and not row["read_error"]] == [{}]
    rejected = [row for row in rows if row["raw"] and row["read_error"]]
    assert [json.loads(row["raw"])["properties"] for row in rejected] == [{"title": "LEAK[&leak;]"}]
    assert rejected[0]["read_error"].startswith('entity reference &leak; in <data key="title"> not expanded')
    assert "TOP-SECRET" not in text
    if secret.exists() and secret.read_text().strip():
        assert secret.read_text().strip() not in text
    assert stats.elements_read == 2 and stats.lines_read == len(rows)


@pytest.mark.parametrize(
    ("declarations", "value", "title", "reference"),
    [
        ('<!ENTITY e "EXPANDED">', "[&e;|&e;]&amp;&#38;", "[&e;|&e;]&&", "e"),  # internal: not expanded either
        ('<!ENTITY e "EXPANDED">', "A<i>[&e;]</i>B", "A[&e;]B", "e"),
        ('<!ENTITY e "EXPANDED"><!ENTITY n "a&e;b">', "[&n;]", "[&n;]", "n"),
        ("", "[&undef;]", "[&undef;]", "undef"),  # libxml2 also reports it: one more row
        ('<!ENTITY % p "text">', "[&p;]", "[&p;]", "p"),
        ("", "[&amp;&lt;&#38;]", "[&<&]", None),  # predefined entities and character references are text
    ],
    ids=["internal", "inside markup", "nested", "undeclared", "parameter entity", "predefined"],
)
def test_graphml_entity_references_are_not_expanded_and_reject_their_element(
    tmp_path: Path, declarations: str, value: str, title: str, reference: str | None
) -> None:
    # APOC writes no DTD. Before lxml 6.2 internal entities were expanded; lxml 6.2 stops at an external one (see
    # test_graphml_external_entities_are_never_read), so no entity is expanded and the element is rejected.
    path = tmp_path / "graph.graphml"
    path.write_text(
        f'<?xml version="1.0"?>\n<!DOCTYPE graphml [{declarations}]>\n'
        f'<graphml xmlns="{GRAPHML_NS}"><graph><node id="n0" labels=":Dataset"><data key="title">{value}</data></node>\n'
        '<node id="n1" labels=":Dataset"/></graph></graphml>\n',
        encoding="utf-8",
    )

    rows, stats = read_rows(path)

    elements = [row for row in rows if row["raw"]]
    assert [json.loads(row["raw"])["properties"] for row in elements] == [{"title": title}, {}]
    if reference is None:
        assert [row["read_error"] for row in rows] == [None, None]
    else:
        assert elements[0]["read_error"] == f'entity reference &{reference}; in <data key="title"> not expanded (APOC writes none; entities are never read)'
        assert elements[1]["read_error"] is None
    assert stats.elements_read == 2 and stats.lines_read == len(rows)


def test_graphml_element_closed_before_the_parser_stopped_is_still_read(tmp_path: Path) -> None:
    # The parser stops in the depth of <b> after n0 and n1 ended: both are whole. Only the element open where it
    # stopped (here none) is withheld, with every lxml.
    path = tmp_path / "graph.graphml"
    path.write_text(
        apoc_graphml("", '<node id="n0" labels=":Dataset"/>\n<node id="n1" labels=":Dataset"><data key="t">v</data></node>' + "<b>" * 2100 + "\n"),
        encoding="utf-8",
    )

    rows, stats = read_rows(path)

    assert [json.loads(row["raw"])["id"] for row in rows if row["raw"]] == ["n0", "n1"]
    assert [row["read_error"].split(": ", 1)[1].replace("2049 use", "2048, use") for row in rows if row["read_error"]] == [
        "Excessive depth in document: 2048, use XML_PARSE_HUGE option; rest of file not read"
    ]
    assert stats.lines_read == 3 and stats.elements_read == 2


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (apoc_graphml('<key id="t" for="node" attr.name="title" attr.type="string"/>\n', ""), r"no node or edge element could be read from KG export \S+$"),
        (f'<graphml xmlns="{GRAPHML_NS}" <><graph><node id="n0"/></graph></graphml>', r"\(first GraphML error, line 1: error parsing attribute name\)"),
        ('<?xml version="1.0"?>\n<!-- graphml -->\n<root><node id="n0" labels=":Dataset"/></root>', "is XML but not GraphML: its root element is <root>"),
        (f'<key id="t"/><graphml xmlns="{GRAPHML_NS}"><graph><node id="n0"/></graph></graphml>', "its root element is <key>, not <graphml>"),
    ],
    ids=["only keys", "broken root", "another XML root", "a key before the root"],
)
def test_graphml_without_any_element_or_another_root_raises(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "graph.graphml"
    path.write_text(content, encoding="utf-8")

    with pytest.raises(KgExportError, match=message) as raised:
        read_rows(path)
    assert str(path) in str(raised.value)


MIXED = (
    b"\xef\xbb\xbf" + NODE + b"\n \t\n" + NODE.replace(b"\n", b"\r\n") + b'{"id":"caf\xe9"}\n' + LONG + b"\n"
    + NODE * 3 + b'{"type":"node","id":"\xe2\x82\xac"}\n' + b"{no newline at the end"
)


def python_rows(content: bytes, max_line_bytes: int) -> list[tuple]:
    """What each line should become, by plain Python enumeration of the file's lines."""
    rows = []
    for number, line in enumerate(content.removeprefix(codecs.BOM_UTF8).split(b"\n"), start=1):
        if number > content.count(b"\n") and not line:
            break  # the file ends with a newline: no line after it
        if len(line) > max_line_bytes:
            rows.append((number, line[:max_line_bytes + 1].decode(), f"line longer than {max_line_bytes} bytes"))
            continue
        line = line.rstrip(b"\r")
        try:
            rows.append((number, line.decode(), None))
        except UnicodeDecodeError as error:
            rows.append((number, line.decode("utf-8", "backslashreplace"), f"invalid UTF-8 at byte {error.start}"))
    return rows


@pytest.mark.parametrize("block_bytes", [1, 7, 64, 100, 1000, 2**20])
@pytest.mark.parametrize(
    "content",
    [MIXED, MIXED + b"\n", NODE * 300, b"\n".join(NODE.rstrip(b"\n") + str(i).encode() * (i % 50) for i in range(400))],
    ids=["mixed", "mixed with final newline", "same lines", "lines of many lengths"],
)
def test_json_lines_do_not_depend_on_the_read_block_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, block_bytes: int, content: bytes
) -> None:
    """Lines cut by block edges, bad lines among good ones in a block: every line keeps its number and text."""
    monkeypatch.setattr(export_reader, "READ_BLOCK_BYTES", block_bytes)
    path = tmp_path / "graph.json"
    path.write_bytes(content)
    stats = ReadStats()

    rows = [row for table in read_export(path, KgFormat.APOC_JSONL, stats, batch_lines=500, max_line_bytes=200) for row in table.to_pylist()]

    assert [(row["line_number"], row["raw"], row["read_error"]) for row in rows] == python_rows(content, 200)
    assert [row["position"] for row in rows] == [row["line_number"] for row in rows]
    assert [row["byte_offset"] for row in rows] == line_offsets(content)
    assert stats.lines_read == stats.elements_read == len(rows)


def line_offsets(content: bytes) -> list[int]:
    """Byte offset of each line's first byte in the file, by plain Python enumeration (a leading BOM is no line's)."""
    offsets, offset = [], len(codecs.BOM_UTF8) if content.startswith(codecs.BOM_UTF8) else 0
    while offset < len(content):
        offsets.append(offset)
        end = content.find(b"\n", offset)
        offset = len(content) if end < 0 else end + 1
    return offsets


@pytest.mark.parametrize(
    "content",
    [MIXED, MIXED + b"\n", NODE + b'{"type":"node","abstract":"' + "\u00e9\u20ac\U0001f30d".encode() * 400 + b'"}\r\n'],
    ids=["mixed", "mixed with final newline", "multi-byte characters past the limit"],
)
def test_json_line_heads_read_back_what_read_export_gave(tmp_path: Path, content: bytes) -> None:
    """Read again at its byte offset, every line (blank, CRLF, invalid UTF-8, over-long, last without newline) gives
    the first 500 characters of the raw text read_export gave for it."""
    path = tmp_path / "graph.json"
    path.write_bytes(content)
    rows = [row for table in read_export(path, KgFormat.APOC_JSONL, ReadStats(), max_line_bytes=200) for row in table.to_pylist()]

    heads = json_line_heads(path, [row["byte_offset"] for row in rows], max_line_bytes=200)

    assert heads == [row["raw"][:RAW_TEXT_LIMIT] for row in rows]


def test_graphml_rows_have_no_byte_offset(tmp_path: Path) -> None:
    path = tmp_path / "graph.graphml"
    path.write_text(APOC_SHAPED, encoding="utf-8")

    rows, _ = read_rows(path)

    assert [row["byte_offset"] for row in rows] == [None, None, None]
