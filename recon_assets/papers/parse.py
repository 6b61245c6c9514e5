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
    "abstract", "plain language summary", "introduction", "background", "data", "data and methods", "materials and methods", "methods",
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
# A chemical formula as headings print it: element symbols with counts, at most 6 characters (HNO3, CH4, ClONO2).
_FORMULA = re.compile(r"(?=\w{2,6}$)(?:[A-Z][a-z]?\d{0,2})+")
_CAPTION_LABEL = re.compile(r"^(?:Figure|Fig\.|Table)\s*S?\d{1,2}[a-z]?\b", re.IGNORECASE)
_NUMBERED_REFERENCE = re.compile(r"^\s*(?:\[(\d{1,3})\]|(\d{1,3})\.)\s+\S")
# "Huffman, G. J.", "van Dijk, A.", "Los, S. O.", "O’Gorman, P. A." opening an author-year entry; also with the word
# spaces a text layer drops ("Akaike,H.(1974)") and AGU's hyphen U+2010 ("Abolafia‐Rosenzweig, R.").
_AUTHOR_OPENING = re.compile(r"^(?:[a-z]{1,3}\s)?[A-Z][^\W\d_]*(?:['’‐‑\-][^\W\d_]+)*(?:\s[A-Z][^\W\d_]+)?,\s*[A-Z]\.")
# An entry whose author is a body, its year in brackets after it: "WMO. (2009).", "AIRS Project. (2019)." (APA, AGU);
# a word of two letters or more first, so an initial that a column break left at a line's start ("M. (2015).") is none.
_GROUP_AUTHOR_OPENING = re.compile(r"^[A-Z][^\W\d_]+[^()\d]{0,60}?\s*\((?:1[89]|20)\d{2}[a-z]?\)\.")
_YEAR = re.compile(r"\b(?:1[89]|20)\d{2}[a-z]?\b")
DOI_PATTERN = re.compile(r"10\.\d{4,9}/[^\s\"<>]+")
_SENTENCE_END = (".", "?", "!", ":")
# Headings publishers set run-in, the text following on the same line: "Abstract. We use" (Copernicus), "Abstract:"
# (MDPI), "Abstract The ..." and "Plain Language Summary How ..." (AGU, bold): each is split into its heading and text
# on the first RUN_IN_PAGES pages, where a paper's abstract is (a reference list's "Abstract H21A-01." is no heading).
RUN_IN_PAGES = 2
_RUN_IN_HEADING = re.compile(r"^(Abstract|Plain Language Summary)(?:\s*[.:]\s*|\s+)(?=[A-Z0-9(\"“‘'])(\S.*)$")

