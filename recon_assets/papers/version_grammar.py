"""One grammar for a data product's version as papers state it, and what is no product's version (issue 22, round 7).

Shapes (how papers write a version next to a product, and how CMR spells versions: its version ids are "006", "061",
"7.0", "V07B", "04.2x" in `cmr_collections_version_families.csv`):
- a word that opens a version: "version", "ver.", "release", "collection", "edition", optionally before the "v" some
  papers repeat ("version v3.3", "version (v) 3.3", "Collection-5"); "version" also as the subject of "is" / "was"
  ("the data version used here is 3.3"); the words before it that say what it versions
  ("data version", "retrieval version", "data product version": QUALIFIER) are no part of it, so that a caller reads
  them as the words they are (a data word, an algorithm's);
- a letter that opens one: "V"/"v" after no letter ("V7", "v2.2", "V.5", "(v4.2)"), "C" before a digit ("C6.1",
  CMR's MODIS collections), "RL" before a digit (GRACE's release numbers, "RL06");
- the ".NNN" CMR glues to a short name ("MOD13Q1.006");
- the number: one to three digits, then dotted parts of one or two digits, then at most one letter ("2.2", "006",
  "6.1", "07B", "04.2x", "5.12.4"). A year is never one (four digits).
A whole number may be a paper's shorthand for a release it states in full elsewhere ("MLS version 3.3" [...] "MLS
v3": `shorthand_of`), which the caller reads as that release.
Brackets and parentheses around a version ("(V2)", "[v3.3]", "(retrieval version v3.3)") are the caller's separators, and
so is a processing level before it ("Level 2 version 4.2": the level is a word that describes the product).

`VERSION` captures the number as its only group. `excluded` says when a match is no version of a data product in use:
one the words before it set aside ("the previous version 2.2"), a cross-reference ("Fig. C2", "Table V1"), a program's
or a model's ("WRF version 3.9.1", "the model version 3.3"). Which product a version belongs to (the nearest name, a
list sharing one version, a version of another thing named after "of") is `datasets`' association, and whether the
product has that version is the catalogue's check (`stated_lifecycle.catalogued_version`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

# What a version word may say it versions ("retrieval version", "data product version", "algorithm version"): at most
# two words, for a caller to pass over (a parenthesis that holds only a version, "(retrieval version v3.3)").
QUALIFIER = r"(?:(?:data|dataset|retrieval|product|algorithm|processing)\s+){1,2}"
# The "v" some papers repeat after the word ("version v3.3", "version (v) 3.3").
_REPEATED_V = r"(?:[\s\-]*(?:\(v\)|v\.?)(?=\s?\d))?"
# A version word stated as the subject of "is" / "was" ("the data version used here is 3.3", "the version was 2.2"):
# the words between say which version the paper uses and are no part of the number.
_COPULA = r"(?:\s+used(?:\s+here|\s+in\s+this\s+(?:study|work|paper))?)?\s+(?:is|was)\b"
WORD_OPENER = r"\b(?:version" + _COPULA + r"|versions?|ver\.|releases?|collections?|edition)" + _REPEATED_V + r"[\s\-]*"
_LETTER_OPENER = r"(?<![A-Za-z])V\.?\s?|(?<![A-Za-z])(?-i:C|RL)(?=\d)|\.(?=0\d\d\b)"
NUMBER = r"(\d{1,3}(?:\.\d{1,2})*[A-Za-z]?)\b"
# A version, any opener (the text to compile with re.IGNORECASE; "C" and "RL" keep their case).
VERSION_TEXT = r"(?:" + WORD_OPENER + r"|" + _LETTER_OPENER + r")" + NUMBER
# A version opened by a word only ("Version 3.3", "collection 5", "data version v4.2"): the form a sentence uses when it
# states a version apart from the product's name.
WORDED_TEXT = WORD_OPENER + NUMBER
VERSION = re.compile(VERSION_TEXT, re.IGNORECASE)
WORDED_VERSION = re.compile(WORDED_TEXT, re.IGNORECASE)

# A cross-reference right before a letter opener: "Fig. C2", "Table C1", "Eq. (C3)", "Sect. V2", "p. V3" name no version.
_CROSS_REFERENCE = re.compile(r"\b(?:fig(?:ure)?s?|tables?|eqs?|equations?|sect(?:ion)?s?|appendix|app|pp?|pages?|panels?|steps?)\.?\s*\(?\s*$",
                              re.IGNORECASE)
# The owner right before a version word that makes it a program's or a model's, not a data product's: a word for a
# program or model ("the model version 3.3", "code version 2") or a program or model papers name with their versions
# ("WRF version 3.9.1", "Python v3.8", "GEOS-Chem version 12.9", "CESM2 release 2.1").
SOFTWARE_WORDS = frozenset({
    "model", "models", "software", "code", "package", "library", "toolbox", "tool", "toolkit", "program", "compiler",
    "scheme", "mechanism", "script", "python", "matlab", "idl", "ncl", "wrf", "geos-chem", "cesm", "cesm2", "waccm",
    "gfortran", "arcgis", "qgis", "envi", "gdal", "cdo", "nco", "snap", "sen2cor", "r",
})
_WORD_BEFORE = re.compile(r"([\w\-]+)\W{0,3}$")
# A word that sets the version aside as one the paper does not use ("the previous version 2.2", "an earlier v3.3",
# "the former collection 5").
_SET_ASIDE = re.compile(r"\b(?:earlier|previous|older|former|prior|outdated|superseded)\s*\(?\s*$", re.IGNORECASE)


def excluded(text: str, match: re.Match, named: bool = False) -> bool:
    """Whether a `VERSION` or `WORDED_VERSION` match in `text` is no data product's version in use: one the words right
    before it set aside (`_SET_ASIDE`: "the previous version 2.2"), a letter opener after a cross-reference word ("Fig.
    C2", "Table V1"), or, unless `named` (the version is read right after a product's name
    and the words that describe it, so the product owns it), a version whose owner, the word right before it, is a
    program or a model (SOFTWARE_WORDS: "the model version 3.3", "WRF version 3.9.1"). Years never match (four digits);
    a version of another named product closer in the sentence, an earlier version the text sets aside and an
    algorithm's version are the association's business (`datasets`)."""
    head = text[max(0, match.start() - 24) : match.start()]
    if _SET_ASIDE.search(head):
        return True
    if not re.match(r"[A-Za-z]{2}", match.group(0)) and _CROSS_REFERENCE.search(head):
        return True
    owner = None if named else _WORD_BEFORE.search(head)
    return bool(owner and owner.group(1).lower() in SOFTWARE_WORDS)


def version_at(text: str, pos: int, worded: bool = False, named: bool = False) -> re.Match | None:
    """The version that begins at text[pos] (`VERSION`, or `WORDED_VERSION` when `worded`), None when there is none or
    it is `excluded` (`named` as there). Its group 1 is the number as written ("3.3", "006", "07B")."""
    found = (WORDED_VERSION if worded else VERSION).match(text, pos)
    return found if found and not excluded(text, found, named) else None


def versions_in(text: str, start: int = 0, end: int | None = None, worded: bool = False) -> list[re.Match]:
    """Every version in text[start:end] (`version_at` from each place one begins), in reading order."""
    pattern = WORDED_VERSION if worded else VERSION
    return [m for m in pattern.finditer(text, start, len(text) if end is None else end) if not excluded(text, m)]


def shorthand_of(stated: str, written: list[str]) -> list[str]:
    """The versions a whole-number version may shorten: those of `written` (the other versions a paper states for the
    same product, as written: "3.3", "04.2x") that have a minor part and the same leading number ("MLS version 3.3"
    [...] "the MLS v3 data": "3" shortens "3.3"), each once, in the order given; [] when `stated` is no whole number
    (it has a minor part or a letter) or none fits. A paper's own shorthand for the release it names in full: several
    fitting ("3.3" and "3.4" both stated) leave "v3" one of them, which the caller does not say. Three digits padded
    with zeros ("003", as in "ML2H2O_V003") are a catalogue's collection label written out, not a shorthand: [] as well."""
    if not re.fullmatch(r"\d{1,3}", stated) or re.fullmatch(r"0\d\d", stated):
        return []
    fitting = [w for w in written if (m := re.fullmatch(r"(\d{1,3})\.\d.*", w)) and int(m.group(1)) == int(stated)]
    return list(dict.fromkeys(fitting))


