"""A PDF paper's title: its Title metadata when that reads as a title, else the largest-type run of words on its first
page; and the name a report gives a paper without one (its file name, never its path).

Metadata first: publishers usually set it (4 of the 5 real papers in `recon_assets_tests/fixtures/papers/real`), but
tools also leave a file name ("Microsoft Word - draft3.docx"), "untitled" or an article id there, so a value is only
taken when it reads as a title (TITLE_MIN_WORDS words or more, mostly letters, no file extension). The first-page
fallback reads pypdf's text fragments with their rendered size (font size times the text and current matrices'
vertical scale): the title is the run of consecutive fragments of the largest size that reads as a title (a journal
logo "remote sensing" is too short; glyph-name debris "/gid00030/..." is not words), and only when that size is
above the page's typical (character-weighted median) size, so body text is never taken for a title.
"""

from __future__ import annotations

import io
import re
import statistics
from pathlib import PurePath

from pypdf import PdfReader
from pypdf.errors import PyPdfError

from recon_assets.shared.display import hidden_characters

# A title has at least this many words ("Linking Total Precipitable Water to Precipitation Extremes Globally": 8).
TITLE_MIN_WORDS = 3
TITLE_MAX_CHARACTERS = 300
# Share of a title's non-space characters that are letters (digits, dashes, colons and brackets are the rest).
_MIN_LETTER_SHARE = 0.7
_FILE_LIKE = re.compile(r"\.(?:pdf|docx?|tex|dvi|rtf|odt|indd|ps)\b|^microsoft word\b|^untitled\b", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]{2,}")


def reads_as_title(text: str | None) -> bool:
    """The text can be a paper's title: TITLE_MIN_WORDS words of 2+ letters or more, at most TITLE_MAX_CHARACTERS
    characters, mostly letters, no control character (`display.hidden_characters`, white space apart), and not a file
    name, 'untitled' or glyph names ('/gid00030')."""
    if not text:
        return False
    text = " ".join(text.split())
    if hidden_characters(text):  # hostile pass: an ANSI or bidi-override title reached the report's <h1> raw
        return False
    solid = text.replace(" ", "")
    if not solid or len(text) > TITLE_MAX_CHARACTERS or _FILE_LIKE.search(text) or "/gid" in text:
        return False
    letters = sum(c.isalpha() for c in solid)
    return len(_WORD.findall(text)) >= TITLE_MIN_WORDS and letters >= _MIN_LETTER_SHARE * len(solid)


def pdf_title(data: bytes) -> str | None:
    """The paper's title from its PDF bytes (module docstring), whitespace collapsed; None when neither the metadata
    nor the first page gives one. Never raises: a PDF pypdf cannot read for this gives None (parsing it is
    `parse.parse_pdf`'s job, which says why in one line)."""
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            return None
        metadata = reader.metadata
        title = str(metadata.title) if metadata is not None and metadata.title else None
        if reads_as_title(title):
            return " ".join(title.split())
        return first_page_title(reader) if len(reader.pages) else None
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, OSError):
        return None


def first_page_title(reader: PdfReader) -> str | None:
    """The largest-type run of words on the first page that reads as a title, when that type is larger than the
    page's typical size; else None."""
    fragments: list[tuple[float, str]] = []

    def visit(text, cm, tm, font_dict, font_size):  # pypdf's visitor_text signature
        scale = abs(tm[2] * cm[1] + tm[3] * cm[3]) or 1.0  # vertical scale of the text matrix times the current matrix
        fragments.append((round(float(font_size or 0) * scale * 2) / 2, text or ""))

    reader.pages[0].extract_text(visitor_text=visit)
    sized = [(size, text) for size, text in fragments if text.strip()]
    if not sized:
        return None
    typical = statistics.median(size for size, text in sized for _ in range(len(text.strip())))
    runs: list[tuple[float, str]] = []
    for size, text in fragments:
        if runs and runs[-1][0] == size:
            runs[-1] = (size, runs[-1][1] + text)
        elif text.strip():
            runs.append((size, text))
    titles = [(size, " ".join(text.split())) for size, text in runs if size > typical and reads_as_title(text)]
    return max(titles, key=lambda item: item[0])[1] if titles else None


def display_name(title: str | None, source: str) -> str:
    """What a report calls a paper: its title, else the file name of its source (a path's last part; a DOI source
    such as 'OpenAlex (doi:10.1/x)' as it is)."""
    if title and title.strip():
        return " ".join(title.split())
    return PurePath(source).name if "/" in source and not source.startswith("OpenAlex") and not source.startswith("10.") else source