# Running heads and feet (journal name, running title, "Terms and Conditions" download notes, "© Author(s)", page
# numbers): a line among the first or last EDGE_LINES lines of a page (pypdf puts a page's head or foot there, not
# always first or last) that repeats, digits aside, on RUNNING_MIN_PAGES pages or more and on RUNNING_PAGE_SHARE of
# them (Copernicus alternates two heads on even and odd pages, so each is on half); every line of that form is dropped
# wherever it is on a page. A bare page number ("7", "3 of 12", "Page 4") among those lines is dropped too. A form that
# makes more than RUNNING_LINE_SHARE of the lines of the pages it heads or foots is body text (table rows alike but for
# their numbers), not a head: the 26 real papers keep their parse unchanged with it.
EDGE_LINES = 5
RUNNING_MIN_PAGES = 3
RUNNING_PAGE_SHARE = 0.25
RUNNING_LINE_SHARE = 0.5
_PAGE_NUMBER = re.compile(r"^(?:page\s*)?\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?$", re.IGNORECASE)
# Characters a page's text layer may hold that a reader never sees and a report must not show (what
# `shared.display.hidden_characters` calls hidden, and more). Unicode general categories (Unicode 15.1, UAX #44):
# Cc controls (C0, DEL, C1; tab becomes a space, CR a line break) and Co private use (a symbol font's glyphs without a
# Unicode mapping, "\uf071" for θ) become a space, since each stands where a glyph was; Cf format characters
# (zero-width space and joiners, word joiner, BOM, the bidirectional controls U+061C, U+200E-F, U+202A-E, U+2066-9)
# are removed; a soft hyphen (U+00AD) ending a line becomes "-", so the line join undoes the hyphenation.
# (a run of spaces is entered at its first space only, so a line of many spaces costs linear time, not quadratic)
_SPACED_OUT = re.compile(
    "(?<![ ])[ ]*(?:[\x00-\x08\x0b-\x1f\x7f-\x9f\ue000-\uf8ff\U000f0000-\U0010ffff][ ]*)+"
)
_REMOVED = re.compile(
    "[\u00ad\u0600-\u0605\u061c\u06dd\u070f\u08e2\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f"
    "\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0001\U000e0020-\U000e007f]"
)


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
        a PaperDocument. Each page's text loses its invisible characters first (`visible_text`) and its running heads,
        feet and page numbers (`running_lines`). Headings are numbered ones ("2.1. Study Area") and the usual named
        ones (Abstract, Plain Language Summary, References, Data Availability Statement, ...), a run-in "Abstract." or
        "Plain Language Summary" split from its text; the reference list is what follows the last References heading
        (a named heading pypdf reads inside it, such as AGU's Acknowledgments in the margin, is an aside the list
        resumes after), split at "[n]" / "n." numbers or, for author-year lists, at "Surname, I." (or "Body. (year).")
        openings. A caption runs from its "Figure N." / "Table N." label to its last sentence (`_caption_ended`).

    Raises:
        UnreadablePaper: empty file; no `%PDF-` header (not a PDF); no `%%EOF` trailer (truncated) or a structure
        pypdf cannot read; encrypted with a password (one that opens with the empty password is read); more pages
        than `page_limit`; fewer than MIN_CHARACTERS_PER_PAGE characters of text a page on average (image-only or
        scanned: no OCR is done); no line left once the running heads, feet and page numbers are dropped (a template
        or cover pages only).
    """
    reader = _open(data)
    count = len(reader.pages)
    if count > page_limit:
        raise UnreadablePaper(f"{count} pages, over the page limit of {page_limit}")
    try:
        page_texts = [visible_text(page.extract_text() or "") for page in reader.pages]
    except (PyPdfError, ValueError, KeyError, TypeError) as error:
        raise UnreadablePaper(f"unreadable page content: {type(error).__name__}: {error}") from error
    characters = sum(len(text.strip()) for text in page_texts)
    if characters < MIN_CHARACTERS_PER_PAGE * max(count, 1):
        raise UnreadablePaper(
            f"no text layer: {characters} characters over {count} pages (image-only or scanned; OCR is not done)"
        )
    document = _structure(page_texts)
    if not (document.sections or document.paragraphs or document.references or document.captions):
        raise UnreadablePaper(f"no body text: every line of its {count} pages is a running head, foot or page number")
    return document


def visible_text(text: str) -> str:
    """A page's text without the characters a reader never sees (`_SPACED_OUT`, `_REMOVED`: controls, private-use
    glyphs, zero-width and bidirectional format characters), so none reaches a paragraph, a report cell or the PDF
    report. Line breaks are kept (CR and CRLF become LF); a control or private-use run becomes one space, a format
    character nothing, a soft hyphen at a line's end "-".

    Args:
        text: one page's extracted text.
    Returns:
        the text, each kept line's visible characters unchanged.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")
    text = re.sub("\u00ad(?=\n|$)", "-", text)
    return _SPACED_OUT.sub(" ", _REMOVED.sub("", text))


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
    # a heading starts with a capital or its number ("data." ending a sentence on a line of its own is none)
    if bare in _NAMED_HEADINGS and len(line) < 60 and not line[:1].islower():
        return line
    numbered = _NUMBERED_HEADING.match(line)
    if numbered and not numbered.group(2).rstrip().endswith((".", ",", ";")):
        title = numbered.group(2)
        letters = sum(c.isalpha() for c in title)
        # Table rows and code listings ("4 CARD32 ALIAS_LIST_OFFSET", "3 MOD13Q1 250m") carry identifiers no heading
        # has; a chemical formula ("4.3 Verification of HNO3", "3.1 Methane (CH4)") is a heading's word.
        identifier = "_" in title or any(
            not _FORMULA.fullmatch(word) for word in re.findall(r"\b(?=\w*\d)(?=\w*[A-Z]{2})\w+\b", title)
        )
        if letters >= 0.7 * len(title.replace(" ", "")) and not identifier:
            return line
    return None


