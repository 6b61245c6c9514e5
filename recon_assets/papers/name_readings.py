"""How a paper names the graph's products: each product or product-line name in a text read with the version stated
next to it and the words that describe it (`name_readings`), and a product line's version given to the members the
text names by the catalogue's own words for them (`each_species`, `each_parameter`), in a table titled with the line
and its version (`with_table_rows`), in a list a version in parentheses closes (`members_listed_with_version`) or in a
list tied to the line's name (`members_compared_with`); a line named twice in a sentence is one product
(`with_sentence_words`). Pure functions over one text (a paragraph, a caption, a research question) and the catalogue
(`dataset_catalogue.DatasetCatalogue`), which is read, never changed; `datasets.detect_datasets` and
`datasets.named_products` read names through them."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import takewhile
from typing import TYPE_CHECKING

from recon_assets.papers.dataset_evidence import joined_quote, sentence_quote
from recon_assets.papers.dataset_names import FILLER, WORD, is_algorithm_version, parenthesis_end, species_mentions
from recon_assets.papers.phrases import (
    CLAUSE_END, COLLECTION, DATA_WORD, LINE, SENTENCE, SEPARATOR, Reading, Sentences, clause_end_at, describes_line, stated_sort_key,
    words_after, words_past, words_trailing,
)
from recon_assets.papers.stated_lifecycle import catalogued_version
from recon_assets.papers.version_association import CITATION_TEXT, ParagraphFacts, cites_work, other_instrument, other_source_s, use_stated
from recon_assets.papers.version_grammar import NUMBER, QUALIFIER, VERSION_TEXT, WORD_OPENER, listed_after, listed_before, version_at

if TYPE_CHECKING:
    from recon_assets.papers.dataset_catalogue import DatasetCatalogue

# A version stated next to a product name (`version_grammar.VERSION`): after it ("3B42 V7", "MOD13Q1 Collection 5",
# "MOD13Q1.006", "GDEM version 2", "MLS measurements (retrieval version v3.3)") or before it ("Collection 6 MOD13Q1",
# "version 7 of the 3B42").
# Before the name, at most three words may stand between ("Collection 5 NDVI (MOD13Q1)", "version 7 of the 3B42"), after
# the version and any further numbers it lists ("versions 2.2, 3.3 and 4.2 of the MLS ozone data": `listed_after`), or
# the version opens the parenthesis that holds the name ("MERRA2 (V5.12.4, M2T1NXINT)").
_LISTED_NUMBERS = r"(?:\s*(?:,\s*(?:and\s+|or\s+)?|and\s+|or\s+)\d{1,3}(?:\.\d{1,2})+\b)*"
_VERSION_BEFORE = re.compile(r"(?:" + VERSION_TEXT + _LISTED_NUMBERS + r"(?:\s+[A-Za-z][\w\-]*){0,3}\s*[\s(]{0,2}|\(\s*" + VERSION_TEXT + r"\s*[,;]\s*)$",
                             re.IGNORECASE)
_AFTER_WINDOW, BEFORE_WINDOW = 100, 40
# Describing words read before a product line's name ("Half-hourly IMERG V07", "SM data SMAP ... V7").
_WORDS_BEFORE = 3
# Passed over, as a separator is, between a name and its words and the version: "in" before a worded version, which
# says which version the data are in ("MLS HCl measurements in version 2.2"), and a citation that a parenthesis opens
# with before the version ("AURA-MLS (Read et al., 2007, v2.2)": the data's reference, then their version).
_BEFORE_VERSION = re.compile(r"(?:in\s+(?=" + WORD_OPENER + NUMBER + r")|(?<=\()" + CITATION_TEXT + r"\)?\s*[,;]\s*(?=" + VERSION_TEXT + r"))",
                             re.IGNORECASE)

def _read(facts: ParagraphFacts, start: int, end: int, limit: int, name: str, catalogue: DatasetCatalogue) -> Reading:
    """The version stated next to the name at text[start:end] and the words that describe it.

    After the name (up to `limit`, where the next name begins, and _AFTER_WINDOW characters): the version may follow
    describing words ("IMERG Final V6", "GLDAS-CLS L4 V2.2", "SMAP Level 3 Radiometer V7"), each a word of a
    candidate's entry title, an initialism of consecutive title words ("CLS") or a FILLER word; describing words
    right after the version are read too ("V6 Daily"). Else before the name (`_VERSION_BEFORE`), unless that number
    is the name's own ("version 2 (MERRA-2)" names the reanalysis, not a collection version). No version at all: the
    describing words after the name and before it ("MODIS land cover", "half-hourly GPM IMERG"). An instrument's
    generation written after a slash is part of its name and describes it (`_GENERATION`: "SBUV/2 version 8" is the
    SBUV2 series' version 8; in "version 2 (SBUV/2)" the 2 is the name's own). `facts`: the text read once."""
    text = facts.text
    families = catalogue.members[name]
    next_name = limit
    generation = _GENERATION.match(text, end)
    glued = [re.sub(r"\W", "", text[start:generation.end()])] if generation else []
    end = generation.end() if generation else end
    limit = min(limit, end + _AFTER_WINDOW)
    words, pos = words_after(text, end, limit, catalogue, families)
    before = _words_before(text, start, catalogue, families) + [w for w in glued if describes_line(catalogue, w, families)]
    describing = [w for w in words if w.lower() not in FILLER] + before
    at = SEPARATOR.match(text, pos).end()
    at = passed.end() if (passed := _BEFORE_VERSION.match(text, at)) else at
    version = version_at(text, at, named=True) if at < limit else None
    if version and _algorithm_only(facts, version, catalogue, families):
        # the version after the name is its algorithm's: no dataset version, and none read before the name either
        return Reading(None, start, end, tuple(describing))
    if version and (collection := _collection_before(text, start, version, catalogue, families)):
        # "the collection 3 OMTO3 version 8.5 product": the collection names the data set, the version its algorithm
        return Reading(collection[0], collection[1], version.end(), tuple(describing))
    if version:
        # a list of versions ("MLS v2.2 and v3.3 ozone"): each is the name's, and the words after the list describe it,
        # up to one right before the next name, which is that name's ("MLS v4.2 and V6 AIRS data")
        listed = list(takewhile(lambda v: SEPARATOR.match(text, v.end()).end() < next_name and not _instrument_after(text, v.end(), catalogue, families),
                                listed_after(text, version)))
        last = listed[-1] if listed else version
        closing = parenthesis_end(text, start, last.end(), limit, facts.open_parentheses)
        resume = _past_restatement(text, last.end(), last.group(1))
        trailing = words_trailing(text, resume, closing, catalogue, families)
        return Reading(version.group(1), start, resume, tuple(describing + trailing), tuple(v.group(1) for v in listed))
    found = _version_before(text, start)
    # "versions 2.2 and 4.2 of the MLS ozone data": the numbers the version before the name lists are the name's too
    following = listed_after(text, version_at(text, found.start())) if found and found.group(1) else []
    following = list(takewhile(lambda v: v.group(0)[0].isdigit() and v.end() <= start, following))  # the bare numbers `_LISTED_NUMBERS` passed
    if found and _joins_name(text[following[-1].end() if following else found.end(1 if found.group(1) else 2):start], catalogue, families):
        stated = found.group(1) or found.group(2)
        own = re.search(r"(\d+)$", text[start:end])
        if not (own and stated_sort_key(stated) == (int(own.group(1)),)):
            # the words after the name describe it too ("version 2.2 of the MLS O3 data"); a list of versions ends there
            # ("Both v2.2 and v3.3 MLS data"): each is the name's
            listed = listed_before(text, found.start()) if found.group(1) else []
            # up to one right after another name, which is that name's ("AIRS V6 and v3.3 MLS data")
            while listed and (_name_ends_before(text, listed[0].start(), catalogue) or _instrument_before(text, listed[0].start(), catalogue, families)):
                listed.pop(0)
            return Reading(stated, listed[0].start() if listed else found.start(), end, tuple(describing),
                           tuple(v.group(1) for v in listed + following))
    stop = clause_end_at(text, end, limit)
    closing = PARENTHESISED_VERSION.search(text, end, stop)
    between, reached = words_past(text, end, closing.start(), catalogue, families) if closing else ([], end)
    if (closing and SEPARATOR.match(text, reached).end() >= closing.start() and not is_algorithm_version(text, closing.end())
            and all(re.fullmatch(r"[a-z]+", w) or w.lower() in FILLER or describes_line(catalogue, w, families)
                    for w in (m.group(0).rstrip(".") for m in WORD.finditer(text, end, closing.start())))):
        # the words after the name (describing words, at most SKIPPED_WORDS others in a row, each a lower-case word:
        # a capitalised one is another name, "SMAP SPL4SMGP (v7)", "SMAP (SCA-V) SMOS-IC (V2)") run into a version in
        # parentheses: "Aura MLS water vapour and ozone measurements (version 3.3)", "MLS observations (version 3.3)"
        return Reading(closing.group(1), start, closing.end(), tuple([w for w in between if w.lower() not in FILLER] + before))
    # no version: the describing words on both sides ("MODIS land cover"), after the name read on past words that
    # describe nothing to the clause's end ("MERRA-2 hourly surface solar radiation": "radiation" too); paper
    # detection narrows only names read with a version
    past, _ = words_past(text, end, clause_end_at(text, end, limit), catalogue, families)
    return Reading(None, start, end, tuple([w for w in past if w.lower() not in FILLER] + before))


def _name_ends_before(text: str, pos: int, catalogue: DatasetCatalogue) -> bool:
    """Whether a graph product or product-line name (`DatasetCatalogue.mentions`) ends right before text[pos], only
    separators (`SEPARATOR`) between: a version there is that name's."""
    head = text[max(0, pos - 60):pos]
    return any(SEPARATOR.fullmatch(head, end) for _, _, end in catalogue.mentions(head))


