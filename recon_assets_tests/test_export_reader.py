"""The export reader: format detection from content, streaming in batches, and APOC GraphML transcoded to APOC JSON lines."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest

from recon_assets.kg.export_reader import KgExportError, KgFormat, ReadStats, detect_format, read_export

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
        (b"id,labels\n1,Dataset\n", "is neither APOC JSON-lines nor GraphML"),
        (b'[{"type":"node"}]', "is neither APOC JSON-lines nor GraphML"),  # a JSON array, not JSON lines
        (b"<html><body>404</body></html>", "is neither APOC JSON-lines nor GraphML"),
    ],
)
def test_unreadable_exports_raise_naming_the_file(tmp_path: Path, content: bytes | None, message: str) -> None:
    path = tmp_path / "graph.json"
    if content is not None:
        path.write_bytes(content)

    with pytest.raises(KgExportError, match=message) as raised:
        detect_format(path)
    assert str(path) in str(raised.value)


def test_a_directory_is_not_an_export(tmp_path: Path) -> None:
    with pytest.raises(KgExportError, match="cannot read KG export") as raised:
        detect_format(tmp_path)
    assert str(tmp_path) in str(raised.value)


def test_json_lines_are_streamed_in_numbered_batches(tmp_path: Path) -> None:
    path = tmp_path / "graph.json"
    path.write_bytes(b"\xef\xbb\xbf" + NODE * 4 + b'{"type":"node"}\r\nno newline at the end')
    stats = ReadStats()

    tables = list(read_export(path, KgFormat.APOC_JSONL, stats, batch_lines=2))

    assert [table.num_rows for table in tables] == [2, 2, 2]
    rows = [row for table in tables for row in table.to_pylist()]
    assert [row["line_number"] for row in rows] == [1, 2, 3, 4, 5, 6]
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
    assert rows[1] == {"line_number": 2, "raw": '{"type":"node","id":"caf\\xe9"}', "read_error": "invalid UTF-8 at byte 24"}
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


def test_graphml_syntax_error_keeps_what_was_read(tmp_path: Path) -> None:
    path = tmp_path / "graph.graphml"
    path.write_text(
        apoc_graphml(
            "",
            '<node id="n0" labels=":Publication"/>\n<node id="n1" labels=":Dataset"/>\n'
            '<node id="n2" <broken/>\n<node id="n3" labels=":Dataset"/>\n',
        ),
        encoding="utf-8",
    )

    rows, stats = read_rows(path, batch_lines=1)

    assert [json.loads(row["raw"])["id"] for row in rows[:2]] == ["n0", "n1"]
    assert rows[2]["raw"] is None
    assert rows[2]["line_number"] == 6
    assert rows[2]["read_error"].startswith("GraphML syntax error, rest of file not read")
    assert len(rows) == stats.lines_read == 3