def _follows(number: tuple[int, ...], last: tuple[int, ...]) -> bool:
    """Whether a numbered heading can follow the last one: later in order, and its chapter at most one further
    (a table row numbered "4 ..." after "2.9" is no heading); the first chapter is 1 or 2 (0 for some)."""
    if not last:
        return number[0] <= 2
    return number > last and number[0] <= last[0] + 1


def _numbered_as_before(line: str, sections: list[Section]) -> bool:
    """Whether a numbered heading writes its number as the paper's numbered headings so far do: with a full stop after
    it ("2.1. Study Area", MDPI and AGU) or without ("2.1 Ozone data", Copernicus). kim2020's table rows "3 Evergreen
    broadleaf forest" ... "6 Closed shrublands" after "2.3. Description of SMART" are no headings."""
    before = [_NUMBERED_HEADING.match(section.title) for section in sections]
    dotted = [found.group(0)[len(found.group(1))] == "." for found in before if found]
    return not dotted or (line[len(_NUMBERED_HEADING.match(line).group(1))] == ".") == dotted[-1]


def _heading_number(line: str) -> tuple[int, ...] | None:
    numbered = _NUMBERED_HEADING.match(line)
    return tuple(int(part) for part in numbered.group(1).split(".")) if numbered else None


def running_lines(pages: list[list[str]]) -> set[str]:
    """The running heads and feet of a paper (`EDGE_LINES`, `RUNNING_MIN_PAGES`, `RUNNING_PAGE_SHARE`), each as its
    `_running_key`.

    Args:
        pages: each page's non-empty lines, stripped, in pypdf's order.
    Returns:
        the keys of the lines to drop; empty for a paper under RUNNING_MIN_PAGES pages. A caption's opening line
        ("Figure 3." set on its own line at several pages' tops) is never one, nor a line whose form makes more than
        RUNNING_LINE_SHARE of the lines of the pages it heads or foots (a table's rows that differ only in their
        numbers filling pages; all of a paper's text was dropped when each of its lines read alike digits aside).
    """
    seen: dict[str, int] = {}
    under: dict[str, int] = {}  # lines of the pages each form heads or foots
    written: dict[str, int] = {}
    for lines in pages:
        for key in {_running_key(line) for line in lines[:EDGE_LINES] + lines[-EDGE_LINES:] if not _CAPTION_LABEL.match(line)}:
            seen[key] = seen.get(key, 0) + 1
            under[key] = under.get(key, 0) + len(lines)
        for line in lines:
            key = _running_key(line)
            written[key] = written.get(key, 0) + 1
    least = max(RUNNING_MIN_PAGES, RUNNING_PAGE_SHARE * len(pages))
    return {key for key, count in seen.items()
            if count >= least and written[key] <= RUNNING_LINE_SHARE * under[key] and any(c.isalpha() for c in key)}


def _running_key(line: str) -> str:
    # digits aside (page numbers, volume and page ranges), spaces collapsed, case folded
    return " ".join(re.sub(r"\d+", "", line).split()).casefold()


def _body_lines(page_texts: list[str]) -> list[tuple[int, str]]:
    """(page, line) of the text without running heads, feet and page numbers, run-in headings on lines of their own."""
    pages = [[line.strip() for line in text.splitlines() if line.strip()] for text in page_texts]
    running = running_lines(pages)
    lines = []
    for page, page_lines in enumerate(pages, start=1):
        edges = set(range(EDGE_LINES)) | set(range(len(page_lines) - EDGE_LINES, len(page_lines)))
        for index, line in enumerate(page_lines):
            if _running_key(line) in running or (index in edges and _PAGE_NUMBER.match(line)):
                continue
            run_in = _RUN_IN_HEADING.match(line) if page <= RUN_IN_PAGES else None
            if run_in:
                lines += [(page, run_in.group(1)), (page, run_in.group(2))]
            else:
                lines.append((page, line))
    return lines