# A word written as an instrument's name: capitals, digits and hyphens, two capitals at least ("TES", "ACE-FTS",
# "OSIRIS", the "II" of "SAGE II").
_INSTRUMENT_LIKE = re.compile(r"[A-Z][A-Z0-9\-]*[A-Z][A-Z0-9\-]*")


def _instrument_like(word: str, catalogue: DatasetCatalogue, families: Sequence[str]) -> bool:
    """Whether `word` is written as an instrument's name (`_INSTRUMENT_LIKE`), known to the catalogue or not, and
    describes none of the line's `families` (not "HNO3", "N2O", a member's code)."""
    return bool(_INSTRUMENT_LIKE.fullmatch(word)) and not describes_line(catalogue, word, families)


def _instrument_before(text: str, pos: int, catalogue: DatasetCatalogue, families: Sequence[str]) -> bool:
    """Whether an instrument's name (`_instrument_like`) ends right before the listed version at text[pos], only spaces
    between: the version is that instrument's ("TES v5 and v4.2 MLS", "SAGE II v7.0 and v4.2 MLS")."""
    word = re.search(r"([^\s,;:()]+)\s+$", text[max(0, pos - 40):pos])
    return bool(word) and _instrument_like(word.group(1), catalogue, families)


def _instrument_after(text: str, pos: int, catalogue: DatasetCatalogue, families: Sequence[str]) -> bool:
    """Whether an instrument's name (`_instrument_like`) follows the listed version ending at text[pos], only spaces
    between: the version is that instrument's ("MLS v4.2 and V5 TES", "MLS v4.2 and v7.0 SAGE II")."""
    word = re.match(r"\s+([^\s,;:()]+)", text[pos:pos + 40])
    return bool(word) and _instrument_like(word.group(1).rstrip("."), catalogue, families)


