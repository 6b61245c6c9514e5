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


def citation_tag(authors: list[str], year: int | None, fallback: str) -> str:
    """'[Wei et al., 2023]' - first author's family name (text before the comma in 'Family, Given', else the
    last word), 'et al.' when there are several authors, 'n.d.' for an unknown year; `fallback` (e.g. the DOI)
    stands in when there is no author."""
    year_text = str(year) if year is not None else "n.d."
    if not authors:
        return f"[{fallback}, {year_text}]"
    first = authors[0]
    family = first.split(",")[0].strip() if "," in first else first.split()[-1]
    return f"[{family}{' et al.' if len(authors) > 1 else ''}, {year_text}]"
