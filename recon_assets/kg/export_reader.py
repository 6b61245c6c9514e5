"""Stream a Neo4j APOC export (JSON-lines, GraphML or Cypher) as numbered APOC JSON-lines text, in batches.

All three formats are reduced to one shape, the APOC JSON-lines element
(`{"type":"node","id","labels","properties"}` / `{"type":"relationship","id","label","start":{"id"},"end":{"id"},"properties"}`),
so that one SQL validation (`recon_assets/kg/sql/kg_elements.sql`) judges them all (Cypher: `cypher_export.py`). Only one batch of lines is held in
memory at a time: the real v1.2.0 `graph.json` is 1.56 GB and v2.0.0 has 5.8 M relationships.
Formats as written by APOC: https://neo4j.com/labs/apoc/current/export/ (json "JSON lines", graphml and cypher).
"""

from __future__ import annotations

import codecs
import json
import re
import os
import stat
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import BinaryIO

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from lxml import etree

from recon_assets.kg.cypher_export import cypher_rows
from recon_assets.shared.paths import is_pseudo_file

BATCH_LINES = 50_000
# Longest JSON line read whole. The largest real element (a Dataset with its abstract) is a few hundred KB;
# a line this long is damage (or a file without LF line ends) and is rejected without being held.
MAX_LINE_BYTES = 64 * 2**20
# JSON-lines files are read in blocks of this size: big enough that the per-block cost vanishes, small enough
# that a block and its table stay a small part of the memory budget.
READ_BLOCK_BYTES = 16 * 2**20
RAW_TEXT_LIMIT = 500
_SNIFF_BYTES = 4096
# libxml2 stops reporting errors after this many (XML_MAX_ERRORS in parserInternals.c) but keeps recovering.
_LIBXML2_MAX_ERRORS = 100
_RECOVERED = "recovered: the element there may be damaged or lost"
_NOT_READ = "rest of file not read"
# Errors after which libxml2 stops parsing (content after the root element closed; resource limits such as nesting
# deeper than 2048 or entity amplification, libxml2's xmlIsCatastrophicError): nothing later is read.
# By libxml2's error codes (xmlerror.h: XML_ERR_NO_MEMORY 2, XML_ERR_DOCUMENT_END 5, XML_ERR_RESOURCE_LIMIT 114), not
# lxml's names for them: lxml 5.x names 114 'unknown'.
_ERR_DOCUMENT_END = 5
_HALTING_INSIDE = {2, 114}
# The halting errors other than content after the root stop the parser inside the document, with elements still open.
# lxml 6.2 then ends those open elements itself (end events for elements cut short); lxml up to 6.1 does not.
_HALTING = _HALTING_INSIDE | {_ERR_DOCUMENT_END}
# APOC writes no DTD and so no entity reference: the parser expands none, so that none is ever loaded from a file
# or the network and no parser version's recovery from a missing one matters; an element holding one is rejected.
_UNEXPANDED = "entity reference &{name}; in <data key=\"{key}\"> not expanded (APOC writes none; entities are never read)"

# Byte-order marks of encodings neither reader decodes; UTF-32 before UTF-16, whose LE mark is a prefix of UTF-32's.
_FOREIGN_BOMS = [(codecs.BOM_UTF32_LE, "UTF-32"), (codecs.BOM_UTF32_BE, "UTF-32"), (codecs.BOM_UTF16_LE, "UTF-16"), (codecs.BOM_UTF16_BE, "UTF-16")]
# Magic numbers of compressed files (RFC 1952 gzip, bzip2, xz, zstd RFC 8878, zip local header).
_COMPRESSED = {
    b"\x1f\x8b": "gzip-compressed",
    b"BZh": "bzip2-compressed",
    b"\xfd7zXZ\x00": "xz-compressed",
    b"\x28\xb5\x2f\xfd": "zstd-compressed",
    b"PK\x03\x04": "a zip archive",
}

LINE_SCHEMA = pa.schema(
    [("position", pa.int64()), ("line_number", pa.int64()), ("raw", pa.string()), ("read_error", pa.string()), ("byte_offset", pa.int64())]
)
Row = tuple[int, int | None, str | None, str | None, int | None]