# An instrument's generation glued to its name by a slash ("SBUV/2", "AVHRR/3"): one digit, no version after it.
_GENERATION = re.compile(r"/(\d)(?![\w./])")
# A version alone in parentheses ("(version 3.3)", "(v2.2)", "(retrieval version v3.3)", "(data version 4.2)"): the
# version of what the clause before it names.
PARENTHESISED_VERSION = re.compile(r"\(\s*(?:" + QUALIFIER + r")?(?:" + WORD_OPENER + r"|v\.?\s*)" + NUMBER + r"\s*\)",
                                    re.IGNORECASE)


_SPACES = re.compile(r"\s*")


def _past_restatement(text: str, pos: int, stated: str) -> int:
    """Where the words after a version begin: past the same version restated in parentheses right after it ("version
    2.2 (v2.2) RHi": "RHi" describes the product, the parenthesis only abbreviates the version), else `pos`."""
    again = PARENTHESISED_VERSION.match(text, _SPACES.match(text, pos).end())
    return again.end() if again and stated_sort_key(again.group(1)) == stated_sort_key(stated) else pos


def _collection_before(text: str, start: int, version: re.Match, catalogue: DatasetCatalogue, families: Sequence[str]) -> tuple[str, int] | None:
    """A collection stated right before the name when the version after it is no collection of any candidate: ("3",
    where it starts) for "the collection 3 OMTO3 version 8.5 (v8.5) product", whose candidates have collections 3 and
    4 but no 8.5 (OMI's algorithm version; DOMAIN.md: "OMI 003 -> 004"). A catalogue that has the version after the name
    keeps it (the after-version wins, as before); None when no "collection N" ties to the name (`_joins_name`) or no
    candidate has collection N."""
    held = [key for f in families for key in catalogue.held(f)]
    if catalogued_version(stated_sort_key(version.group(1)), held):
        return None
    found = _version_before(text, start)
    if not found or not found.group(1) or not found.group(0).lower().startswith("collection"):
        return None
    if not _joins_name(text[found.end(1):start], catalogue, families):
        return None
    key = stated_sort_key(found.group(1))
    return (found.group(1), found.start()) if key and catalogued_version(key, held) else None


def _version_before(text: str, start: int) -> re.Match | None:
    """The version stated before the name at text[start] (`_VERSION_BEFORE`, within BEFORE_WINDOW characters), None
    when there is none or the grammar excludes it (`version_grammar.excluded`: "Fig. C6 MOD10A1" names a figure)."""
    found = _VERSION_BEFORE.search(text, max(0, start - BEFORE_WINDOW), start)
    if found is None:
        return None
    opener = found.start() + len(re.match(r"\(?\s*", found.group(0)).group(0)) if found.group(2) else found.start()
    return found if version_at(text, opener) else None


def _algorithm_only(facts: ParagraphFacts, version: re.Match, catalogue: DatasetCatalogue, families: Sequence[str]) -> bool:
    """Whether a version read after a name is an algorithm's version and no collection's: the text calls it an
    algorithm's (`dataset_names.is_algorithm_version`: "OMTO3 v8.5 algorithm"), here or where the same paragraph writes
    the same version ("the OMTO3 v8.5 algorithms [...] while the OMTO3 v8.5 uses OCCP"), and no candidate family has a
    collection of that number (`catalogued_version`). TRMM's "3B42 V7 algorithm" names its collection V7, so it stays
    a dataset version (`ParagraphFacts.called_algorithm_s`)."""
    key = stated_sort_key(version.group(1))
    if not key or not facts.called_algorithm_s(version.group(0).strip()):
        return False
    return not any(catalogued_version(key, catalogue.held(f)) for f in families)


