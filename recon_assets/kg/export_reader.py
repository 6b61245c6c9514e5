"""Stream a Neo4j APOC export (JSON-lines or GraphML) as numbered APOC JSON-lines text, in batches.

Both formats are reduced to one shape, the APOC JSON-lines element
(`{"type":"node","id","labels","properties"}` / `{"type":"relationship","id","label","start":{"id"},"end":{"id"},"properties"}`),
so that one SQL validation (`sql/kg_elements.sql`) judges both. Only one batch of lines is held in
memory at a time: the real v1.2.0 `graph.json` is 1.56 GB and v2.0.0 has 5.8 M relationships.
Formats as written by APOC: https://neo4j.com/labs/apoc/current/export/ (json "JSON lines" and graphml).
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

import pyarrow as pa
from lxml import etree

BATCH_LINES = 50_000
_SNIFF_BYTES = 4096
_GRAPHML_NS = "{http://graphml.graphdrawing.org/xmlns}"

LINE_SCHEMA = pa.schema([("line_number", pa.int64()), ("raw", pa.string()), ("read_error", pa.string())])


class KgExportError(ValueError):
    """The export file cannot be read at all (missing, empty, unreadable or of an unknown format)."""


class KgFormat(StrEnum):
    APOC_JSONL = "apoc_jsonl"
    APOC_GRAPHML = "apoc_graphml"


@dataclass
class ReadStats:
    """Filled in while a file is streamed: `lines_read` counts JSON lines, or node and edge elements in GraphML."""

    lines_read: int = 0


def detect_format(path: Path) -> KgFormat:
    """Detect the export format from the file's first bytes (not its extension).

    Raises:
        KgExportError: the file is missing, unreadable, empty, or neither JSON-lines nor GraphML; the message names the file.
    """
    try:
        with path.open("rb") as handle:
            head = handle.read(_SNIFF_BYTES)
    except OSError as error:
        raise KgExportError(f"cannot read KG export {path}: {error.strerror or error}") from error
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if not text:
        raise KgExportError(f"KG export {path} is empty")
    if text.startswith(b"{"):
        return KgFormat.APOC_JSONL
    if text.startswith(b"<") and b"graphml" in head.lower():
        return KgFormat.APOC_GRAPHML
    raise KgExportError(f"KG export {path} is neither APOC JSON-lines nor GraphML (starts with {text[:40]!r})")


def read_export(path: Path, fmt: KgFormat, stats: ReadStats, batch_lines: int = BATCH_LINES) -> Iterator[pa.Table]:
    """Yield pyarrow tables of (line_number, raw APOC JSON line, read_error) for the whole file.

    `read_error` is set (and `raw` holds the text as far as it could be decoded) when a line is not
    valid UTF-8 or an XML element could not be parsed; JSON validity is judged later, in SQL.
    """
    rows = _jsonl_rows(path, stats) if fmt is KgFormat.APOC_JSONL else _graphml_rows(path, stats)
    batch: list[tuple[int, str | None, str | None]] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= batch_lines:
            yield _to_table(batch)
            batch = []
    if batch:
        yield _to_table(batch)


def _to_table(batch: list[tuple[int, str | None, str | None]]) -> pa.Table:
    numbers, raws, errors = zip(*batch)
    return pa.Table.from_arrays([pa.array(numbers, pa.int64()), pa.array(raws, pa.string()), pa.array(errors, pa.string())], schema=LINE_SCHEMA)


def _jsonl_rows(path: Path, stats: ReadStats) -> Iterator[tuple[int, str | None, str | None]]:
    with path.open("rb") as handle:
        for number, line in enumerate(handle, start=1):
            stats.lines_read = number
            line = line.rstrip(b"\r\n")
            if number == 1:
                # detect_format accepts a leading byte-order mark, so the first element must not be rejected for it.
                line = line.removeprefix(codecs.BOM_UTF8)
            try:
                yield number, line.decode("utf-8"), None
            except UnicodeDecodeError as error:
                yield number, line.decode("utf-8", "backslashreplace"), f"invalid UTF-8 at byte {error.start}"


def _graphml_rows(path: Path, stats: ReadStats) -> Iterator[tuple[int, str | None, str | None]]:
    """Transcode APOC GraphML elements to APOC JSON lines.

    APOC writes `<data key="labels">` without declaring that key, which makes `networkx.read_graphml`
    refuse the file; here an undeclared key simply keeps its id as the property name. Labels come from
    the node attribute `labels=":Dataset:Other"`, the relationship type from the edge attribute `label`.
    A syntax error ends the file: what was read is kept and the error becomes one reject line.
    """
    keys: dict[str, tuple[str, str]] = {}  # key id -> (attr.name, attr.type)
    tags = (f"{_GRAPHML_NS}key", f"{_GRAPHML_NS}node", f"{_GRAPHML_NS}edge", "key", "node", "edge")
    context = etree.iterparse(str(path), events=("end",), tag=tags, huge_tree=True, remove_comments=True)
    try:
        for _, element in context:
            tag = etree.QName(element).localname
            if tag == "key":
                keys[element.get("id")] = (element.get("attr.name") or element.get("id"), element.get("attr.type") or "string")
            else:
                stats.lines_read += 1
                yield element.sourceline, json.dumps(_graphml_element(tag, element, keys), ensure_ascii=False), None
            element.clear(keep_tail=False)
            while element.getprevious() is not None:
                del element.getparent()[0]
    except etree.XMLSyntaxError as error:
        stats.lines_read += 1
        yield error.lineno or 0, None, f"GraphML syntax error, rest of file not read: {error.msg}"


def _graphml_element(tag: str, element: etree._Element, keys: dict[str, tuple[str, str]]) -> dict:
    properties = {}
    for data in element.iterchildren(f"{_GRAPHML_NS}data", "data"):
        name, attr_type = keys.get(data.get("key"), (data.get("key"), "string"))
        properties[name] = _typed(data.text or "", attr_type)
    if tag == "node":
        label_text = element.get("labels") or properties.get("labels") or ""
        properties.pop("labels", None)
        labels = [label for label in str(label_text).split(":") if label]
        return {"type": "node", "id": element.get("id"), "labels": labels, "properties": properties}
    rel_type = element.get("label") or properties.get("label")
    properties.pop("label", None)
    return {
        "type": "relationship",
        "id": element.get("id"),
        "label": rel_type,
        "start": {"id": element.get("source")},
        "end": {"id": element.get("target")},
        "properties": properties,
    }


def _typed(text: str, attr_type: str) -> object:
    """GraphML `attr.type` to a JSON value; APOC writes list properties as JSON array text."""
    try:
        if attr_type in ("int", "long"):
            return int(text)
        if attr_type in ("float", "double"):
            return float(text)
        if attr_type == "boolean":
            return text.strip().lower() == "true"
    except ValueError:
        return text
    if text.startswith("[") and text.endswith("]"):
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            return text
    return text