class KgExportError(ValueError):
    """The export file cannot be read at all (missing, empty, unreadable or of an unknown format), or nothing
    usable came out of it."""


class KgFormat(StrEnum):
    APOC_JSONL = "apoc_jsonl"
    APOC_GRAPHML = "apoc_graphml"
    APOC_CYPHER = "apoc_cypher"


# How an APOC Cypher export starts (cypher_export.py): a transaction, schema or data statement, or a :param.
_CYPHER_START = re.compile(rb"(?::begin|:param\s|BEGIN\s|CREATE\s|MERGE\s|UNWIND\s|MATCH\s|CALL\s+db\.)", re.I)


@dataclass
class ReadStats:
    """Filled in while a file is streamed.

    `elements_read` counts JSON lines, node, edge and hyperedge elements in GraphML, or element rows and unreadable
    statements in Cypher; `lines_read` counts every row handed on (elements plus one row per GraphML syntax error),
    so that lines_read = accepted + rejected. `incomplete_end` is set once the whole file is read, when it ends
    inside an element; `skipped_statements` counts a Cypher export's statements that carry no element, by kind.
    """

    lines_read: int = 0
    elements_read: int = 0
    # Set when the file ends inside an element (a cut last JSON line, GraphML without its root end tag, a Cypher
    # statement without its ';'): what a file still being copied looks like. Says what was found.
    incomplete_end: str | None = None
    skipped_statements: dict[str, int] = field(default_factory=dict)


def detect_format(path: Path) -> KgFormat:
    """Detect the export format from the file's first bytes (not its extension).

    Raises:
        KgExportError: the file is missing, not a regular file (a directory, FIFO or device would block or never
            end), unreadable, empty, UTF-16/UTF-32, compressed, a JSON-lines file with CR-only line ends, or neither
            JSON-lines, GraphML nor an APOC Cypher export; the message names the file and what to do.
    """
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise KgExportError(f"KG export {path} is not a regular file")
        if is_pseudo_file(path):
            raise KgExportError(f"KG export {path} is a kernel pseudo-file (/proc, /sys or /dev), not a KG export file")
        with path.open("rb") as handle:
            head = handle.read(_SNIFF_BYTES)
    except OSError as error:
        raise KgExportError(f"cannot read KG export {path}: {error.strerror or error}") from error
    for bom, encoding in _FOREIGN_BOMS:
        if head.startswith(bom):
            raise KgExportError(f"KG export {path} is {encoding}: {encoding} is not supported, convert to UTF-8")
    for magic, kind in _COMPRESSED.items():
        if head.startswith(magic):
            raise KgExportError(f"KG export {path} is {kind}: decompress first")
    if b"\x00" in head[:4]:
        raise KgExportError(f"KG export {path} has NUL bytes at its start: UTF-16 or UTF-32 without a byte-order mark is not supported, convert to UTF-8")
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if not text:
        raise KgExportError(f"KG export {path} is empty")
    if text.startswith(b"{"):
        # A bare CR with no LF in sight: the whole file would read as one line.
        if b"\n" not in head and b"\r" in head.rstrip(b"\r"):
            raise KgExportError(f"KG export {path} has no newline in its first {len(head)} bytes: CR-only line endings are not supported, convert them to LF")
        return KgFormat.APOC_JSONL
    if text.startswith(b"<") and b"graphml" in head.lower():
        return KgFormat.APOC_GRAPHML
    if _CYPHER_START.match(text):
        return KgFormat.APOC_CYPHER
    # The file's bytes are never echoed: given a file that is not a KG export (a key file, /proc/self/environ by
    # mistake), its content would land in the terminal, the event log and the run's failure.
    raise KgExportError(
        f"KG export {path} is neither APOC JSON-lines, GraphML nor a Cypher export (it opens with neither a JSON object, "
        "a GraphML document nor an APOC Cypher statement)"
    )