def _joins_name(between: str, catalogue: DatasetCatalogue, families: Sequence[str]) -> bool:
    """Whether the words between a version and the name after it tie the version to that name: each a FILLER word,
    "of" or a word describing a candidate ("version 7 of the 3B42 data set", "V06 IMERG"). A verb or a conjunction
    ties it to what came before (hostile pass: "TRMM 3B42 Version 7 precipitation product and MERRA-2" read a MERRA-2
    version 7, "IMERG V06 product outperforms TRMM 3B42" a TRMM 3B42 V06)."""
    return all(word.lower() in FILLER or word.lower() == "of" or describes_line(catalogue, word, families)
               for word in re.findall(r"[^\W_][\w\-]*", between))


def _words_before(text: str, start: int, catalogue: DatasetCatalogue, families: Sequence[str]) -> list[str]:
    """Up to _WORDS_BEFORE describing words right before a name, nearest first ("Half-hourly IMERG")."""
    words = []
    head = text[max(0, start - 60) : start]
    for word in reversed(re.split(r"[\s,;:()\[\]/]+", head.rstrip())):
        if not word or len(words) >= _WORDS_BEFORE:
            break
        if word.lower() in FILLER:
            continue
        if not describes_line(catalogue, word, families):
            break
        words.append(word)
    return words


def without_variants(families: list[str]) -> list[str]:
    """A variant stream is another collection's short name plus a suffix (GLDAS_CLSM025_DA1_D_EP, the early
    product of GLDAS_CLSM025_DA1_D; SPL3SMP_E, the enhanced SPL3SMP): a paper that names neither means the base."""
    return [f for f in families if not any(f.startswith(other + "_") for other in families if other != f)]


@dataclass(frozen=True)
class Named:
    """One name read with a version: the name (family or alias), as written, the version, the candidate families
    (narrowed by the describing words and the version), whether some candidate has that version, where, and whether
    the candidates are evidence (a family's own name, a version some of them have, describing words that ruled some
    members out or describe the one left) rather than the graph holding only one member of a product line."""

    name: str
    written: str
    stated: str
    candidates: tuple[str, ...]
    with_version: bool
    quote: str
    page: int
    section: str
    decided: bool = True


def name_readings(text: str, catalogue: DatasetCatalogue, facts: ParagraphFacts | None = None) -> list[tuple[str, int, int, Reading]]:
    """Each graph product or product-line name in `text` (`DatasetCatalogue.mentions`: (name, start, end), a key of
    `catalogue.members`) with what the words around it say (`_read`: the stated version, the describing words), each
    name read up to where the next begins. The one reading of names that paper detection (`detect_datasets`) and a
    research question's scope (`briefs.questions.datasets_named_in` through `named_products`) share. Products listed
    together share the list's one version (`_shared_versions`). `facts`: the text's `ParagraphFacts` when the caller
    has read it already (`datasets._read_unit`), else read here."""
    spans = list(catalogue.mentions(text))
    facts = facts or ParagraphFacts(text)
    readings = [(name, start, end, _read(facts, start, end, spans[i + 1][1] if i + 1 < len(spans) else len(text), name, catalogue))
                for i, (name, start, end) in enumerate(spans)]
    return _shared_versions(text, readings, catalogue)


# What joins the names of a list of products ("MOD11A1, MYD11A1 and MOD13A2", "AIRS or IASI"); not "/", which joins the
# parts of one product ("OMI/MLS").
_PRODUCT_LIST_JOIN = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|and\s+|or\s+|&\s*)", re.IGNORECASE)


def _shared_versions(text: str, readings: list[tuple[str, int, int, Reading]], catalogue: DatasetCatalogue) -> list[tuple[str, int, int, Reading]]:
    """`readings` where products listed together, names joined by commas, "and", "or" (`_PRODUCT_LIST_JOIN`), share
    the one version stated for the list: after its last name ("MOD11A1 and MYD11A1 collection 6") or before its first
    ("Collection 6 MOD11A1 and MYD11A1"). A name read without a version of its own takes its neighbour's in the list
    when that version is one its families hold (`catalogued_version`: a shared version is a weaker reading than one
    stated with the name, so the catalogue must attest it); an instrument collection (MODIS) lends its version by its
    own rule, not here. Each name keeps its own span and describing words."""
    out = list(readings)

    def share(index: int, neighbour: int) -> bool:
        name, start, end, reading = out[index]
        stated = out[neighbour][3].stated
        key = stated_sort_key(stated) if stated else ()
        if reading.stated is None and key and COLLECTION not in (catalogue.kind.get(name), catalogue.kind.get(out[neighbour][0])) \
                and any(catalogued_version(key, catalogue.held(f)) for f in catalogue.members[name]):
            out[index] = (name, start, end, replace(reading, stated=stated))
            return True
        return False

    for index in range(len(out) - 2, -1, -1):
        # the version after the list's last name, passed back along the list
        _, _, end, _ = out[index]
        _, next_start, _, following = out[index + 1]
        if following.stated is not None and following.first >= next_start and _PRODUCT_LIST_JOIN.fullmatch(text, end, next_start):
            share(index, index + 1)
    passed_on = False
    for index in range(1, len(out)):
        # the version before the list's first name, passed on along the list
        _, start, _, _ = out[index]
        _, previous_start, previous_end, previous = out[index - 1]
        before = passed_on or previous.first < previous_start
        passed_on = bool(previous.stated is not None and before and _PRODUCT_LIST_JOIN.fullmatch(text, previous_end, start) and share(index, index - 1))
    return out