def _structure(page_texts: list[str]) -> PaperDocument:
    lines = _body_lines(page_texts)
    typical = statistics.median(len(line) for _, line in lines) if lines else 0
    sections: list[Section] = []
    blocks: list[tuple[str, int, list[str]]] = []  # (section, page, lines) of body text and captions
    reference_lines: list[tuple[int, str]] = []
    current, last_number, in_references, aside = "", (), False, False
    listed: list[int] = []  # the numbers of a numbered reference list's entries so far (read when an aside starts)
    for page, line in lines:
        heading = _is_heading(line)
        number = _heading_number(line) if heading else None
        if heading and (number is None or _follows(number, last_number) and _numbered_as_before(line, sections)):
            last_number = number or last_number
            sections.append(Section(heading, page))
            current = heading
            # A named heading after the References heading (AGU sets Acknowledgments in the margin beside the list,
            # pypdf reads it between two entries) is an aside: the list resumes at the next line that opens an entry.
            aside = (in_references or aside) and number is None and _bare(heading) not in REFERENCE_HEADINGS
            if aside:  # the list is read once here, not again for each line of the aside (quadratic in a long appendix)
                listed = [int(found.group(1) or found.group(2)) for _, text in reference_lines if (found := _NUMBERED_REFERENCE.match(text))]
            in_references = _bare(heading) in REFERENCE_HEADINGS
            if in_references:
                reference_lines = []
            blocks.append((current, page, []))
            continue
        if aside and _resumes_references(line, listed):
            in_references, aside = True, False
        if in_references:
            reference_lines.append((page, line))
            continue
        starts_caption = bool(_CAPTION.match(line))
        if not blocks or starts_caption or _paragraph_ended(blocks[-1][2], typical) or _caption_ended(blocks[-1][2], line):
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


def _caption_ended(block: list[str], line: str) -> bool:
    """Whether a caption's block ends before `line`: its last line ends a sentence and is short of the caption's width
    (the body text that follows is no part of it; zou2018's data paragraph followed its Figure 1 caption), or `line` is
    under half that width (a table's rows or a figure's labels follow its caption)."""
    if not block or not _CAPTION.match(block[0]) or not block[-1].endswith(_SENTENCE_END):
        return False
    widest = max(len(text) for text in block)
    return len(block[-1]) < 0.85 * widest or len(line) < 0.5 * widest


def _join(lines: list[str]) -> str:
    text = ""
    for line in lines:
        if text.endswith("-") and line[:1].islower():
            text = text[:-1] + line
        else:
            text = f"{text} {line}" if text else line
    return text


def _resumes_references(line: str, numbered: list[int]) -> bool:
    """Whether `line`, after an aside heading (`_structure`), opens the reference list's next entry: the next number
    of a numbered list (`numbered`, the list's entry numbers so far), or an author-year opening with its year on the
    line."""
    if len(numbered) >= 3:
        found = _NUMBERED_REFERENCE.match(line)
        return bool(found) and int(found.group(1) or found.group(2)) == numbered[-1] + 1
    return bool(_AUTHOR_OPENING.match(line) and _YEAR.search(line) or _GROUP_AUTHOR_OPENING.match(line))


def _entry_complete(last_line: str, printed: bool) -> bool:
    """An author-year entry can end here: its last line ends with "." or ")", or it has printed its DOI or address
    (`printed`, `_prints_address` of any of its lines; these close APA and AGU entries; a DOI broken over lines ends in
    neither)."""
    return last_line.rstrip().endswith((".", ")")) or printed


def _prints_address(line: str) -> bool:
    """Whether a reference line prints a DOI or web address (none of these spans two lines joined by a space, so each
    line is read once: an entry of thousands of lines costs linear time)."""
    return DOI_PATTERN.search(line) is not None or "doi.org/" in line or "http" in line


def _references(lines: list[tuple[int, str]]) -> list[Reference]:
    numbered = sum(bool(_NUMBERED_REFERENCE.match(line)) for _, line in lines)
    entries: list[tuple[int, list[str]]] = []
    printed = False  # the current entry has printed its DOI or address
    for page, line in lines:
        if numbered >= 3:
            opens = bool(_NUMBERED_REFERENCE.match(line))
        else:
            opens = bool(_AUTHOR_OPENING.match(line) or _GROUP_AUTHOR_OPENING.match(line)) and (not entries or _entry_complete(entries[-1][1][-1], printed))
        if opens or not entries:
            entries.append((page, []))
            printed = False
        entries[-1][1].append(line)
        printed = printed or _prints_address(line)
    references = []
    for number, (page, entry) in enumerate(entries, start=1):
        # A DOI broken over two lines ("10.1175/" + "JHM560.1") is joined before it is looked for.
        raw = "\n".join(entry)
        glued = re.sub(r"(?<=[/._-])\n(?=\S)", "", raw)
        found = DOI_PATTERN.search(glued)
        references.append(Reference(number, _join(entry), canonical_doi(found.group(0)) if found else None, page))
    return references
