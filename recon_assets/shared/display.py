"""Text from the KG or OpenAlex is data wherever it is shown: it can never change the display.

A title, an abstract or an error text comes from a file or a server we do not control. Shown raw in a terminal, an
ANSI/OSC escape sequence can recolour, move the cursor, rewrite earlier lines or set the window title or clipboard
(ECMA-48 control functions; xterm OSC 52); a bare CR or a newline can forge a line of output; Unicode bidirectional
controls can show text in another order than it reads (CVE-2021-42574, "Trojan Source"). In a Markdown preview,
`*`, `_`, `[...](...)`, `|`, `<...>` or a leading `#` would turn a title into markup, a link or a broken table.

- `terminal_text` is used for every KG- or OpenAlex-derived value printed by `recon run` and `recon explain`
  (`TerminalSafeStream` applies it to everything `recon run` prints, Dagster's own console log included);
- `markdown_text` for every cell of a Markdown preview in asset metadata (`markdown_table`).

No Dagster import: `recon explain` uses it.
"""

from __future__ import annotations

import re
import textwrap
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:  # a type only: a refusal of the CLI prints through this module without importing pandas
    import pandas as pd

# ECMA-48 escape sequences: CSI (ESC [ ... final byte), OSC/DCS/SOS/PM/APC strings (ESC ] ... BEL or ESC \), and
# two-character ESC sequences; the 8-bit C1 forms (U+009B CSI, U+009D OSC, ...) the same.
_ESCAPE_SEQUENCES = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]"
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[ -/]*[0-~]"
)
# C0 and C1 control characters, DEL, and the Unicode bidirectional controls (U+061C, U+200E/F, U+202A-E, U+2066-9).
_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_CONTROLS_KEEPING_LINES = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
# CommonMark's ASCII punctuation that can start or end markup (backslash-escapable, CommonMark 0.31 section 2.4).
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~=:&\"'$^])")


def terminal_text(value: object, *, keep_newlines: bool = False) -> str:
    """`value` as text safe to print on a terminal: escape sequences removed, every other control character
    (CR, BEL, backspace, tab, newline, C1, bidirectional overrides) replaced by a space.

    Args:
        keep_newlines: keep '\\n' (and '\\t'): for a whole block of output whose line breaks are ours.
    """
    text = _ESCAPE_SEQUENCES.sub("", str(value))
    return (_CONTROLS_KEEPING_LINES if keep_newlines else _CONTROLS).sub(" ", text)


def markdown_text(value: object) -> str:
    """`value` as Markdown that renders as exactly its text: `terminal_text` (one line), then every character that
    can open or close markup backslash-escaped (CommonMark backslash escapes), so a title shows as typed and a `|`
    cannot split a table cell."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", terminal_text(value))


def markdown_table(frame: pd.DataFrame) -> str:
    """A Markdown table of `frame` whose text cells and column names are `markdown_text`; numbers, dates and
    missing values as pandas shows them."""
    shown = frame.apply(lambda column: column.map(lambda cell: markdown_text(cell) if isinstance(cell, str) else cell))
    shown.columns = [markdown_text(name) for name in frame.columns]
    return shown.to_markdown(index=False)


class TerminalSafeStream:
    """A text stream that writes everything through `terminal_text(..., keep_newlines=True)`: wraps sys.stdout and
    sys.stderr while `recon run` runs, so no record text reaching Dagster's console log can drive the terminal."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(terminal_text(text, keep_newlines=True))
        return len(text)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def first_line(text: str) -> str:
    """The first line of `text` that is not blank, stripped ('' when none)."""
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


def escaped_text(value: object) -> str:
    """`value` as text with each character that does not print (controls, line breaks, bidirectional overrides)
    written as Python writes it in a string ('\\n', '\\x1b', '\\u202e'): for a path, where `terminal_text`'s space
    would name another file that could exist (hostile pass 27: 'new\\nline.duckdb' read 'new line.duckdb')."""
    return "".join(character if character.isprintable() else repr(character)[1:-1] for character in str(value))


# The most of a user's input (a DOI, a path) an error line echoes: enough to recognise it.
ECHOED_CHARACTERS = 100


def clipped(text: str, limit: int = ECHOED_CHARACTERS) -> str:
    """`text` as an error line echoes it: whole when at most `limit` characters, else its first `limit` and
    '... (N characters)' (hostile pass, 2026-12-04: a 3,000-character DOI was echoed whole)."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


# Plain console lines (a pipe, a log file, CI) are wrapped at this width: issue 23 counted 27 lines of 200-410
# characters in a run's output.
PLAIN_WIDTH = 120


def wrapped(line: str, width: int = PLAIN_WIDTH) -> str:
    """`line` broken at spaces into lines of at most `width` characters, each after the first indented by 4 spaces
    (`textwrap.fill`); a word longer than `width` (a path, a URL) stays whole, and so may exceed it."""
    return textwrap.fill(line, width, subsequent_indent="    ", break_long_words=False, break_on_hyphens=False)


def hidden_characters(text: str) -> list[str]:
    """The control characters of `text` (C0 and C1, DEL, the Unicode bidirectional controls: `_CONTROLS`, tab and line
    breaks included), each once as 'U+001B', in order of first appearance: what a title or a question given as data
    must not hold, since a file (HTML, Markdown) shows them raw."""
    return list(dict.fromkeys(f"U+{ord(found.group(0)):04X}" for found in _CONTROLS.finditer(text)))
