"""Author lists as the KG stores them: a list, a string, or a string holding a Python list literal."""

from __future__ import annotations

import ast


def author_names(raw: object) -> list[str]:
    """Author names in order.

    Examples: ['Wei, Haohan', 'Yu, Tongning'] -> both; "['Wei, Haohan', 'Yu, Tongning']" (the real KG's
    stringified list) -> both; 'Haohan Wei; Tongning Yu' -> both; '' / None / 'N/A' -> [].
    """
    if isinstance(raw, list):
        return [str(name).strip() for name in raw if str(name).strip()]
    if not isinstance(raw, str) or raw.strip() in ("", "N/A"):
        return []
    text = raw.strip()
    if text.startswith("[") and text.endswith("]"):
        try:
            parsed = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            parsed = None
        if isinstance(parsed, list):
            return author_names(parsed)
    return [name.strip() for name in text.split(";") if name.strip()]


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