def read_export(
    path: Path, fmt: KgFormat, stats: ReadStats, batch_lines: int = BATCH_LINES, max_line_bytes: int = MAX_LINE_BYTES
) -> Iterator[pa.Table]:
    """Yield pyarrow tables (LINE_SCHEMA) of at most `batch_lines` rows of (position, line_number, raw APOC JSON
    line, read_error, byte_offset) for the whole file.

    `position` is the 1-based ordinal of the row in the file and unique; `line_number` is what a user looks for:
    the JSON line, the line a GraphML element (or syntax error) sits on, shared by every element of a minified
    line, or the line a Cypher statement starts on, shared by every row of an UNWIND list. `read_error` is set (and
    `raw` holds the text as far as it could be decoded) when a line is not valid UTF-8 or longer than
    `max_line_bytes`, an XML element could not be parsed or is not supported, or a Cypher statement or UNWIND row is
    not one APOC writes; JSON validity is judged later, in SQL. `byte_offset` is where a JSON line starts in the file
    (for `json_line_heads`); NULL in GraphML and Cypher, whose elements are transcoded.

    Raises:
        KgExportError: a GraphML file's root element is not <graphml>, or it holds no node, edge or hyperedge
            element at all (the message names the file and the first syntax error).
    """
    if fmt is KgFormat.APOC_JSONL:
        tables = _jsonl_tables(path, stats, max_line_bytes)
    elif fmt is KgFormat.APOC_CYPHER:
        tables = _row_tables(cypher_rows(path, stats, max_line_bytes, RAW_TEXT_LIMIT), batch_lines)
    else:
        tables = _row_tables(_graphml_rows(path, stats), batch_lines)
    for table in tables:
        for offset in range(0, table.num_rows, batch_lines):
            yield table.slice(offset, batch_lines)


def _row_tables(rows: Iterator[Row], batch_lines: int) -> Iterator[pa.Table]:
    batch: list[Row] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= batch_lines:
            yield _to_table(batch)
            batch = []
    if batch:
        yield _to_table(batch)


def _to_table(batch: Sequence[Row]) -> pa.Table:
    columns = zip(*batch)
    return pa.Table.from_arrays([pa.array(column, field.type) for column, field in zip(columns, LINE_SCHEMA)], schema=LINE_SCHEMA)


@dataclass(frozen=True)
class _OverLong:
    """The first max_line_bytes + 1 bytes of a line that has no newline within them (the rest is skipped unread),
    and the file offset of the line."""

    offset: int
    head: bytes


@dataclass(frozen=True)
class _Chunk:
    """Whole lines read from the file: `data` ends with a newline (one is added to a last line without), `newlines`
    are the positions of all its newlines, `offset` is the file offset of its first byte."""

    offset: int
    data: np.ndarray
    newlines: np.ndarray


def _jsonl_tables(path: Path, stats: ReadStats, max_line_bytes: int) -> Iterator[pa.Table]:
    """One table per chunk of whole lines: built over the chunk's bytes without a Python step (or copy) per line
    when the chunk is valid UTF-8 without an over-long line (nearly always), else line by line so that each bad
    line gets its own error."""
    number = 0
    table = None
    with path.open("rb", buffering=0) as handle:
        for chunk in _line_chunks(handle, max_line_bytes):
            if isinstance(chunk, _OverLong):
                table = _to_table([_line_row(number + 1, chunk.head, chunk.offset, max_line_bytes)])
            else:
                table = _clean_lines_table(chunk, number, max_line_bytes)
                if table is None:
                    starts = _line_starts(chunk.newlines)
                    lines = chunk.data.tobytes().split(b"\n")[:-1]
                    table = _to_table([
                        _line_row(number + index + 1, line, chunk.offset + int(starts[index]), max_line_bytes)
                        for index, line in enumerate(lines)
                    ])
            number += table.num_rows
            stats.lines_read = stats.elements_read = number
            yield table
        size = handle.tell()
    if table is not None and not _ends_with_newline(path, size) and not _is_complete_json(table):
        stats.incomplete_end = f"its last line ({number:,}) has no newline at the end and is not valid JSON"


def _ends_with_newline(path: Path, size: int) -> bool:
    with path.open("rb") as handle:
        handle.seek(max(size - 1, 0))
        return handle.read(1) == b"\n"


