"""How a paper's words around a dataset name are read (`papers.datasets`): the words that describe a product (checked
against the CMR entry titles of the graph's collections), and the passages whose names are not data statements
(acronym tables, reference lists run into body text, references that cite a paper rather than a data set).

Pure functions over text; no pandas, no Dagster.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

# Wordings that CMR entry titles and papers spell differently, brought to one token on both sides: GES DISC and
# NSIDC titles write "L3", "1 day", "1 month", "Half Hourly", "3 hourly" ("GPM IMERG Final Precipitation L3 1 day
# 0.1 degree x 0.1 degree V07", "SMAP L3 Radiometer Global Daily 36 km ..."), papers "Level 3", "Level-3", "daily",
# "monthly", "half-hourly", "3-hourly".
_CANONICAL = (
    (re.compile(r"\blevel[\s\-]*(\d[a-z]?)\b"), r"l\1"),
    (re.compile(r"\bhalf[\s\-]*hour(?:ly)?\b|\b30[\s\-]*min(?:ute)?s?\b"), "halfhourly"),
    (re.compile(r"\b1[\s\-]*day\b"), "daily"),
    (re.compile(r"\b(\d+)[\s\-]*days?\b"), r"\1day"),
    (re.compile(r"\bdaily\b|\bday\b"), "daily"),
    (re.compile(r"\b1[\s\-]*month\b|\bmonthly\b|\bmonth\b"), "monthly"),
    (re.compile(r"\b1[\s\-]*hour\b|\bhourly\b"), "hourly"),
    (re.compile(r"\b(\d+)[\s\-]*hour(?:ly|s)?\b"), r"\1hourly"),
    # British spellings of words CMR's (American) entry titles use: "water vapour" is "Water Vapor (H2O)"
    (re.compile(r"\bvapour\b"), "vapor"),
    (re.compile(r"\bsulphur\b"), "sulfur"),
)
_TOKENS = re.compile(r"[a-z0-9]+")
# A time step joined to its count ("1-Hourly" -> "1hourly", "3 hourly" -> "3hourly") also yields its word part, so a
# paper's or question's plain "hourly" describes the 1- and 3-hourly collections ("MERRA-2 tavg1_2d_slv_Nx: 2d,1-Hourly,
# ...") while "3-hourly" still tells them apart. An N-day count ("8day") yields no "daily": an 8-day composite is not a
# daily product. Counts written apart from their unit ("0.25-degree", "36 km") are separate tokens already.
_COUNTED_STEP = re.compile(r"\d+(hourly)")
# Words that may stand between a name and its version without describing the product ("TRMM 3B42 product V7",
# "IMERG data (V06)", "3B42 algorithm version 7").
FILLER = frozenset({"product", "products", "data", "dataset", "datasets", "set", "algorithm", "run", "the"})
# Small words an expansion skips in its initials ("GMAO Global Modeling and Assimilation Office").
_SMALL = frozenset({"and", "of", "for", "the", "de", "in", "on", "at", "to", "a"})
# Words that describe no product even where an entry title holds them ("... L3 (AIRSAC3MNH3 V3) from AIRS/AMSU").
_FUNCTION_WORDS = _SMALL | {"from", "with", "by", "using", "over", "into", "per", "as", "or"}
# One word of a product description: a wording that _CANONICAL joins ("Level 3", "half hourly", "1 day"), else a run
# without spaces or list punctuation.
WORD = re.compile(
    r"level[\s\-]*\d[a-z]?\b|half[\s\-]+hour(?:ly)?\b|\d+[\s\-]+(?:day|hour|month)(?:ly|s)?\b|[^\s,;:()\[\]/]+",
    re.IGNORECASE,
)


def canonical_tokens(text: str) -> frozenset[str]:
    """The lower-case tokens of `text` after `_CANONICAL`'s rewrites: "Level 3 Radiometer" -> {"l3", "radiometer"},
    "L3 1 day" -> {"l3", "daily"}, "2d,1-Hourly" -> {"2d", "1hourly", "hourly"} (`_COUNTED_STEP`)."""
    text = text.lower()
    for pattern, replacement in _CANONICAL:
        text = pattern.sub(replacement, text)
    tokens = _TOKENS.findall(text)
    return frozenset(tokens).union(m.group(1) for token in tokens if (m := _COUNTED_STEP.fullmatch(token)))


def initialisms(title: str) -> frozenset[str]:
    """The upper-case initials of every run of two to five consecutive capitalised words of an entry title, small
    words skipped: "GLDAS Catchment Land Surface Model L4" -> {"CL", "CLS", "CLSM", "LS", ...}. A paper's
    "GLDAS-CLS" or "SM" (soil moisture) is read against them. Numbers are skipped like small words, but a word that
    mixes letters and digits ("CH3OH", "L4", "V004") has no initial and ends the run: a chemical formula spells no
    initialism ("Methanol (CH3OH)" once gave "CO" from "CH" and "OH", so a paper's "MLS CO" also read as methanol)."""
    words = [w for w in re.findall(r"[A-Za-z0-9][A-Za-z0-9\-]*", title) if w.lower() not in _SMALL and not w.replace("-", "").isdigit()]
    capitals = [w[0] if w[0].isupper() and not any(c.isdigit() for c in w) else None for w in words]
    found = set()
    for start in range(len(capitals)):
        for size in range(2, 6):
            run = capitals[start : start + size]
            if len(run) == size and all(run):
                found.add("".join(run))
    return frozenset(found)


class TitleVocabulary:
    """The words of each family's CMR entry titles, to tell whether a paper's word describes a family.

    Args:
        titles: {family: its collections' entry titles (long names)}.
        codes: {family: further words that name it} (optional): the parameter code its short name holds after its
            product line's prefix (`line_codes`: ML2IWC's "IWC", which its entry title "Cloud Ice Product" never writes).
    """

    def __init__(self, titles: dict[str, Iterable[str]], codes: dict[str, Iterable[str]] | None = None) -> None:
        codes = codes or {}
        self.tokens = {
            family: frozenset().union(*(canonical_tokens(t) for t in texts), canonical_tokens(family), *(canonical_tokens(c) for c in codes.get(family, ())))
            for family, texts in titles.items()
        }
        self.initials = {family: frozenset().union(*(initialisms(t) for t in texts)) for family, texts in titles.items()}

    def describes(self, word: str, family: str) -> bool:
        """Whether `word` (one WORD of the paper) describes `family`: all its canonical tokens are words of the
        family's entry titles, or it is an all-capital initialism of consecutive title words ("CLS")."""
        if word.lower() in _FUNCTION_WORDS:
            return False
        tokens = canonical_tokens(word)
        if tokens and tokens <= self.tokens.get(family, frozenset()):
            return True
        letters = word.strip("-_.")
        return letters.isalpha() and letters.isupper() and 2 <= len(letters) <= 5 and letters in self.initials.get(family, frozenset())

    def narrow(self, families: list[str], words: Iterable[str]) -> list[str]:
        """The members of `families` that the most describing words describe (all of `families` when no word describes
        any). Weighed together, not one word after another: "MERRA-2 hourly surface solar radiation" keeps every
        hourly collection that "surface" or "radiation" describes, where narrowing word by word kept the surface ones
        and then ignored "radiation", which described none of them."""
        words = list(words)
        counts = {family: sum(self.describes(word, family) for word in words) for family in families}
        best = max(counts.values(), default=0)
        return [family for family in families if counts[family] == best] if best else families


# What a product line's pattern ends with after its fixed prefix ("ML2*"), and what a parameter code looks like: a
# capital, then capitals and digits, one token ("IWC", "CO", "HNO3"; not "3STD", "NOAH025_M" or a one-letter "T").
_LINE_PREFIX = re.compile(r"^([A-Za-z0-9_\-]+)\*$")
_CODE = re.compile(r"[A-Z][A-Z0-9]+")


def line_codes(pattern: str, families: Iterable[str]) -> dict[str, str]:
    """{family: its parameter code} for the members of a product line whose pattern is a fixed prefix and a wildcard
    ("ML2*"): the rest of the short name after the prefix, when it is a code (`_CODE`): ML2IWC -> "IWC", ML2CO -> "CO",
    ML2HNO3 -> "HNO3". A Level-2 short name is the instrument's prefix plus the parameter's code (GES DISC's MLS
    collections ML2O3, ML2T, ML2IWC; its entry titles spell most codes out, "Ozone (O3)", but not all: ML2IWC's is
    "Cloud Ice Product"), so a paper's "MLS IWC" names ML2IWC as "MLS O3" names ML2O3. {} for any other pattern."""
    fixed = _LINE_PREFIX.match(pattern)
    if not fixed:
        return {}
    prefix = fixed.group(1)
    return {f: f[len(prefix):] for f in families if f.startswith(prefix) and _CODE.fullmatch(f[len(prefix):])}


# The instruments a retrieval combines, as an entry title gives them in parentheses: "(AIRS-only)", "(AIRS+AMSU)",
# "(AIRS+AMSU+HSB)" (GES DISC's AIRS* / AIRX* / AIRH* collections of one product). A short name in parentheses
# ("(AIRS3STD)") is none.
_COMBINATION = re.compile(r"\(([A-Za-z0-9]+(?:\+[A-Za-z0-9]+)+|[A-Za-z0-9]+-only)\)")
# The combination a paper means when it names none: AIRS's standard retrieval is the AIRS+AMSU one (AIRX*); the
# AIRS-only stream (AIRS*) is the variant papers name as "AIRS-only", and AIRS+AMSU+HSB (AIRH*) covers only 2002-08 to
# 2003-02 (the AIRH* V006 records in CMR end 2003-02-05). Source: the CMR entry titles and temporal extents of the AIRS
# collections (recon_assets/reference/cmr/cmr_collections_version_families.csv); SOURCES.md of the paper fixtures reads
# AIRS "version 5 daily Level 3" as AIRX3STD (papers 7 and 9).
STANDARD_COMBINATIONS = frozenset({"AIRS+AMSU"})
# The word a line's entry titles give its standard product ("AIRS/Aqua L3 Daily Standard Physical Retrieval"), beside
# its support and special products ("Support Product", "CO2 in the free troposphere", "Quantization").
STANDARD_WORD = "standard"


def combination(title: str) -> str | None:
    """The instrument combination an entry title states in parentheses (`_COMBINATION`: "AIRS+AMSU", "AIRS-only"), or
    None."""
    found = _COMBINATION.search(title)
    return found.group(1) if found else None


def product_tokens(title: str, family: str) -> frozenset[str]:
    """The canonical tokens of an entry title less its instrument combination, its short name, its version and its
    numbers: what one product's streams share ("Aqua/AIRS L3 Daily Standard Physical Retrieval (AIRS-only) 1 degree x
    1 degree V7.0" and "... (AIRS+AMSU) ... V006 (AIRX3STD)" give the same tokens)."""
    tokens = canonical_tokens(_COMBINATION.sub(" ", title)) - canonical_tokens(family)
    return frozenset(t for t in tokens if not re.fullmatch(r"v?\d+", t))


# A member's parameter name in its entry title ends at the first parenthesis or version ("Ozone (O3) Mixing Ratio V004",
# "Temperature V005", "Relative Humidity With Respect To Ice V004").
_TITLE_NAME_END = re.compile(r"\(|\bV\d")


def parameter_names(titles: dict[str, str]) -> dict[str, tuple[str, ...]]:
    """{family: its parameter name as canonical tokens in order} for the members of one product line, from their CMR
    entry titles (one per family): the words after the prefix every member's title shares, up to the first
    parenthesis or version ("MLS/Aura Level 2 Geopotential Height V004 (ML2GPH)" -> ("geopotential", "height"),
    "MLS/Aura Level 2 Water Vapor (H2O) Mixing Ratio V004" -> ("water", "vapor")). A family whose name is empty after
    the prefix, or a line of one member, gets none. The entry title is the archive's own word for what the member holds."""
    heads = {family: list(canonical_sequence(_TITLE_NAME_END.split(title, 1)[0])) for family, title in titles.items()}
    if len(heads) < 2:
        return {}
    shared = 0
    sequences = list(heads.values())
    while all(len(seq) > shared for seq in sequences) and len({seq[shared] for seq in sequences}) == 1:
        shared += 1
    return {family: tuple(seq[shared:]) for family, seq in heads.items() if seq[shared:]}


def canonical_sequence(text: str) -> tuple[str, ...]:
    """`canonical_tokens` in reading order, repeats kept ("Water Vapour" -> ("water", "vapor"))."""
    text = text.lower()
    for pattern, replacement in _CANONICAL:
        text = pattern.sub(replacement, text)
    return tuple(_TOKENS.findall(text))


_SPECIES_TOKEN = re.compile(r"[A-Za-z0-9]+")


# Words that make a parameter's name another quantity: "potential temperature" is a vertical coordinate (papers bin
# profiles by it), "brightness temperature" a radiance; neither is a temperature product.
_OTHER_QUANTITY = frozenset({("potential",), ("brightness",)})


def species_mentions(text: str, names: dict[str, tuple[str, ...]], codes: dict[str, str]) -> list[tuple[int, int, str]]:
    """[(start, end, family)] in `text` for each member of a product line written by its parameter name (`names`, the
    canonical tokens of `parameter_names`, matched as consecutive words: "geopotential height", "water vapour") or by
    its parameter code (`codes`, `line_codes`: "HCl", "ClO", "RHi", "H2O"; a code is written with a digit or at least
    two capitals, so the word "Co" is no CO). A name's last word may take a plural "s" ("temperatures"). A name after a
    word that makes it another quantity is none (`_OTHER_QUANTITY`: "potential temperature"). Longest name first where
    two overlap; in reading order."""
    tokens = list(_SPECIES_TOKEN.finditer(text))
    words = [canonical_sequence(t.group(0)) for t in tokens]
    found: list[tuple[int, int, str]] = []
    index = 0
    ordered = sorted(names.items(), key=lambda item: -len(item[1]))
    while index < len(tokens):
        hit = None
        for family, name in ordered:
            size = len(name)
            # the name's last word may be written in the plural ("MLS temperatures")
            if index + size <= len(tokens) and all(
                    words[index + k] in ((name[k],), (name[k] + "s",) if k == size - 1 else ()) for k in range(size)):
                hit = (tokens[index].start(), tokens[index + size - 1].end(), family, size)
                break
        if hit and index and words[index - 1] in _OTHER_QUANTITY:
            hit = None  # "potential temperature", "brightness temperature": another quantity, no member's parameter
            index += 1
            continue
        if hit is None:
            raw = tokens[index].group(0)
            capitals = sum(c.isupper() for c in raw)
            family = next((f for f, code in codes.items() if raw.upper() == code), None)
            if family and (any(c.isdigit() for c in raw) or capitals >= 2):
                hit = (tokens[index].start(), tokens[index].end(), family, 1)
        if hit:
            found.append(hit[:3])
            index += hit[3]
        else:
            index += 1
    return found


# An acronym followed by its expansion, the row of an abbreviations table ("SMAP Soil Moisture Active Passive").
# The acronym (a capital first, another before any hyphen) is read to its word's end at once, not split at each capital
# in turn: a run of 20,000 capitals ("VVVV...", a table's rule read as text) took 2.3 s (quadratic), now under 1 ms.
_ACRONYM_ROW = re.compile(r"\b(?=[A-Z][A-Za-z0-9]*?[A-Z])([A-Za-z0-9\-]++)\s+((?:[A-Z][a-z][\w’'\-]*[\s,]*(?:(?:and|of|for|the|de|d’)\s+)?){1,8})")
_GLOSSARY_HEADING = re.compile(r"abbreviation|acronym|glossary|nomenclature", re.IGNORECASE)
# At least this many rows make a paragraph an abbreviations table.
GLOSSARY_ROWS = 3


def is_glossary(text: str, section: str = "") -> bool:
    """Whether a paragraph is an abbreviations table (its section is headed Abbreviations, Acronyms, Glossary or
    Nomenclature, or it holds GLOSSARY_ROWS or more acronyms each followed by words whose initials spell it): a
    "Version 5" there ends an expansion ("GEOS-5 Goddard Earth Observing System Model, Version 5") and says nothing
    about the next acronym's version."""
    if _GLOSSARY_HEADING.search(section):
        return True
    rows = 0
    for found in _ACRONYM_ROW.finditer(text):
        letters = "".join(c for c in found.group(1) if c.isalpha()).upper()
        words = [w for w in found.group(2).split() if w.lower() not in _SMALL]
        initials = "".join(w[0].upper() for w in words)
        if len(letters) >= 2 and initials.startswith(letters):
            rows += 1
    return rows >= GLOSSARY_ROWS


# "Gelaro, R.", "Huffman, G. J.", "van Dijk, A." opening a reference entry (author, initials).
_AUTHOR = re.compile(r"(?:\b[a-z]{1,3}\s)?\b[A-Z][A-Za-z'’\-]+,\s(?:[A-Z]\.[\s\-]?){1,3}")
_YEAR = re.compile(r"\((?:19|20)\d{2}[a-z]?\)|\b(?:19|20)\d{2}[a-z]?[.;]")
# Reference-list entries that a paragraph of body text must hold to be a reference list the parser did not split.
REFERENCE_LIKE_AUTHORS, REFERENCE_LIKE_YEARS = 4, 2
_ENTRY_START = re.compile(r"(?<=[.)\w])\s+(?=(?:[a-z]{1,3}\s)?[A-Z][A-Za-z'’\-]+,\s(?:[A-Z]\.[\s\-]?){1,3})")


def is_reference_like(text: str) -> bool:
    """Whether body text is a reference list run into a paragraph (the parser missed the list's start): at least
    REFERENCE_LIKE_AUTHORS author-and-initials openings ("Gelaro, R.,") and REFERENCE_LIKE_YEARS publication years."""
    return len(_AUTHOR.findall(text)) >= REFERENCE_LIKE_AUTHORS and len(_YEAR.findall(text)) >= REFERENCE_LIKE_YEARS


def reference_entries(text: str) -> list[tuple[int, str]]:
    """A reference list run into one paragraph, cut into entries at each author opening: [(offset, entry text)]."""
    starts = [0] + [m.end() for m in _ENTRY_START.finditer(text)]
    return [(start, text[start:end].strip()) for start, end in zip(starts, starts[1:] + [len(text)])]


# What a data citation names and a paper's citation does not: the archive that publishes the data set (NASA's DAACs:
# "Goddard Earth Sciences Data and Information Services Center", "NASA National Snow and Ice Data Center Distributed
# Active Archive Center"), a "[Data set]" label (APA 7), or a DOI of NASA's EOSDIS data prefix 10.5067. ESIP's data
# citation guidelines (https://doi.org/10.6084/m9.figshare.8441816) and DataCite's put the publisher in every one.
_DATA_CITATION = re.compile(
    r"Data (?:and Information Services )?Cent(?:er|re)|Distributed Active Archive|\bDAAC\b|\bGES[\s_]DISC\b|"
    r"\[data ?set\]|10\.5067/",
    re.IGNORECASE,
)


def is_data_citation(text: str) -> bool:
    """Whether a reference entry cites a data set (its publisher is a data archive, it is labelled [Data set], or it
    prints a 10.5067 data DOI) rather than a paper: only a data citation's name and version are a use of the data;
    a paper's title ("... version 2 (MERRA-2)", "... GPM IMERG V06 ...") names what others used."""
    return bool(_DATA_CITATION.search(text))


# "algorithm" right after a version, or after one or two words ("v8.5 algorithm", "version 8.5 retrieval algorithm",
# "v8 total O3 algorithm").
_ALGORITHM_AFTER = re.compile(r"(?:\s+[\w\-]+){0,2}?\s+algorithms?\b", re.IGNORECASE)


def is_algorithm_version(text: str, end: int) -> bool:
    """Whether the version that ends at text[end] is called an algorithm's: "algorithm" follows it, directly or after
    one or two words ("OMTO3 v8.5 algorithm", "version 8.5 retrieval algorithm"). An algorithm's version is the
    retrieval code's, which a data set's collection number need not equal (OMI's OMTO3 collection 3 is made with
    the TOMS v8.5 algorithm); `datasets` still reads it as a collection when a candidate has a collection of that
    number (TRMM's 3B42 "V7 algorithm" is its collection V7)."""
    return bool(_ALGORITHM_AFTER.match(text, end))


def open_parentheses(text: str) -> list[int]:
    """How many parentheses are open at each place of `text` (index 0 to len(text)), counted from the start of its
    sentence (after the last ". " before it), a ")" with none open counting nothing. One pass over the text: read once
    per paragraph (`version_association.ParagraphFacts.open_parentheses`), not once per name (hostile pass: a paragraph
    with no full stop was re-read from its start for each of its names)."""
    depths, depth = [0], 0
    for index, char in enumerate(text):
        if index and text.startswith(". ", index - 1):
            depth = 0  # a sentence starts at the space after ". "
        else:
            depth = depth + 1 if char == "(" else max(0, depth - 1) if char == ")" else depth
        depths.append(depth)
    return depths


def parenthesis_end(text: str, name_start: int, pos: int, limit: int, depths: Sequence[int] | None = None) -> int:
    """Where the words describing a name read from `pos` must stop: at the closing parenthesis of one opened before
    the name (within its sentence) and still open at `pos` ("(for Aura MLS v2.2) O3 ...": the "O3" after the
    parenthesis does not describe what is inside it), else `limit`. `depths`: `open_parentheses(text)` when the caller
    has read it once for the paragraph; else it is read here."""
    depth = (open_parentheses(text) if depths is None else depths)[name_start]
    if depth == 0:
        return limit
    for index in range(pos, limit):
        if text[index] == ")":
            depth -= 1
            if depth == 0:
                return index
        elif text[index] == "(":
            depth += 1
    return limit