# What joins the versions of one list ("v2.2 and v3.3", "V17, V19 and V20", "versions 2.2 or 3.3", "v2.2/v3.3").
_VERSIONS_JOIN = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|and\s+|or\s+|&\s*|/\s*)", re.IGNORECASE)
_BARE_NUMBER = re.compile(NUMBER)
# A unit after a number ("2.5 km", "3.3 %", "1.5 K", "2.5 ppmv", "2.5°", "2.5-km", "10.5 µm", "0.5 degree", "1.5 days",
# "2.5 x 2.5"): a measure, no version; a short word that is no unit ("of", "and") is none ("versions 2.2 and 4.2 of").
_UNIT = re.compile(r"\s*(?:[%°µμ‰′″×]|-\s*[A-Za-z]|(?!(?:of|and|or|the|in|to|for|as|at|on|by|is|are|was|we)\b)[A-Za-z]{1,3}\b|x\s*\d|(?:ppmv|ppbv|pptv|degrees?|deg|days?|hours?|months?|years?"
                   r"|minutes?|seconds?|met(?:er|re)s?|microns?|kelvin|mbar|hpa|dobson)\b)", re.IGNORECASE)


def listed_after(text: str, first: re.Match) -> list[re.Match]:
    """The further versions of a list that the version `first` (a `VERSION` match, group 1 its number) opens, in
    reading order, each a match whose group 1 is its number: "v2.2 and v3.3", "HALOE V17 and V019", "V17, V19 and V20",
    "versions 2.2 and 3.3". An item is a version of the grammar (`version_at`), or a bare number written as `first`'s is
    (dotted, with as many parts, no unit after it: "version 2.2 and 3.3"; not "version 2.2 and 2.5 km"), each after a comma, "and", "or",
    "&" or "/". [] when no list follows."""
    parts = first.group(1).count(".")
    found: list[re.Match] = []
    pos = first.end()
    while (joined := _VERSIONS_JOIN.match(text, pos)) and joined.end() > pos:
        item = version_at(text, joined.end())
        if item is None and parts and (bare := _BARE_NUMBER.match(text, joined.end())) and bare.group(1).count(".") == parts \
                and not _UNIT.match(text, bare.end()):
            item = bare
        if item is None:
            break
        found.append(item)
        pos = item.end()
    return found


