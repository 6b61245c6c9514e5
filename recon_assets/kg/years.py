"""Publication years as they really occur in the KG: strings, dates, bracketed or doubtful years."""

from __future__ import annotations

import re
from dataclasses import dataclass

# The oldest plausible publication year in this corpus; earlier values are data errors, not history.
MIN_YEAR = 1800
_BARE = re.compile(r"^\[?(\d{4})\]?\??$")  # "2019", "[1988]", "1988?"
_DATE = re.compile(r"^(\d{4})-\d{2}(?:-\d{2})?(?:[T ].*)?$")  # "2019-05", "2019-05-01", ISO timestamps


@dataclass(frozen=True)
class ParsedYear:
    """A year or None, and when None (or when the value was coerced) the reason."""

    year: int | None
    issue: str | None


def parse_year(raw: object, *, latest_year: int) -> ParsedYear:
    """Parse a KG `year` property into an int, never inventing one.

    Args:
        raw: the property value (the KG stores a string; ints, floats and None also occur).
        latest_year: the last acceptable year, normally `as_of.year + 1` (in-press papers carry next year).

    Returns:
        ParsedYear(year, issue): `year` is None and `issue` names the problem for missing, empty, zero,
        non-numeric ("XIII", "2019a"), before MIN_YEAR or after `latest_year` values.
    """
    if raw is None:
        return ParsedYear(None, "missing")
    if isinstance(raw, bool):
        return ParsedYear(None, f"not a year: {raw!r}")
    if isinstance(raw, float):
        if not raw.is_integer():
            return ParsedYear(None, f"not a year: {raw!r}")
        raw = int(raw)
    if isinstance(raw, int):
        return _check_range(raw, latest_year)
    text = str(raw).strip()
    if not text:
        return ParsedYear(None, "empty")
    match = _BARE.match(text) or _DATE.match(text)
    if match is None:
        return ParsedYear(None, f"not a year: {text[:40]!r}")
    return _check_range(int(match.group(1)), latest_year)


def _check_range(year: int, latest_year: int) -> ParsedYear:
    if year == 0:
        return ParsedYear(None, "zero")
    if year < MIN_YEAR:
        return ParsedYear(None, f"before {MIN_YEAR}: {year}")
    if year > latest_year:
        return ParsedYear(None, f"after as_of + 1 ({latest_year}): {year}")
    return ParsedYear(year, None)
