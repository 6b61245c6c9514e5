"""canonical_doi and doi_issue over the DOI spellings found in the KG, OpenAlex and old SICI-style DOIs."""

from __future__ import annotations

import unicodedata

import pandas as pd
import pytest

from recon_assets.kg.doi import CANONICAL_DOI, canonical_doi, doi_issue
from recon_assets.shared.quality import doi_is_well_formed

GL007 = "10.1029/gl007i007p00545"


@pytest.mark.parametrize(
    ("raw", "key"),
    [
        # SICI DOIs (brackets, colons, semicolons) stay whole, only lower-cased.
        ("10.1175/1520-0442(2001)014<0203:ABCD>2.0.CO;2", "10.1175/1520-0442(2001)014<0203:abcd>2.0.co;2"),
        ("10.1577/1548-8659(1981)110<446:EOTOFR>2.0.CO;2", "10.1577/1548-8659(1981)110<446:eotofr>2.0.co;2"),
        # One key whatever the case and resolver prefix.
        ("10.1029/GL007I007P00545", GL007),
        ("https://dx.doi.org/10.1029/gl007i007p00545", GL007),
        ("doi:10.1029/GL007i007p00545", GL007),
        ("http://doi.org/10.1029/GL007I007P00545", GL007),
        ("HTTPS://DOI.ORG/10.1029/GL007I007P00545", GL007),
        ("doi.org/10.1029/GL007I007P00545", GL007),
        ("info:doi/10.1029/GL007I007P00545", GL007),
        ("DOI: 10.1029/GL007I007P00545", GL007),
        ("  10.1029/GL007I007P00545 \n", GL007),
        # Percent-decoded exactly once.
        ("10.1000%2Fabc", "10.1000/abc"),
        ("https://doi.org/10.1000%2Fabc", "10.1000/abc"),
        ("10.1000/a%252Fb", "10.1000/a%2fb"),
        # Trailing sentence punctuation and unbalanced ')' go; a balanced ')' stays.
        ("10.1000/abc.", "10.1000/abc"),
        ("10.1000/abc,", "10.1000/abc"),
        ("10.1000/abc)", "10.1000/abc"),
        ("10.1000/abc).,", "10.1000/abc"),
        ("10.1000/abc(1))", "10.1000/abc(1)"),
        ("10.1000/abc(1)", "10.1000/abc(1)"),
        (
            "10.1002/(SICI)1097-0258(19980815/30)17:15/16<1661::AID-SIM968>3.0.CO;2-2",
            "10.1002/(sici)1097-0258(19980815/30)17:15/16<1661::aid-sim968>3.0.co;2-2",
        ),
        (
            "10.1002/(sici)1097-0258(19980815/30)17:15/16<1661::aid-sim968>3.0.co;2-2).",
            "10.1002/(sici)1097-0258(19980815/30)17:15/16<1661::aid-sim968>3.0.co;2-2",
        ),
        # Characters inside the suffix are kept, a comma included; only trailing ones are stripped.
        ("10.1207/s15327809jls0703&4_2", "10.1207/s15327809jls0703&4_2"),
        ("10.1001/jama.251.19.2504,2509", "10.1001/jama.251.19.2504,2509"),
        ("10.1001/jama.251.19.2504,2509.,", "10.1001/jama.251.19.2504,2509"),
        # Dotted sub-registrant prefixes are DOIs too.
        ("10.1000.10/ABC", "10.1000.10/abc"),
        ("10.3390/RS12081239", "10.3390/rs12081239"),
        # Invisible format characters (Unicode category Cf) pasted from web pages are dropped, percent-encoded or not.
        ("10.3390/rs12\u200b081239", "10.3390/rs12081239"),  # zero-width space
        ("\ufeff10.3390/rs12081239", "10.3390/rs12081239"),  # byte-order mark
        ("10.3390/rs12\u00ad081239", "10.3390/rs12081239"),  # soft hyphen
        ("10.3390/rs12081239\u2060", "10.3390/rs12081239"),  # word joiner
        ("https://doi.org/10.3390/rs12%E2%80%8B081239", "10.3390/rs12081239"),
    ],
)
def test_canonical_doi(raw: str, key: str) -> None:
    assert canonical_doi(raw) == key
    assert CANONICAL_DOI.fullmatch(key)
    assert doi_is_well_formed(pd.Series([key])).item()  # the DOI quality suite agrees: one pattern
    assert doi_issue(raw) is None


@pytest.mark.parametrize(
    ("raw", "issue"),
    [
        ("N/A", "missing"),
        ("n/a", "missing"),
        (" N/a ", "missing"),
        ("", "missing"),
        ("   ", "missing"),
        (None, "missing"),
        (42, "not a DOI"),
        (10.1000, "not a DOI"),
        (["10.1000/abc"], "not a DOI"),
        ("not a doi", "not a DOI"),
        ("10.1000/", "not a DOI"),
        ("10.12/abc", "not a DOI"),  # registrant code shorter than 4 digits
        ("11.1000/abc", "not a DOI"),
        ("https://doi.org/10.1000/a b", "not a DOI"),
        ("https://example.org/10.1000/abc", "not a DOI"),
        # A percent-decoded newline before the trailing '.' must not pass as the end of the key.
        ("10.1000/abc%0A.", "not a DOI"),
        # Control characters (category Cc) are never part of a DOI.
        ("10.1000/a\x00b", "not a DOI"),
        ("10.1000/a%00b", "not a DOI"),
        ("10.1000/ab\x7f", "not a DOI"),
        ("\u200b", "not a DOI"),
    ],
)
def test_not_a_doi(raw: object, issue: str) -> None:
    assert canonical_doi(raw) is None
    assert doi_issue(raw) == issue


@pytest.mark.parametrize("code", range(128))
def test_every_ascii_character_inside_a_doi_is_judged_by_its_unicode_category(code: int) -> None:
    """ASCII values skip the per-character Unicode lookups: the shortcut must agree with them on all of ASCII."""
    character = chr(code)
    key = canonical_doi(f"10.1000/a{character}b")
    if unicodedata.category(character) == "Cc" or character.isspace():
        assert key is None
    else:
        assert key == f"10.1000/a{character}b".lower()



# Values on which the DOI quality suite's pattern and CANONICAL_DOI disagreed before both took the one pattern of
# shared.doi_pattern (suite / CANONICAL_DOI then): a prefix in digits of another script (not well formed / a key),
# a DEL or C1 control in the suffix (well formed / a key), upper case (not well formed / a key). None is a key now.
@pytest.mark.parametrize(
    ("raw", "key"),
    [
        ("10.\uff11\uff10\uff10\uff10/abc", None),  # fullwidth digits
        ("10.\u0661\u0662\u0663\u0664/abc", None),  # Arabic-Indic digits
        ("10.1000/ab\x7f", None),
        ("10.1000/a\x80b", None),
        ("10.1000/a\x9fb", None),
        ("10.1000/ABC", "10.1000/abc"),  # lower-cased to a key, not one as it stands
    ],
)
def test_the_quality_suite_and_canonical_doi_agree_where_they_once_differed(raw: str, key: str | None) -> None:
    assert CANONICAL_DOI.fullmatch(raw) is None
    assert not doi_is_well_formed(pd.Series([raw])).item()
    assert canonical_doi(raw) == key
