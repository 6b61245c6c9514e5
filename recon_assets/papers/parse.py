"""Read a paper's PDF into text by section and paragraph (with page numbers), its reference list (with DOIs) and
its figure and table captions, through pypdf.

Why pypdf: BSD-3-Clause licence (the project is open source; PyMuPDF is AGPL-3.0, whose copyleft would bind the
whole project or need Artifex's commercial licence), pure Python with no binary or network need, already used by the
project's tests, and it both detects and writes encrypted PDFs (the bad-input tests make theirs with it).

A PDF that cannot be analysed raises `UnreadablePaper` with one line saying why: empty file, not a PDF, truncated,
encrypted, over the page limit, or without a text layer (image-only).
"""

from __future__ import annotations

import io
import re
import statistics
from dataclasses import dataclass

from pypdf import PdfReader
from pypdf.errors import PyPdfError

from recon_assets.kg.doi import canonical_doi

# The bound on a paper's length ("a configurable page limit"); a 20-page paper is typical, a thesis ~200.
DEFAULT_PAGE_LIMIT = 200
# ISO 32000-1 7.5.2: the header `%PDF-` opens the file (readers accept it within the first 1024 bytes);
# 7.5.5: the file ends with `%%EOF` (a few bytes of trailing whitespace or padding are common, so the last 2048).
_HEADER_WINDOW, _TRAILER_WINDOW = 1024, 2048
# A page with a text layer yields hundreds of characters; a scanned page yields none or a few stray glyphs.
MIN_CHARACTERS_PER_PAGE = 20

_NAMED_HEADINGS = (
    "abstract", "introduction", "background", "data", "data and methods", "materials and methods", "methods",
    "methodology", "study area", "results", "discussion", "results and discussion", "conclusion", "conclusions",
    "summary", "acknowledgements", "acknowledgments", "acknowledgement", "acknowledgment", "references",
    "bibliography", "literature cited", "data availability", "data availability statement", "code and data availability",
    "code availability", "author contributions", "funding", "conflicts of interest", "competing interests",
    "appendix", "supplementary materials", "abbreviations",
)
REFERENCE_HEADINGS = frozenset({"references", "bibliography", "literature cited"})
# "2.1. Study Area", "3 Results", "4.2.1 Precipitation data": a number of at most three levels, then a title that
# starts with a capital letter and is mostly letters (table rows such as "2 0.85 1.3" fail that).
_NUMBERED_HEADING = re.compile(r"^(\d{1,2}(?:\.\d{1,2}){0,2})\.?\s+([A-Z][A-Za-z][^\n]{1,88})$")
_CAPTION = re.compile(r"^(Figure|Fig\.|Table)\s*(S?\d{1,2}[a-z]?)\s*[.:|]\s*(.+)", re.IGNORECASE)
_NUMBERED_REFERENCE = re.compile(r"^\s*(?:\[(\d{1,3})\]|(\d{1,3})\.)\s+\S")
# "Huffman, G. J.", "van Dijk, A.", "Los, S. O." opening an author-year entry.
_AUTHOR_OPENING = re.compile(r"^(?:[a-z]{1,3}\s)?[A-Z][A-Za-z'’\-]+(?:\s[A-Z][A-Za-z'’\-]+)?,\s+[A-Z]\.")
DOI_PATTERN = re.compile(r"10\.\d{4,9}/[^\s\"<>]+")
_SENTENCE_END = (".", "?", "!", ":")


class UnreadablePaper(ValueError):
    """The PDF cannot be analysed; str() is one line saying why (what the partition's failure shows)."""


@dataclass(frozen=True)
class Section:
    """A heading of the paper: its title as printed ("2.1. Study Area") and the 1-based page it is on."""

    title: str
    page: int


@dataclass(frozen=True)
class Paragraph:
    """A paragraph of body text: the section heading it falls under ('' before the first), its 1-based page
    (where it starts) and its text (lines joined, hyphenation at line ends undone)."""

    section: str
    page: int
    text: str


@dataclass(frozen=True)
class Reference:
    """One entry of the reference list: its number (1-based, in list order), text, canonical DOI (None when the
    entry prints none) and the 1-based page it starts on."""

    number: int
    text: str
    doi: str | None
    page: int


