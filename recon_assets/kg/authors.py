"""Author lists as the KG stores them: a list, a string, or a string holding a Python list literal."""

from __future__ import annotations

import ast

MISSING = ("", "N/A")


def author_names(raw: object) -> list[str]:
    """Author names in order.

    Examples: ['Wei, Haohan', 'Yu, Tongning'] -> both; "['Wei, Haohan', 'Yu, Tongning']" (the real KG's
    stringified list) -> both; 'Haohan Wei; Tongning Yu' -> both; '' / None / 'N/A' -> []; list items that
    are not names (None, '', 'N/A') are left out.

    A comma-joined string is split on ', ' only when every part holds a space, i.e. display names
    ('Ahmed Gowida, Salaheldin Elkatatny', as OpenAlex `display_name`s joined); a single 'Family, Given'
    ('Wei, Haohan') stays one name. 'Family Name, Given Name' with spaces on both sides is split wrongly:
    the string alone cannot tell the two apart.
    """
    if isinstance(raw, list):
        return [name.strip() for name in raw if isinstance(name, str) and name.strip() not in MISSING]
    if not isinstance(raw, str) or raw.strip() in MISSING:
        return []
    text = raw.strip()
    if text.startswith("[") and text.endswith("]"):
        try:
            parsed = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            parsed = None
        if isinstance(parsed, list):
            return author_names(parsed)
    if ";" in text:
        return author_names(text.split(";"))
    parts = text.split(",")
    return author_names(parts) if len(parts) > 1 and all(" " in part.strip() for part in parts) else [text]


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