def _is_complete_json(table: pa.Table) -> bool:
    """Whether the last line of the file (the last row of its last table) is whole: valid UTF-8 within the length
    limit, and one JSON value. A cut line is neither (a prefix of a JSON object is never a JSON object)."""
    last = table.slice(table.num_rows - 1).to_pylist()[0]
    if last["read_error"] is not None:
        return False
    try:
        json.loads(last["raw"])
    except (ValueError, RecursionError):
        return False
    return True


def _line_chunks(handle: BinaryIO, max_line_bytes: int) -> Iterator[_Chunk | _OverLong]:
    """Split a JSON-lines file into chunks of whole lines. A line with no newline within max_line_bytes + 1 bytes
    comes as an _OverLong and is skipped, so memory stays bounded by READ_BLOCK_BYTES + max_line_bytes whatever
    the file holds.

    Each block is read into a new array (never reused): the tables made over it may still be in DuckDB's hands."""
    # detect_format accepts a leading byte-order mark, so the first element must not be rejected for it.
    offset = len(codecs.BOM_UTF8) if handle.read(len(codecs.BOM_UTF8)) == codecs.BOM_UTF8 else 0
    handle.seek(offset)
    carry = np.empty(0, np.uint8)  # the start of a line whose newline is not read yet
    skipping = False  # within an over-long line: everything up to the next newline is dropped
    while True:
        block = np.empty(len(carry) + READ_BLOCK_BYTES + 1, np.uint8)  # + 1: room for a missing last newline
        block[: len(carry)] = carry
        size = handle.readinto(memoryview(block)[len(carry) : len(carry) + READ_BLOCK_BYTES])
        at_end = size < READ_BLOCK_BYTES  # a short read is the end of a regular file
        data = block[: len(carry) + size]
        if at_end and len(data) and data[-1] != ord("\n"):
            block[len(data)] = ord("\n")  # the last line joins the last chunk
            data = block[: len(data) + 1]
        newlines = len(carry) + np.flatnonzero(data[len(carry) :] == ord("\n"))
        if skipping:
            if not len(newlines):
                offset += len(data)
                if at_end:
                    return
                continue
            skipped = newlines[0] + 1
            data, newlines, offset, skipping = data[skipped:], newlines[1:] - skipped, offset + skipped, False
        if len(newlines):
            end = newlines[-1] + 1
            yield _Chunk(offset, data[:end], newlines)
            data, offset = data[end:], offset + end
        if len(data) > max_line_bytes:
            yield _OverLong(offset, data[: max_line_bytes + 1].tobytes())
            data, offset, skipping = data[:0], offset + len(data), True
        if at_end:
            return
        carry = data


def _line_starts(newlines: np.ndarray) -> np.ndarray:
    return np.concatenate(([0], newlines[:-1] + 1)).astype(np.int64)


def _clean_lines_table(chunk: _Chunk, before: int, max_line_bytes: int) -> pa.Table | None:
    """The lines of `chunk` as a table whose text is the chunk's own bytes (no copy) with the line ends trimmed;
    None when one of them is not valid UTF-8 or is longer than max_line_bytes."""
    starts = _line_starts(chunk.newlines)
    if int((chunk.newlines - starts).max()) > max_line_bytes:
        return None
    # Each line with its newline: Arrow string values are contiguous, so the newline of one cannot be left out.
    ends = np.concatenate(([0], chunk.newlines + 1)).astype(np.int32)
    lines = pa.StringArray.from_buffers(len(starts), pa.py_buffer(ends), pa.py_buffer(chunk.data))
    try:
        lines.validate(full=True)  # UTF-8
    except pa.ArrowInvalid:
        return None
    raw = pc.utf8_rtrim(lines, characters="\r\n")  # the newline, and the CR before it in CRLF files
    numbers = pa.array(np.arange(before + 1, before + len(starts) + 1, dtype=np.int64))
    return pa.Table.from_arrays(
        [numbers, numbers, raw, pa.nulls(len(raw), pa.string()), pa.array(chunk.offset + starts)], schema=LINE_SCHEMA
    )


def _line_row(number: int, line: bytes, offset: int, max_line_bytes: int) -> Row:
    return number, number, *_line_text(line, max_line_bytes), offset