@dataclass(frozen=True)
class MemberMentions:
    """A paragraph's members of the product lines it names, read once (`member_mentions`) for the rules to query: for
    each line, [(start, end, family)] in reading order, each member written by the catalogue's own word for it
    (`dataset_names.species_mentions` over the whole paragraph). Reading the paragraph once per line, not once per
    mention or per slice, keeps detection linear in a paragraph's mentions (hostile pass: a 33 KB paragraph of 400
    repeats took 70 CPU-s, each version's reading re-reading the whole paragraph)."""

    by_line: Mapping[str, tuple[tuple[int, int, str], ...]]

    def of(self, name: str, start: int = 0, end: int | None = None) -> list[tuple[int, int, str]]:
        """The members of line `name` written within [start, end) of the paragraph (end None: to its end); [] for a
        name that is no line or names no member."""
        found = self.by_line.get(name, ())
        last = len(found) if end is None else bisect_left(found, (end,))
        return [m for m in found[bisect_left(found, (start,)):last] if end is None or m[1] <= end]


def member_mentions(text: str, readings: Sequence[tuple[str, int, int, Reading]], catalogue: DatasetCatalogue) -> MemberMentions:
    """The members of each product line among `readings` (`name_readings` of `text`) that `text` names by the
    catalogue's own words for them (`DatasetCatalogue.species`, `species_mentions`), read once per line."""
    by_line = {}
    for name in dict.fromkeys(name for name, *_ in readings):
        names, codes = catalogue.species(name)
        if names or codes:
            by_line[name] = tuple(species_mentions(text, names, codes))
    return MemberMentions(by_line)


def parameter_list(catalogue: DatasetCatalogue, name: str, words: Sequence[str]) -> list[str]:
    """The members of a product line a list of parameter words names, one per word ("MLS version 3 temperature and water
    vapour data": ML2T and ML2H2O): each describing word that, alone, leaves exactly one member (variants left out,
    `without_variants`), when two or more such words leave different members; else [] (one product, or none said).
    Words that leave several members ("Level 3", "daily") say nothing here. In reading order, each member once."""
    members = catalogue.members[name]
    if len(members) < 2:
        return []
    found: list[str] = []
    for word in words:
        if word.lower() in FILLER:
            continue
        left = without_variants([f for f in members if catalogue.vocabulary.describes(word, f)])
        if len(left) == 1 and left[0] not in found:
            found.append(left[0])
    return found if len(found) >= 2 else []


def each_parameter(catalogue: DatasetCatalogue, named: Named, reading: Reading) -> list[Named]:
    """`named`, or one Named per member its parameter list names (`parameter_list`), each with the stated version."""
    parts = parameter_list(catalogue, named.name, reading.words)
    if not parts:
        return [named]
    key = stated_sort_key(named.stated)
    return [replace(named, candidates=(family,), decided=True,
                    with_version=bool(key and catalogued_version(key, catalogue.held(family)))) for family in parts]


# How far (characters) after a version a list of a line's parameters may begin ("version 3.3 products for HOCl, HCl").
LIST_WINDOW = 40
# Between a list of parameters and the line it is measured by: "... data from (the) (Aura) MLS", "profiles of MLS".
_DATA_FROM = re.compile(r"\s+" + DATA_WORD + r"\s+(?:from|by|of)\s+"
                        r"(?:the\s+)?(?:[A-Z][\w\-]*[\s/\-]+)?", re.IGNORECASE)
# A member's data word right after it ("ozone measurements", "ClO profiles"), and what after it names another source
# than the line ("... from SAGE II", "... by the ACE-FTS"): `each_species`' sentence after the version's.
# Only the words for measured data count here, not DATA_WORDS' generic ones ("the humidity product is derived from the
# water vapour and temperature products" names inputs of another product, not products used).
_MEMBER_DATA = re.compile(r"\s+(?:data|measurements?|observations?|pro(?:fi|\ufb01)les?|retrievals?)\b\s*", re.IGNORECASE)
_OTHER_SOURCE = re.compile(r"(?:from|by|of|with)\s+(?:the\s+)?[A-Z]")
# What joins the items of a list of parameters ("HOCl, HCl, HO2 and ClO", "temperature and geopotential height").
LIST_JOIN = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|and\s+|or\s+|/\s*)", re.IGNORECASE)


