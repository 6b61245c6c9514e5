"""Publication years as they really occur in the KG: strings, dates, bracketed or doubtful years.

One rule for every export format: a one-element list holding a year is that year. APOC writes a list property
as JSON array text in GraphML (`<data key="year">[1988]</data>`, which the GraphML reader decodes to the list
[1988]) and as a JSON array in JSON-lines and Cypher, while the KG's own bracketed year is the string "[1988]"
(a year in square brackets: inferred, the bibliographic convention). GraphML cannot tell the two apart, so
both must mean 1988 everywhere (issue 14).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

# The oldest plausible publication year in this corpus; earlier values are data errors, not history.
MIN_YEAR = 1800
# [0-9], not \d: \d (and int()) also take fullwidth and Arabic-Indic digits, which no bibliographic year is written in.
_BARE = re.compile(r"\[?([0-9]{4})\]?\??")  # "2019", "[1988]", "1988?"
_DATE = re.compile(r"([0-9]{4})-([0-9]{2})(?:-([0-9]{2}))?(?:[T ].*)?")  # "2019-05", "2019-05-01", ISO timestamps


@dataclass(frozen=True)
class ParsedYear:
    """A year or None, and when None (or when the value was coerced) the reason."""

    year: int | None
    issue: str | None


def parse_year(raw: object, *, latest_year: int) -> ParsedYear:
    """Parse a KG `year` property into an int, never inventing one.

    Args:
        raw: the property value decoded from JSON (the KG stores a string; ints, floats, None, lists and
            objects also occur).
        latest_year: the last acceptable year: the year after the snapshot's ingest (in-press papers carry next year).

    Returns:
        ParsedYear(year, issue): a one-element list ([1988], ["1988"], ["[1988]"]) is parsed as its element, by the
        same rules; `year` is None and `issue` names the problem for missing, empty, zero, non-numeric ("XIII",
        "2019a", "２０１９"), impossible dates ("2019-13-45"), empty or longer lists, lists of lists, objects,
        before MIN_YEAR or after `latest_year` values.
    """
    if isinstance(raw, list):
        if len(raw) != 1:
            return ParsedYear(None, f"not a year: list of {len(raw)}")
        if isinstance(raw[0], (list, dict)) or raw[0] is None:
            return ParsedYear(None, "not a year: list")
        raw = raw[0]  # APOC's one-element list property: see the module docstring
    if raw is None:
        return ParsedYear(None, "missing")
    if isinstance(raw, bool):
        return ParsedYear(None, f"not a year: {raw!r}")
    if isinstance(raw, dict):
        return ParsedYear(None, "not a year: object")
    if isinstance(raw, float):
        if not raw.is_integer():
            return ParsedYear(None, f"not a year: {raw!r}")
        raw = int(raw)
    if isinstance(raw, int):
        return _check_range(raw, latest_year)
    text = str(raw).strip()
    if not text:
        return ParsedYear(None, "empty")
    if bare := _BARE.fullmatch(text):
        return _check_range(int(bare.group(1)), latest_year)
    if (dated := _DATE.fullmatch(text)) and _is_date(*dated.groups()):
        return _check_range(int(dated.group(1)), latest_year)
    return ParsedYear(None, f"not a year: {text[:40]!r}")


def _is_date(year: str, month: str, day: str | None) -> bool:
    """A real calendar date ('2019-02-30' is not); year 0000 passes here and is judged by _check_range."""
    try:
        date(max(int(year), 1), int(month), int(day or 1))
    except ValueError:
        return False
    return True


def _check_range(year: int, latest_year: int) -> ParsedYear:
    if year == 0:
        return ParsedYear(None, "zero")
    if year < MIN_YEAR:
        return ParsedYear(None, f"before {MIN_YEAR}: {year}")
    if year > latest_year:
        return ParsedYear(None, f"after {latest_year}, the year after the snapshot was ingested: {year}")
    return ParsedYear(year, None)
