"""parse_year over the year values that really occur in the KG; it returns a year or says why not, never guesses."""

from __future__ import annotations

import pytest

from recon_assets.kg.years import MIN_YEAR, ParsedYear, parse_year

LATEST = 2027  # as_of 2026-..., in-press papers carry next year


@pytest.mark.parametrize(
    ("raw", "year"),
    [
        ("2019", 2019),
        ("2019-05-01", 2019),
        ("2019-05", 2019),
        ("2019-05-01T12:00:00Z", 2019),
        ("[1988]", 1988),
        ("1988?", 1988),
        ("  2020 ", 2020),
        (2019, 2019),
        (2019.0, 2019),
        ("2027", 2027),  # latest_year itself is allowed
        (str(MIN_YEAR), MIN_YEAR),
        ("2019-12-31", 2019),
        ("2020-02-29", 2020),
        # Issue 14: APOC writes a one-element list as [1988] in GraphML and JSON alike; it is that year in every format.
        ([1988], 1988),
        (["1988"], 1988),
        (["[1988]"], 1988),
        ([1988.0], 1988),
        (["2019-05-01"], 2019),
    ],
)
def test_parse_year_accepts(raw: object, year: int) -> None:
    assert parse_year(raw, latest_year=LATEST) == ParsedYear(year, None)


@pytest.mark.parametrize(
    ("raw", "issue"),
    [
        ("", "empty"),
        ("   ", "empty"),
        (None, "missing"),
        (0, "zero"),
        ("0000", "zero"),
        ("XIII", "not a year: 'XIII'"),
        ("2019a", "not a year: '2019a'"),
        ("19", "not a year: '19'"),
        ("-2019", "not a year: '-2019'"),
        ("2019/2020", "not a year: '2019/2020'"),
        (2019.5, "not a year: 2019.5"),
        (float("nan"), "not a year: nan"),
        (True, "not a year: True"),
        (9999, "after 2027, the year after the snapshot was ingested: 9999"),
        (2099, "after 2027, the year after the snapshot was ingested: 2099"),
        ("2028", "after 2027, the year after the snapshot was ingested: 2028"),
        (MIN_YEAR - 1, f"before {MIN_YEAR}: {MIN_YEAR - 1}"),
        # Only ASCII digits: fullwidth and Arabic-Indic digits are digits to Python's \d and int(), not years here.
        ("\uff12\uff10\uff11\uff19", "not a year: '\uff12\uff10\uff11\uff19'"),
        ("\u0662\u0660\u0661\u0669", "not a year: '\u0662\u0660\u0661\u0669'"),
        ("2019-05-0\u0661", "not a year: '2019-05-0\u0661'"),
        # A date must be a real date.
        ("2019-13-45", "not a year: '2019-13-45'"),
        ("2019-00", "not a year: '2019-00'"),
        ("2019-02-30", "not a year: '2019-02-30'"),
        ([], "not a year: list of 0"),
        ([1988, 1989], "not a year: list of 2"),
        ([[["2019"]]], "not a year: list"),
        ([None], "not a year: list"),
        ([{"year": 2019}], "not a year: list"),
        ([True], "not a year: True"),
        (["XIII"], "not a year: 'XIII'"),
        ([2099], "after 2027, the year after the snapshot was ingested: 2099"),
        ({"year": 2019}, "not a year: object"),
    ],
)
def test_parse_year_rejects_with_a_reason(raw: object, issue: str) -> None:
    assert parse_year(raw, latest_year=LATEST) == ParsedYear(None, issue)


def test_long_junk_is_cut_in_the_issue() -> None:
    parsed = parse_year("x" * 200, latest_year=LATEST)

    assert parsed.year is None
    assert parsed.issue == f"not a year: {'x' * 40!r}"