def each_species(facts: ParagraphFacts, readings: Sequence[tuple[str, int, int, Reading]], mentions: MemberMentions, name: str, reading: Reading,
                 named: Named, catalogue: DatasetCatalogue) -> list[Named]:
    """`each_parameter`, or, for a product line (LINE alias) named with a version outside a caption, one Named per
    member the text names by the catalogue's own words for it (`DatasetCatalogue.species`: the entry title's parameter
    name, "geopotential height", "water vapour", or the short name's code, "HCl", "RHi"), each with the stated version:

    1. a list of two or more members right after the version (within LIST_WINDOW characters, in its clause): "the
       version 3.3 products for HOCl, HCl, HO2 and ClO" names four products, not the first one;
    2. else, when the reading's own words leave several members: the members named in the version's sentence ("Water
       vapour is initialised according to MLS observations (version 3.3)"), not one written right after another
       source's name ("using ECMWF temperature": `other_source_s`);
    3. else the members another mention of the same line in the paragraph, without a version, is read with: a list
       of members, a data word, "from", "by" or "of", then the name ("we use temperature and geopotential height data
       from MLS [...]. Version 4 MLS level 2 data are used"); a member merely written in another sentence ("The MLS
       HNO3 is noisy.") is not borrowed;
    4. else the members the sentence right after the version's names each with a data word right after it
       (`_MEMBER_DATA`: "We use the Aura MLS measurements version (v) 3.3. The ozone measurements have [...], and the
       ClO measurements [...]"), unless "from", "by", "of" or "with" and a capitalised word other than the line's name
       follow that data word ("Ozone profiles from SAGE II": `_OTHER_SOURCE`);
    5. else, when the version's sentence states the authors' use (`use_stated`: "Here we use MLS v2.2 data"), the
       members the paragraph names after that sentence, or between the line's name and a version stated apart from it
       ("measured with Aura-MLS. This instrument measures [...] ozone [...]. We obtained the version 3.3 data"), in
       sentences that cite no work (`cites_work`) and name no other instrument (`other_instrument`).
    A sentence or paragraph that names no member leaves the mention as it was (ambiguous stays ambiguous). `mentions`:
    the members the text names (`member_mentions` of its text and `readings`, read once for the paragraph); `facts`: the
    text read once (`ParagraphFacts`)."""
    text = facts.text
    parts = each_parameter(catalogue, named, reading)
    found = mentions.of(name)
    if len(parts) > 1 or not found:
        return parts
    lists: list[list[tuple[int, int, str]]] = []
    for mention in found:
        if lists and (joined := LIST_JOIN.match(text, lists[-1][-1][1])) and joined.end() == mention[0]:
            lists[-1].append(mention)
        else:
            lists.append([mention])
    families: list[str] = []
    after = [group for group in lists if reading.last <= group[0][0] <= reading.last + LIST_WINDOW and not CLAUSE_END.search(text, reading.last, group[0][0])]
    if after and len({family for _, _, family in after[0]}) >= 2:
        families = [family for _, _, family in after[0]]
    elif len(named.candidates) > 1:
        bounds = facts.sentences.bounds

        def sentence(pos: int) -> tuple[int, int]:
            return max(b for b in bounds if b <= pos), min((b for b in bounds if b > pos), default=len(text))

        left, right = sentence(reading.first)
        right = max(right, sentence(max(reading.first, reading.last - 1))[1])
        closing = parenthesis_end(text, reading.first, reading.last, right, facts.open_parentheses)
        if closing < right:
            # a name inside a parenthesis ("(as in MLS v4.2) ozone ..."): only the parenthesis speaks of it
            left, right = max(left, text.rfind("(", left, reading.first)), closing
        families = [family for begin, _, family in found if left <= begin < right and not other_source_s(text, begin, catalogue, name)]
        if not families:
            # "temperature and geopotential height data from MLS": a list of members tied to the name by a data word
            starts = [start for other, start, _, r in readings if other == name and r.stated is None]
            families = [family for group in lists for start in starts
                        if _DATA_FROM.fullmatch(text, group[-1][1], start) for _, _, family in group]
        if not families and right < len(text):
            # the sentence right after the version's goes on to describe its data, each member with a data word ("We use
            # the MLS measurements version 3.3. The ozone measurements have ..., and the ClO measurements ..."): not
            # a member whose data word ties it to another source ("Ozone profiles from SAGE II ...")
            following = sentence(right)[1]
            names_at = {first for other, first, _, _ in readings if other == name}
            for begin, finish, family in found:
                if right <= begin < following and (tied := _MEMBER_DATA.match(text, finish)):
                    source = _OTHER_SOURCE.match(text, tied.end())
                    if source is None or source.end() - 1 in names_at:
                        families.append(family)
        if not families and use_stated(text[left:right]):
            # the version's sentence states the authors' use of the line's data and names no member ("Here we use MLS v2.2
            # data."): the members the paragraph goes on to describe, or describes between the line's name and a version
            # stated apart from it, in sentences that cite no work and name no other instrument ("The estimated precision
            # of a retrieved profile of N2O is ...", not "Validation of MLS HNO3 is given by Smith et al. (2007)")
            named_at = sentence(max((first for other, first, _, _ in readings if other == name and first <= reading.first), default=left))[0]
            families = [family for begin, _, family in found if (begin >= right or named_at <= begin < left)
                        and not cites_work(text[slice(*sentence(begin))]) and not other_instrument(text, *sentence(begin), catalogue, name)]
    families = list(dict.fromkeys(families))
    if not families:
        return parts
    key = stated_sort_key(named.stated)
    return [replace(named, candidates=(family,), decided=True,
                    with_version=bool(key and catalogued_version(key, catalogue.held(family)))) for family in families]