# A version and the join after it, right before a place ("v2.2 and " before "v3.3 MLS"): `listed_before`.
_VERSION_THEN_JOIN = re.compile(r"(?:" + VERSION_TEXT + r")" + _VERSIONS_JOIN.pattern + r"$", re.IGNORECASE)


def listed_before(text: str, pos: int) -> list[re.Match]:
    """The versions of a list that end right before text[pos], where its last version begins ("Both v2.2 and " before
    "v3.3 MLS water vapour products"), in reading order, each a `VERSION` match (group 1 its number) less the `excluded`;
    [] when none does."""
    found: list[re.Match] = []
    while (item := _VERSION_THEN_JOIN.search(text, max(0, pos - 40), pos)) and not excluded(text, item):
        found.insert(0, item)
        pos = item.start()
    return found


def cited_version(entry: str, names_collection: Callable[[str], bool]) -> str | None:
    """The version a data citation states for the collection its DOI names: the one worded version of the reference
    entry `entry` ("GOZCARDS Merged Data for Ozone [...], version 1.01, [...] doi:10.5067/MEASURES/GOZCARDS/DATA3006"),
    as written, when `names_collection(number)` says it names that collection (the caller's catalogue check: "1.01" of
    CMR's V1); None when the entry words none, several, or one of another collection. Why: the paper states "1.01";
    the DOI alone gives only the archive's label."""
    stated = {version.group(1) for version in versions_in(entry, worded=True)}
    if len(stated) != 1:
        return None
    (only,) = stated
    return only if names_collection(only) else None