def _line_text(line: bytes, max_line_bytes: int) -> tuple[str, str | None]:
    """(raw, read_error) of one JSON line given without its newline."""
    if len(line) > max_line_bytes:
        head = line[: max_line_bytes + 1]
        return _start_of(head), _too_long(head, max_line_bytes)
    line = line.rstrip(b"\r")
    try:
        return line.decode("utf-8"), None
    except UnicodeDecodeError as error:
        return line.decode("utf-8", "backslashreplace"), f"invalid UTF-8 at byte {error.start}"


def json_line_heads(path: Path, offsets: Iterable[int], max_line_bytes: int = MAX_LINE_BYTES) -> list[str]:
    """The first RAW_TEXT_LIMIT characters of `raw` as read_export gives it for each JSON line starting at these
    byte offsets (its `byte_offset`s; ascending reads the file forward), read again from the file: the text of the
    few rejected lines, so that the text of every line need not be kept while they are judged."""
    heads = []
    with path.open("rb") as handle:
        for offset in offsets:
            handle.seek(offset)
            line = handle.readline(max_line_bytes + 1).removesuffix(b"\n")
            heads.append(_line_text(line, max_line_bytes)[0][:RAW_TEXT_LIMIT])
    return heads


def _start_of(line: bytes) -> str:
    # 4 bytes per character at most in UTF-8; a character cut at the end becomes U+FFFD.
    return line[: 4 * RAW_TEXT_LIMIT].decode("utf-8", "replace")[:RAW_TEXT_LIMIT]


def _too_long(line: bytes, max_line_bytes: int) -> str:
    limit = f"{max_line_bytes // 2**20} MiB" if max_line_bytes % 2**20 == 0 else f"{max_line_bytes} bytes"
    if b"\r" in line:
        return f"no newline in the first {limit}: CR-only line endings are not supported"
    return f"line longer than {limit}"


_ELEMENT_TAG = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?(?:node|edge|hyperedge)[\s/>]")


def graphml_element_tags(path: Path, block_bytes: int = 16 * 1024 * 1024) -> int:
    """Count the node, edge and hyperedge start tags in a GraphML file by a plain byte scan, so that elements a
    damaged file lost to the XML parser are noticed (APOC writes no comments or CDATA that could hold such text)."""
    count, tail = 0, b""
    with path.open("rb") as handle:
        while block := handle.read(block_bytes):
            text = tail + block
            # The last few bytes may hold a tag cut in two: they are scanned again with the next block.
            cut = max(0, len(text) - 16)
            count += sum(1 for match in _ELEMENT_TAG.finditer(text) if match.start() < cut)
            tail = text[cut:]
    return count + len(_ELEMENT_TAG.findall(tail))


