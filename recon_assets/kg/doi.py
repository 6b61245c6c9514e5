"""Canonical DOI keys.

DOIs are case-insensitive (DOI Handbook, section 2.4: "DOI names are case insensitive"), arrive with
resolver prefixes (`https://doi.org/`, `http://dx.doi.org/`, `doi:`) and sometimes percent-encoded or
with sentence punctuation glued on. The canonical key is what every join in this project uses; the raw
value is always kept beside it.
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import unquote

from recon_assets.shared.doi_pattern import CANONICAL_DOI_PATTERN

# Resolver and scheme prefixes seen in the KG and in OpenAlex (`https://doi.org/...`).
_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|(?:dx\.)?doi\.org/|info:doi/|doi:\s*)", re.IGNORECASE)
# What a canonical key is (ASCII-digit prefix, no whitespace, control or upper case): `shared.doi_pattern`.
CANONICAL_DOI = re.compile(CANONICAL_DOI_PATTERN)


def canonical_doi(raw: object) -> str | None:
    """Return the canonical DOI key for `raw`, or None when it is not a DOI.

    Steps, in order: drop invisible format characters (Unicode category Cf: zero-width space, byte-order mark,
    soft hyphen, ... - pasted in from web pages, never part of a DOI); strip whitespace; drop one resolver prefix
    (`https://doi.org/`, `http://dx.doi.org/`, `doi:`, `info:doi/`); percent-decode exactly once (so `%2F`
    becomes `/` but `%252F` becomes `%2F`) and drop format characters that decoding revealed; lower-case; strip
    trailing `.` and `,` and any `)` that has no matching `(`; what is left must match `CANONICAL_DOI`
    (`shared.doi_pattern`), so a control character (category Cc: NUL, DEL, ...) anywhere or a prefix in digits of
    another script makes the value not a DOI.

    Args:
        raw: the property value as found in the KG (str, or anything else, which is not a DOI).

    Returns:
        The canonical key (matches `CANONICAL_DOI`), or None for missing, 'N/A' or malformed values.
    """
    if not isinstance(raw, str):
        return None
    value = _PREFIX.sub("", _without_format_characters(raw).strip(), count=1)
    value = _strip_trailing_punctuation(_without_format_characters(unquote(value)).strip().lower())
    return value if CANONICAL_DOI.fullmatch(value) else None


def doi_issue(raw: object) -> str | None:
    """Say why `raw` has no canonical DOI (None when it has one): 'missing' (None, blank, 'N/A' in any case) or 'not a DOI'."""
    if raw is None or (isinstance(raw, str) and raw.strip().upper() in ("", "N/A")):
        return "missing"
    return None if canonical_doi(raw) else "not a DOI"


def _without_format_characters(value: str) -> str:
    # Every format character (U+00AD soft hyphen and up) lies outside ASCII, where nearly every DOI stays.
    if value.isascii():
        return value
    return "".join(character for character in value if unicodedata.category(character) != "Cf")


def _strip_trailing_punctuation(value: str) -> str:
    while value:
        if value[-1] in ".,":
            value = value[:-1]
        elif value[-1] == ")" and value.count(")") > value.count("("):
            value = value[:-1]
        else:
            break
    return value