# The sections of a paper's front matter: its title block (the text before the first heading) and its abstract.
_FRONT_MATTER = frozenset({"", "abstract"})


def subject_members(paragraphs: Sequence[tuple[str, str]], catalogue: DatasetCatalogue) -> dict[str, frozenset[str]]:
    """The members of each product line that a paper's front matter names as its subject: {line: families}, each
    family written by the catalogue's own word for it (`species_mentions`: "ozone", "N2O", "BrO") in a sentence of the
    title block or the abstract that names the line too and cites no work (`cites_work`: the paper's own statement,
    not others' findings): "Validation of the merged dataset is performed by comparison with ozone profiles from MLS",
    "observations from ACE-FTS (CH4 and N2O) and MLS (N2O)". `paragraphs`: (section, text) in reading order; only those
    whose section is the title block's ("") or "Abstract" are read. Lines whose members the front matter does not name
    are absent. A version the paper states for the line with no member named reaches these members
    (`datasets.detect_datasets`), never members named only in the body, which may be others' work."""
    subjects: dict[str, set[str]] = {}
    for section, text in paragraphs:
        if section.strip().lower() not in _FRONT_MATTER:
            continue
        bounds = Sentences(text).bounds
        for left, right in zip(bounds, bounds[1:]):
            sentence = text[left:right]
            if cites_work(sentence):
                continue
            for name in dict.fromkeys(name for name, *_ in name_readings(sentence, catalogue)):
                names, codes = catalogue.species(name)
                subjects.setdefault(name, set()).update(family for _, _, family in species_mentions(sentence, names, codes))
    return {name: frozenset(families) for name, families in subjects.items() if families}


# What may follow a version in parentheses that closes a list: the clause's or the sentence's end.
_CLOSES_CLAUSE = re.compile(r"\s*(?:[.;,:]|$)")


def members_listed_with_version(facts: ParagraphFacts, readings: Sequence[tuple[str, int, int, Reading]], members: MemberMentions, catalogue: DatasetCatalogue,
                                 page: int, section: str) -> tuple[list[Named], list[tuple[int, int]]]:
    """Members of a product line (LINE alias) a list names that a version alone in parentheses closes (the clause or
    the sentence ends right after it): "BASCOE assimilates the MLS retrievals. It takes O3, HNO3, H2O, HCl, and N2O
    (v2.2)." names five products at v2.2. The list is two or more members written with the catalogue's own words for
    them (`species_mentions`: parameter name or code), joined by commas, "and", "or" or "/" (`LIST_JOIN`), right
    before the parenthesis (`PARENTHESISED_VERSION`, not an algorithm's version); the line is the nearest name before
    the list in its sentence or the sentence before, read without a version of its own, and no other name stands
    between. One Named per member, decided, with the version; a list of one member says nothing here (a version in
    parentheses after one word is `_read`'s or `detached_versions`' reading). Also the spans read (list to parenthesis),
    so that no member code is listed again as a product of its own ("N2O (v2.2)"). `members`: the paragraph's member
    mentions (`member_mentions`); `facts`: the paragraph read once (`ParagraphFacts`)."""
    text = facts.text
    found: list[Named] = []
    spans: list[tuple[int, int]] = []
    bounds = facts.sentences.bounds
    for closing in PARENTHESISED_VERSION.finditer(text):
        if not _CLOSES_CLAUSE.match(text, closing.end()) or is_algorithm_version(text, closing.end()):
            continue
        left = max(b for b in bounds if b <= closing.start())
        reach = max((b for b in bounds if b < left), default=0)
        before = [(name, start, end, r) for name, start, end, r in readings if reach <= start and end <= closing.start()]
        if not before:
            continue
        name, start, end, reading = before[-1]
        if reading.stated is not None or catalogue.kind.get(name) != LINE:
            continue
        mentions = members.of(name, end, closing.start())
        group: list[tuple[int, int, str]] = []
        for mention in reversed(mentions):
            # the list whose last member the parenthesis follows, read back item by item
            if not group:
                if text[mention[1]:closing.start()].strip():
                    break
            elif not ((joined := LIST_JOIN.match(text, mention[1])) and joined.end() == group[0][0]):
                break
            group.insert(0, mention)
        families = list(dict.fromkeys(family for _, _, family in group))
        if len(families) < 2:
            continue
        stated = closing.group(1)
        key = stated_sort_key(stated)
        quote = joined_quote(facts.sentences, (start, end), (group[0][0], closing.end()))
        found += [Named(name, text[start:end].strip(), stated, (family,),
                         bool(key and catalogued_version(key, catalogue.held(family))), quote, page, section)
                  for family in families]
        spans.append((group[0][0], closing.end()))
    return found, spans


