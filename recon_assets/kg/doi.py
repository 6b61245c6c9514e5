"""Canonical DOI keys.

DOIs are case-insensitive (DOI Handbook, section 2.4: "DOI names are case insensitive"), arrive with
resolver prefixes (`https://doi.org/`, `http://dx.doi.org/`, `doi:`) and sometimes percent-encoded or
with sentence punctuation glued on. The canonical key is what every join in this project uses; the raw
value is always kept beside it.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

# Resolver and scheme prefixes seen in the KG and in OpenAlex (`https://doi.org/...`).
_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|(?:dx\.)?doi\.org/|info:doi/|doi:\s*)", re.IGNORECASE)
# Crossref's recommended pattern for modern DOIs, widened to any non-space suffix so that old SICI
# DOIs such as 10.1175/1520-0442(2001)014<0203:abcd>2.0.co;2 stay whole.
CANONICAL_DOI = re.compile(r"^10\.\d{4,9}(?:\.\d+)*/\S+$")


def canonical_doi(raw: object) -> str | None:
    """Return the canonical DOI key for `raw`, or None when it is not a DOI.

    Steps, in order: strip whitespace; drop one resolver prefix (`https://doi.org/`, `http://dx.doi.org/`,
    `doi:`, `info:doi/`); percent-decode exactly once (so `%2F` becomes `/` but `%252F` becomes `%2F`);
    lower-case; strip trailing `.` and `,` and any `)` that has no matching `(`.

    Args:
        raw: the property value as found in the KG (str, or anything else, which is not a DOI).

    Returns:
        The canonical key (matches `CANONICAL_DOI`), or None for missing, 'N/A' or malformed values.
    """
    if not isinstance(raw, str):
        return None
    value = _PREFIX.sub("", raw.strip(), count=1)
    value = unquote(value).strip().lower()
    value = _strip_trailing_punctuation(value)
    # fullmatch: `$` alone would also accept a key ending in a percent-decoded newline ('...%0A.').
    return value if CANONICAL_DOI.fullmatch(value) else None


def doi_issue(raw: object) -> str | None:
    """Say why `raw` has no canonical DOI (None when it has one): 'missing' or 'not a DOI'."""
    if raw is None or (isinstance(raw, str) and raw.strip() in ("", "N/A")):
        return "missing"
    return None if canonical_doi(raw) else "not a DOI"


def _strip_trailing_punctuation(value: str) -> str:
    while value:
        if value[-1] in ".,":
            value = value[:-1]
        elif value[-1] == ")" and value.count(")") > value.count("("):
            value = value[:-1]
        else:
            break
    return value
