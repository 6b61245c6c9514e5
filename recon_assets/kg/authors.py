"""Author lists as the KG stores them: a list, a string, or a string holding a Python list literal."""

from __future__ import annotations

import ast

MISSING = ("", "N/A")


def author_names(raw: object) -> list[str]:
    """Author names in order.

    Examples: ['Wei, Haohan', 'Yu, Tongning'] -> both; "['Wei, Haohan', 'Yu, Tongning']" (the real KG's
    stringified list) -> both; 'Haohan Wei; Tongning Yu' -> both; '' / None / 'N/A' -> []; list items that
    are not names (None, '', 'N/A', nested lists) are left out: lists are read one level deep only.
    A bracketed text that is not a list literal ('[Smith]') is one name, unless it opens a nested list ('[[...')
    or is too deep for `ast.literal_eval` (RecursionError, MemoryError): that holds no usable name.

    A comma-joined string is split on ', ' only when every part holds a space, i.e. display names
    ('Ahmed Gowida, Salaheldin Elkatatny', as OpenAlex `display_name`s joined); a single 'Family, Given'
    ('Wei, Haohan') stays one name. 'Family Name, Given Name' with spaces on both sides is split wrongly:
    the string alone cannot tell the two apart.
    """
    if isinstance(raw, list):
        return _names(raw)
    if not isinstance(raw, str) or raw.strip() in MISSING:
        return []
    text = raw.strip()
    if text.startswith("[") and text.endswith("]"):
        try:
            parsed = ast.literal_eval(text)
        except (RecursionError, MemoryError):  # nested too deep to read
            return []
        except (ValueError, TypeError, SyntaxError):
            # Python's parser refuses lists nested 200 deep with a SyntaxError: '[[' still says "nested list, no names".
            parsed = [] if text.startswith("[[") else None
        if isinstance(parsed, list):
            return _names(parsed)
    if ";" in text:
        return _names(text.split(";"))
    parts = text.split(",")
    return _names(parts) if len(parts) > 1 and all(" " in part.strip() for part in parts) else [text]


def _names(items: list) -> list[str]:
    return [name.strip() for name in items if isinstance(name, str) and name.strip() not in MISSING]


# Significant words of a title a citation tag keeps ('["Global Precipitation Measurement Mission…", 2019]').
TITLE_WORDS = 4
# Words that do not count towards TITLE_WORDS (they are kept between significant ones).
_MINOR_WORDS = frozenset({
    "a", "an", "the", "of", "on", "in", "at", "to", "for", "from", "by", "with", "and", "or", "as", "via", "into", "over",
    "its", "their", "de", "et", "al", "al.", "using",
})
_OPEN, _CLOSE = "([", ")]"


def short_title(title: str | None, words: int = TITLE_WORDS) -> str | None:
    """The opening of `title` up to and including its `words`-th significant word (`_MINOR_WORDS` do not count),
    '…' marking a cut; None for a title without a letter or digit.

    White space is collapsed; double quotes become single ones and square brackets round ones (a tag is bracketed and
    its title double-quoted), '...' is '…'; a quotation or parenthesis the cut leaves open is closed:
    'Comment on “The global tree restoration potential”' -> "Comment on 'The global tree restoration…'".

    Raises:
        ValueError: `words` < 1.
    """
    if words < 1:
        raise ValueError(f"a short title keeps at least 1 word, got {words}")
    if not isinstance(title, str):
        return None
    text = title.replace("...", "…")
    for old, new in (("“", "'"), ("”", "'"), ("„", "'"), ('"', "'"), ("‘", "'"), ("’", "'"), ("[", "("), ("]", ")")):
        text = text.replace(old, new)
    parts = text.split()
    kept, significant = [], 0
    for part in parts:
        kept.append(part)
        core = part.strip("'()…,;:.!?-–—").lower()
        if any(char.isalnum() for char in core) and core not in _MINOR_WORDS:
            significant += 1
            if significant == words:
                break
    if not significant:
        return None
    if len(kept) == len(parts):
        return " ".join(kept)
    kept[-1] = kept[-1].rstrip(",;:.-–—")
    shown = " ".join(kept)
    opened = sum(part.startswith("'") for part in kept) - sum(part.endswith("'") for part in kept)
    parens = shown.count("(") - shown.count(")")
    return f"{shown}…" + "'" * max(0, opened) + ")" * max(0, parens)


def citation_tag(authors: list[str], year: int | None, fallback: str, title: str | None = None,
                 words: int = TITLE_WORDS, suffix: str = "") -> str:
    """'[Wei et al., 2023]' - first author's family name (text before the comma in 'Family, Given', else the
    last word), 'et al.' when there are several authors, 'n.d.' for an unknown year.

    A paper without an author is cited by its title's opening (`short_title` with `words` significant words),
    double-quoted: '["Global Precipitation Measurement Mission…", 2019]'; `fallback` (e.g. the DOI) stands in when
    it has no title either: '[10.3390/rs11192314, 2019]'. `suffix` (a letter, 'a') tells apart papers whose tags
    would be equal: '2019a', 'n.d.-a' (`briefs.retrieval.citation_tags`).
    """
    year_text = (str(year) if year is not None else "n.d.") + (("-" if year is None else "") + suffix if suffix else "")
    if not authors:
        shown = short_title(title, words)
        return f'["{shown}", {year_text}]' if shown else f"[{fallback}, {year_text}]"
    first = authors[0]
    family = first.split(",")[0].strip() if "," in first else first.split()[-1]
    return f"[{family}{' et al.' if len(authors) > 1 else ''}, {year_text}]"