def with_sentence_words(facts: ParagraphFacts, readings: Sequence[tuple[str, int, int, Reading]], index: int, catalogue: DatasetCatalogue) -> Reading:
    """The reading of `readings[index]`, with the describing words of the same product line's earlier readings in its
    sentence that were read without a version, when its own words leave several members: a sentence that names the
    line twice, once with the parameter and once with the version ("The MLS ozone is from MLS version 4.2 Level 2
    data"), names one product. Its own words are kept first and the rest are weighed with them (`narrow`), so words
    that already pick one member are never overruled. `facts`: the paragraph read once (`ParagraphFacts`)."""
    name, start, _, reading = readings[index]
    members = catalogue.members[name]
    if reading.stated is None or len(members) < 2 or len(without_variants(catalogue.vocabulary.narrow(members, reading.words))) < 2:
        return reading
    left = facts.sentences.span(start)[0]
    earlier = [w for other, first, _, r in readings[:index] if other == name and first >= left and r.stated is None for w in r.words]
    return replace(reading, words=reading.words + tuple(earlier)) if earlier else reading


def with_table_rows(text: str, name: str, start: int, reading: Reading, catalogue: DatasetCatalogue) -> Reading:
    """The reading of a product line named with a version in a table caption's first sentence (its title: "Species
    retrieved from MLS v4.2 and used here."), with the words of the rest of the caption (the table's rows, which the
    parser keeps with its caption) when its own words leave several members and the rows name two or more members,
    each by a word that names it alone (`parameter_list`: a row "O3 ...", a row "HNO3 ..."): such a table lists the
    products of that line at that version. A name read after the first sentence (a column heading "(for MLS v2.2)")
    is not given the rows."""
    members = catalogue.members[name]
    if reading.stated is None or len(members) < 2 or parameter_list(catalogue, name, reading.words):
        return reading
    if len(without_variants(catalogue.vocabulary.narrow(members, reading.words))) < 2:
        return reading
    title_end = SENTENCE.search(text)
    if title_end is None or start >= title_end.start():
        return reading
    rows = [w.group(0).rstrip(".") for w in WORD.finditer(text, title_end.end())]
    return replace(reading, words=reading.words + tuple(rows)) if parameter_list(catalogue, name, rows) else reading


# What ties a list of a line's members to the line named right after it ("HCl, N2O, and HNO3 with the MLS
# observations", "ozone and temperature from MLS", "N2O data from the Aura MLS"): `members_compared_with`.
_TIED_TO_LINE = re.compile(r"\s*(?:" + DATA_WORD + r"\s+)?(?:with|from|by|of|against)\s+"
                           r"(?:the\s+)?(?:[A-Z][\w\-]*[\s/\-]+)?", re.IGNORECASE)


def members_compared_with(facts: ParagraphFacts, readings: Sequence[tuple[str, int, int, Reading]], members: MemberMentions,
                           catalogue: DatasetCatalogue, page: int, section: str) -> list[tuple[str, str, str, str, int, str]]:
    """The members of a product line (LINE alias) named without a version that a list of the catalogue's own words for
    them (`species_mentions`) ties to the line's name right after it ("we compared the simulated HCl, N2O, and HNO3
    with the MLS observations", `_TIED_TO_LINE`): [(line, member family, the line's name as written, quote, page,
    section)].
    `detect_datasets` gives them the line's version when the paper states exactly one version of that line: a version
    stated for "the Aura MLS measurements" as a whole is that of each species the paper compares with them. `members`:
    the paragraph's member mentions (`member_mentions`), queried in the 200 characters before each name; `facts`: the
    paragraph read once (`ParagraphFacts`)."""
    text = facts.text
    found = []
    for name, start, end, reading in readings:
        if reading.stated is not None or catalogue.kind.get(name) != LINE:
            continue
        mentions = members.of(name, max(0, start - 200), start)
        group: list[tuple[int, int, str]] = []
        for mention in reversed(mentions):
            # the list whose last member the tie to the name follows, read back item by item
            if not group:
                if not _TIED_TO_LINE.fullmatch(text, mention[1], start):
                    break
            elif not ((joined := LIST_JOIN.match(text, mention[1])) and joined.end() == group[0][0]):
                break
            group.insert(0, mention)
        for begin, finish, family in group:
            found.append((name, family, text[start:end].strip(), sentence_quote(facts.sentences, begin, end), page, section))
    return found