def _graphml_rows(path: Path, stats: ReadStats) -> Iterator[Row]:
    """Transcode APOC GraphML elements to APOC JSON lines.

    APOC writes `<data key="labels">` without declaring that key, which makes `networkx.read_graphml`
    refuse the file; here an undeclared key simply keeps its id as the property name. Labels come from
    the node attribute `labels=":Dataset:Other"`, the relationship type from the edge attribute `label`.
    Elements are matched by local name in any namespace or none; a `<key>`'s `<default>` fills elements
    without that data (GraphML Primer, section 2.4: http://graphml.graphdrawing.org/primer/graphml-primer.html).

    libxml2's recovering parser reads on past damage; each of its errors becomes one row with the error as
    `read_error`. Entities (APOC writes none): the parser expands none in element text (`resolve_entities=False`),
    so no entity is ever loaded and how a parser version recovers from a missing one does not matter (lxml 6.2,
    expanding internal ones, stops at a declared external one); an element whose data holds a reference is a
    rejected row, the reference kept as `&name;` in its text. libxml2 expands internal references in attribute
    values whatever the option and drops external ones with an error row (the same in every lxml).

    After an error that stops the parser inside the document (`_HALTING_INSIDE`), an element may arrive whose end
    tag was never read: lxml 6.2 ends the elements open at that point itself, with their content cut. So each
    element is handed on only once the parser is known to have read past it (a later element or a following
    sibling began): the element open where the parser stopped is not handed on, with every lxml. It is counted
    with the rest of the file, not read.
    """
    keys: dict[str, tuple[str, str]] = {}  # key id -> (attr.name, attr.type)
    defaults: dict[str, dict[str, object]] = {"node": {}, "edge": {}}
    context = etree.iterparse(
        str(path), events=("end",), tag=("{*}key", "{*}node", "{*}edge", "{*}hyperedge"),
        recover=True, resolve_entities=False, load_dtd=False, no_network=True, huge_tree=True, remove_comments=True,
    )
    reported = 0
    halted = False  # an error that stops the parser inside the document has been reported
    held: tuple[etree._Element, int | None, str, str | None] | None = None  # the last element read, not yet handed on
    for number, (_, element) in enumerate(context):
        if number == 0 and (root := etree.QName(element.getroottree().getroot()).localname) != "graphml":
            raise KgExportError(f"KG export {path} is XML but not GraphML: its root element is <{root}>, not <graphml>")
        # libxml2 reports errors while it parses ahead, so they are handed on before the element at hand.
        errors = context.error_log.filter_from_errors()
        halted = halted or any(error.type in _HALTING_INSIDE for error in errors[reported:])
        if held is not None:
            # An element ending now that does not hold the held one began after the held one's end tag was read.
            if not halted or held[0].getnext() is not None or element not in held[0].iterancestors():
                yield _element_row(held, stats)
            held = None
        yield from _error_rows(errors[reported:], stats)
        reported = len(errors)
        tag = element.tag.rpartition("}")[2]  # the local name (the tag filter above lets only elements through)
        if tag == "key":
            _declare(element, keys, defaults)
        elif tag == "hyperedge":
            raw = etree.tostring(element, encoding="unicode", with_tail=False)[:RAW_TEXT_LIMIT]
            held = element, element.sourceline, raw, "hyperedge is not supported"
        else:
            element_json, unexpanded = _graphml_element(tag, element, keys, defaults[tag])
            held = element, element.sourceline, _JSON_TEXT.encode(element_json), unexpanded
        element.clear(keep_tail=False)
        while element.getprevious() is not None:
            del element.getparent()[0]
    errors = context.error_log.filter_from_errors()
    halted = halted or any(error.type in _HALTING_INSIDE for error in errors[reported:])
    # The last element is whole unless the parser stopped while it was open (then nothing follows it in the tree).
    if held is not None and (not halted or held[0].getnext() is not None):
        yield _element_row(held, stats)
    if any(error.type_name == "ERR_TAG_NOT_FINISHED" for error in errors) and not _ends_with_root_end_tag(path):
        stats.incomplete_end = "it ends before its GraphML root element is closed (no </graphml> at the end)"
    yield from _error_rows(errors[reported:], stats)
    if len(errors) >= _LIBXML2_MAX_ERRORS:
        stats.lines_read += 1
        message = f"more GraphML syntax errors after these {_LIBXML2_MAX_ERRORS} were not reported; elements after them may be damaged or lost"
        yield stats.lines_read, None, None, message, None
    if stats.elements_read == 0:
        hint = f" (first GraphML error, line {errors[0].line}: {errors[0].message.strip()})" if errors else ""
        raise KgExportError(f"no node or edge element could be read from KG export {path}{hint}")


def _element_row(held: tuple[etree._Element, int | None, str, str | None], stats: ReadStats) -> Row:
    _, line, raw, read_error = held
    stats.lines_read += 1
    stats.elements_read += 1
    return stats.lines_read, line, raw, read_error, None


_ROOT_END_TAG = re.compile(rb"</(?:[A-Za-z_][\w.-]*:)?graphml\s*>\s*\Z")


def _ends_with_root_end_tag(path: Path, tail_bytes: int = 4096) -> bool:
    """Whether the file's last non-blank text is the </graphml> end tag (APOC writes nothing after it)."""
    with path.open("rb") as handle:
        handle.seek(max(handle.seek(0, os.SEEK_END) - tail_bytes, 0))
        return _ROOT_END_TAG.search(handle.read()) is not None