@dataclass(frozen=True)
class Caption:
    """A figure or table caption: kind 'figure' or 'table', label as printed ('3', 'S1', '2a'), text, 1-based page."""

    kind: str
    label: str
    text: str
    page: int


@dataclass(frozen=True)
class PaperDocument:
    """What `parse_pdf` read: page count, headings, body paragraphs, references and captions, in reading order."""

    pages: int
    sections: tuple[Section, ...]
    paragraphs: tuple[Paragraph, ...]
    references: tuple[Reference, ...]
    captions: tuple[Caption, ...]


def parse_pdf(data: bytes, page_limit: int = DEFAULT_PAGE_LIMIT) -> PaperDocument:
    """Parse a paper's PDF bytes into sections, paragraphs, references and captions.

    Args:
        data: the file's bytes.
        page_limit: the most pages a paper may have (a thesis-sized bound by default); a longer PDF is refused
            before any page's text is read, so its cost stays that of opening the file.

    Returns:
        a PaperDocument. Headings are numbered ones ("2.1. Study Area") and the usual named ones (Abstract,
        References, Data Availability Statement, ...); the reference list is what follows the last References
        heading, split at "[n]" / "n." numbers or, for author-year lists, at "Surname, I." openings.

    Raises:
        UnreadablePaper: empty file; no `%PDF-` header (not a PDF); no `%%EOF` trailer (truncated) or a structure
        pypdf cannot read; encrypted with a password (one that opens with the empty password is read); more pages
        than `page_limit`; fewer than MIN_CHARACTERS_PER_PAGE characters of text a page on average (image-only or
        scanned: no OCR is done).
    """
    reader = _open(data)
    count = len(reader.pages)
    if count > page_limit:
        raise UnreadablePaper(f"{count} pages, over the page limit of {page_limit}")
    try:
        page_texts = [page.extract_text() or "" for page in reader.pages]
    except (PyPdfError, ValueError, KeyError, TypeError) as error:
        raise UnreadablePaper(f"unreadable page content: {type(error).__name__}: {error}") from error
    characters = sum(len(text.strip()) for text in page_texts)
    if characters < MIN_CHARACTERS_PER_PAGE * max(count, 1):
        raise UnreadablePaper(
            f"no text layer: {characters} characters over {count} pages (image-only or scanned; OCR is not done)"
        )
    return _structure(page_texts)


def check_pdf_header(data: bytes) -> None:
    """Refuse bytes that are no PDF at all, before anything opens them (what `parse_pdf` checks first; `recon paper`
    checks it before launching a run).

    Args:
        data: the file's bytes (only the first 1024 are read).

    Raises:
        UnreadablePaper: empty file; no `%PDF-` header within the first 1024 bytes (ISO 32000-1 7.5.2).
    """
    if not data:
        raise UnreadablePaper("empty file (0 bytes)")
    if b"%PDF-" not in data[:_HEADER_WINDOW]:
        raise UnreadablePaper(f"not a PDF: no %PDF- header in the first {_HEADER_WINDOW} bytes")


def _open(data: bytes) -> PdfReader:
    check_pdf_header(data)
    if b"%%EOF" not in data[-_TRAILER_WINDOW:]:
        raise UnreadablePaper(f"truncated PDF: no %%EOF marker in the last {_TRAILER_WINDOW} bytes ({len(data)} bytes read)")
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise UnreadablePaper("encrypted PDF: it needs a password to open")
        _ = len(reader.pages)
    except PyPdfError as error:
        raise UnreadablePaper(f"unreadable PDF structure: {type(error).__name__}: {error}") from error
    return reader


def _is_heading(line: str) -> str | None:
    """The heading's title if `line` is one, else None (numbered headings are checked for order by the caller)."""
    bare = re.sub(r"^(?:\d{1,2}(?:\.\d{1,2}){0,2}\.?|[IVX]{1,4}\.)\s+", "", line).strip().rstrip(".:").lower()
    if bare in _NAMED_HEADINGS and len(line) < 60:
        return line
    numbered = _NUMBERED_HEADING.match(line)
    if numbered and not numbered.group(2).rstrip().endswith((".", ",", ";")):
        title = numbered.group(2)
        letters = sum(c.isalpha() for c in title)
        # Table rows and code listings ("4 CARD32 ALIAS_LIST_OFFSET") carry identifiers no heading has.
        identifier = "_" in title or re.search(r"\b(?=\w*\d)(?=\w*[A-Z]{2})\w+\b", title)
        if letters >= 0.7 * len(title.replace(" ", "")) and not identifier:
            return line
    return None