def _error_rows(errors: list[etree._LogEntry], stats: ReadStats) -> Iterator[Row]:
    for error in errors:
        stats.lines_read += 1
        outcome = _NOT_READ if error.type in _HALTING else _RECOVERED
        message = f"GraphML syntax error at line {error.line}, column {error.column}: {error.message.strip()}; {outcome}"
        yield stats.lines_read, error.line, None, message, None


def _declare(key: etree._Element, keys: dict[str, tuple[str, str]], defaults: dict[str, dict[str, object]]) -> None:
    name, attr_type = key.get("attr.name") or key.get("id"), key.get("attr.type") or "string"
    keys[key.get("id")] = (name, attr_type)
    default = next(key.iterchildren("{*}default"), None)
    for tag, tag_defaults in defaults.items():
        if default is not None and key.get("for", "all") in (tag, "all"):  # GraphML: a key without `for` is for all
            tag_defaults[name] = _typed("".join(default.itertext()), attr_type)


# json.dumps(..., ensure_ascii=False) builds an encoder on every call: one is kept for every element.
_JSON_TEXT = json.JSONEncoder(ensure_ascii=False)


def _graphml_element(
    tag: str, element: etree._Element, keys: dict[str, tuple[str, str]], defaults: dict[str, object]
) -> tuple[dict, str | None]:
    """(APOC JSON element, read_error): the error names the first entity reference in a value (the value keeps it
    as `&name;`), else None."""
    properties = dict(defaults)
    unexpanded = None
    for data in element.iterchildren("{*}data"):
        name, attr_type = keys.get(data.get("key"), (data.get("key"), "string"))
        if not len(data):
            text = data.text or ""  # nearly every value: no markup, read without the iterator
        elif next(data.iter(etree.Entity), None) is None:
            # itertext: a value with markup in it (`Aer<i>o</i>sol`) keeps all its text, not the part before the first child.
            text = "".join(data.itertext())
        else:
            text, reference = _text_with_references(data)
            if unexpanded is None:
                unexpanded = _UNEXPANDED.format(name=reference, key=data.get("key"))
        properties[name] = _typed(text, attr_type)
    if tag == "node":
        label_text = element.get("labels") or properties.get("labels") or ""
        properties.pop("labels", None)
        labels = [label for label in str(label_text).split(":") if label]
        return {"type": "node", "id": element.get("id"), "labels": labels, "properties": properties}, unexpanded
    rel_type = element.get("label") or properties.get("label")
    properties.pop("label", None)
    return {
        "type": "relationship",
        "id": element.get("id"),
        "label": rel_type,
        "start": {"id": element.get("source")},
        "end": {"id": element.get("target")},
        "properties": properties,
    }, unexpanded


def _text_with_references(data: etree._Element) -> tuple[str, str]:
    """The text of a value holding entity references (the parser expands none), each kept as `&name;`:
    (text, name of the first reference)."""
    parts, names = [data.text or ""], []
    # Depth first without recursion: a value may hold markup nested some thousand levels deep.
    stack = [(data, iter(data))]
    while stack:
        parent, children = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            if stack:
                parts.append(parent.tail or "")
        elif isinstance(child.tag, str):
            parts.append(child.text or "")
            stack.append((child, iter(child)))
        else:
            if child.tag is etree.Entity:
                names.append(child.name)
                parts.append(child.text)
            parts.append(child.tail or "")  # comments and processing instructions give only their tail
    return "".join(parts), names[0]


def _typed(text: str, attr_type: str) -> object:
    """GraphML `attr.type` to a JSON value (a text that is not one of its type is kept as text); APOC writes list
    properties as JSON array text."""
    try:
        if attr_type in ("int", "long"):
            return int(text)
        if attr_type in ("float", "double"):
            return float(text)
        if attr_type == "boolean":  # xs:boolean: true, false, 1 or 0 (case is forgiven)
            return {"true": True, "1": True, "false": False, "0": False}[text.strip().lower()]
    except (ValueError, KeyError):
        return text
    if text.startswith("[") and text.endswith("]"):
        try:
            return json.loads(text)
        except (ValueError, RecursionError):
            return text
    return text