def _follows(number: tuple[int, ...], last: tuple[int, ...]) -> bool:
    """Whether a numbered heading can follow the last one: later in order, and its chapter at most one further
    (a table row numbered "4 ..." after "2.9" is no heading); the first chapter is 1 or 2 (0 for some)."""
    if not last:
        return number[0] <= 2
    return number > last and number[0] <= last[0] + 1


def _heading_number(line: str) -> tuple[int, ...] | None:
    numbered = _NUMBERED_HEADING.match(line)
    return tuple(int(part) for part in numbered.group(1).split(".")) if numbered else None


def _structure(page_texts: list[str]) -> PaperDocument:
    lines = [(page, line.strip()) for page, text in enumerate(page_texts, start=1) for line in text.splitlines() if line.strip()]
    typical = statistics.median(len(line) for _, line in lines) if lines else 0
    sections: list[Section] = []
    blocks: list[tuple[str, int, list[str]]] = []  # (section, page, lines) of body text and captions
    reference_lines: list[tuple[int, str]] = []
    current, last_number, in_references = "", (), False
    for page, line in lines:
        heading = _is_heading(line)
        number = _heading_number(line) if heading else None
        if heading and (number is None or _follows(number, last_number)):
            last_number = number or last_number
            sections.append(Section(heading, page))
            current = heading
            in_references = _bare(heading) in REFERENCE_HEADINGS
            if in_references:
                reference_lines = []
            blocks.append((current, page, []))
            continue
        if in_references:
            reference_lines.append((page, line))
            continue
        starts_caption = bool(_CAPTION.match(line))
        if not blocks or starts_caption or _paragraph_ended(blocks[-1][2], typical):
            blocks.append((current, page, []))
        blocks[-1][2].append(line)
    paragraphs, captions = [], []
    for section, page, block in blocks:
        if not block:
            continue
        text = _join(block)
        caption = _CAPTION.match(text)
        if caption:
            kind = "table" if caption.group(1).lower() == "table" else "figure"
            captions.append(Caption(kind, caption.group(2), caption.group(3).strip(), page))
        else:
            paragraphs.append(Paragraph(section, page, text))
    return PaperDocument(len(page_texts), tuple(sections), tuple(paragraphs), tuple(_references(reference_lines)), tuple(captions))


def _bare(heading: str) -> str:
    return re.sub(r"^[\dIVX.]+\s+", "", heading).strip().rstrip(".:").lower()


def _paragraph_ended(block: list[str], typical: float) -> bool:
    # A paragraph's last line ends a sentence and stops short of the column's width.
    return bool(block) and block[-1].endswith(_SENTENCE_END) and len(block[-1]) < 0.75 * typical


def _join(lines: list[str]) -> str:
    text = ""
    for line in lines:
        if text.endswith("-") and line[:1].islower():
            text = text[:-1] + line
        else:
            text = f"{text} {line}" if text else line
    return text


def _references(lines: list[tuple[int, str]]) -> list[Reference]:
    numbered = sum(bool(_NUMBERED_REFERENCE.match(line)) for _, line in lines)
    entries: list[tuple[int, list[str]]] = []
    for page, line in lines:
        if numbered >= 3:
            opens = bool(_NUMBERED_REFERENCE.match(line))
        else:
            opens = bool(_AUTHOR_OPENING.match(line)) and (not entries or entries[-1][1][-1].rstrip().endswith((".", ")")) or DOI_PATTERN.search(entries[-1][1][-1]) is not None)
        if opens or not entries:
            entries.append((page, []))
        entries[-1][1].append(line)
    references = []
    for number, (page, entry) in enumerate(entries, start=1):
        # A DOI broken over two lines ("10.1175/" + "JHM560.1") is joined before it is looked for.
        raw = "\n".join(entry)
        glued = re.sub(r"(?<=[/._-])\n(?=\S)", "", raw)
        found = DOI_PATTERN.search(glued)
        references.append(Reference(number, _join(entry), canonical_doi(found.group(0)) if found else None, page))
    return references
