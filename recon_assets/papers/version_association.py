"""Which product line a version belongs to when the words next to a name do not say it: versions a paragraph
states apart from the line's name (`detached_versions`), the versions of cited works (`cited_work_s`,
`yields_to_used`) and the statements of the authors' own use that decide between them. Functions over a paragraph
read once (`ParagraphFacts`: its text and what its sentences say) and its name readings (`name_readings.name_readings`:
[(name, start, end, Reading)]); the catalogue is read, never changed."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cached_property
from typing import TYPE_CHECKING

from recon_assets.papers.dataset_names import FILLER, WORD, is_algorithm_version, open_parentheses, species_mentions
from recon_assets.papers.phrases import (
    CLAUSE_END, COLLECTION, DATA_WORD, Reading, Sentences, describes_line, is_data_word, name_key, stated_sort_key,
    words_trailing,
)
from recon_assets.papers.version_grammar import WORDED_VERSION, versions_in

if TYPE_CHECKING:
    from recon_assets.papers.dataset_catalogue import DatasetCatalogue

# A clause whose subject is a cited work, its verb right after the citation ("while Smith et al. (2006) discuss initial
# validation of MLS v1.5 data", "Jones and Lee (2010a) compared ..."): what it names with a version is that work's use.
_CITED_SUBJECT = re.compile(r"(?:^|[,;:]\s*|\b(?:while|whereas|but|and)\s+)(?:[a-z]+\s+)?[A-Z][\w’'\-]+(?:\s+et\s+al\.|\s+and\s+[A-Z][\w’'\-]+)?"
                            r"\s+\((?:19|20)\d{2}[a-z]?(?:,\s*[a-z])?\)\s+[a-z]+\b")
# What says a cited work's data are the paper's own ("Smith et al. (2007) found that the version 3 data (used in this
# study) are biased"): the version stays the paper's.
_USED_HERE = re.compile(r"\bused\s+(?:here|in\s+this\s+(?:study|work|paper))\b", re.IGNORECASE)


class ParagraphFacts:
    """A paragraph read once for the rules that tell whose a version is: its sentences (`sentences`); for each span of
    sentences the rules ask about (left, right: `Sentences.span` bounds, one sentence, a reading's sentences or all
    before one), where its clauses whose subject is a cited work read their verb (`cited_subject_ends`), what it says
    (`says`) and the versions it states (`versions`); how many parentheses are open at each place
    (`open_parentheses`); and whether it calls a version, as written, an algorithm's (`called_algorithm_s`). Each is
    worked out on the first question and kept with the paragraph, as every mention of a paragraph asks about the same
    few sentences and versions (hostile passes: a paragraph with no full stop was re-read for each of its names).
    Built once per paragraph (`datasets._read_unit`, which gives it to `name_readings.name_readings`) and passed to
    `cited_work_s`, `detached_versions`, `yields_to_used`, `reported_not_used` and the readers of `name_readings`
    (`each_species`, `with_sentence_words`, `members_listed_with_version`, `members_compared_with`).

    Args:
        text: the paragraph as its names were read (`phrases.read_as_ascii`).
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self._cited: dict[tuple[int, int], tuple[int, ...]] = {}
        self._says: dict[tuple[int, int], tuple[bool, bool, bool, bool]] = {}
        self._versions: dict[tuple[int, int], list[re.Match]] = {}
        self._algorithm: dict[str, bool] = {}

    @cached_property
    def sentences(self) -> Sentences:
        """The paragraph's sentences (`phrases.Sentences`)."""
        return Sentences(self.text)

    @cached_property
    def open_parentheses(self) -> list[int]:
        """`dataset_names.open_parentheses` of the paragraph: the depth at each place, index 0 to len(text)."""
        return open_parentheses(self.text)

    def called_algorithm_s(self, written: str) -> bool:
        """Whether the paragraph calls the version `written` (as written: "v8.5") an algorithm's anywhere
        (`dataset_names.is_algorithm_version`)."""
        if written not in self._algorithm:
            self._algorithm[written] = any(is_algorithm_version(self.text, m.end())
                                           for m in re.finditer(r"(?<![\w.])" + re.escape(written) + r"(?![\w.])", self.text))
        return self._algorithm[written]

    def cited_subject_ends(self, left: int, right: int) -> tuple[int, ...]:
        """Where each clause whose subject is a cited work (`_CITED_SUBJECT`) has read its verb in text[left:right], one
        sentence; () when the sentence says the data are the paper's own (`_USED_HERE`)."""
        if (left, right) not in self._cited:
            used_here = _USED_HERE.search(self.text, left, right)
            self._cited[left, right] = () if used_here else tuple(left + cited.end() for cited in _CITED_SUBJECT.finditer(self.text[left:right]))
        return self._cited[left, right]

    def says(self, left: int, right: int) -> tuple[bool, bool, bool, bool]:
        """What text[left:right] says: (another retrieval's a priori, `_PRIOR_INPUT`; the authors' use, `use_stated`; a
        finding not in the authors' words, `_FINDING` without `_OWN_FINDING`; a change, `_CHANGED`)."""
        if (left, right) not in self._says:
            sentence = self.text[left:right]
            self._says[left, right] = (bool(_PRIOR_INPUT.search(sentence)), use_stated(sentence),
                                       bool(_FINDING.search(sentence) and not _OWN_FINDING.search(sentence)), bool(_CHANGED.search(sentence)))
        return self._says[left, right]

    def versions(self, left: int, right: int) -> list[re.Match]:
        """`versions_in` text[left:right], opened by a letter or by a word."""
        if (left, right) not in self._versions:
            self._versions[left, right] = versions_in(self.text, left, right) + versions_in(self.text, left, right, worded=True)
        return self._versions[left, right]


def cited_work_s(facts: ParagraphFacts, start: int) -> bool:
    """Whether the name at text[start] stands in a clause whose subject is a cited work (`_CITED_SUBJECT`: the
    citation opens its sentence or clause, after a comma, semicolon, "while", "whereas", "but" or "and", and its verb
    follows it; no comma, semicolon or full stop between it and the name), so the version read with the name is that
    work's ("Validation of the v2.2 data is described by Lambert et al. (2007), while Froidevaux et al. (2006) discuss
    initial validation of MLS v1.5 data products": not a use of v1.5), unless its sentence says the data are the paper's
    own (`_USED_HERE`: "(used in this study)"). A citation after its verb ("is described by Lambert et al. (2007)") is
    no subject. `facts`: the paragraph's."""
    text = facts.text
    return any(end <= start and not CLAUSE_END.search(text, end, start) for end in facts.cited_subject_ends(*facts.sentences.span(start)))


# A data word right before a version stated without its name, a comma between at most ("The O3 profiles, version v2.2,",
# "ozone data version 3.3"): the version is that data's.
_DATA_WORD_BEFORE = re.compile(r"\b" + DATA_WORD + r"\s*,?\s*$", re.IGNORECASE)
# A data word anywhere in a sentence ("The vertical resolution of ozone profiles is 2.5 km"): `_named_through_members`.
_DATA_WORD_IN = re.compile(r"\b" + DATA_WORD, re.IGNORECASE)
# A data word after a version stated without its name, in its clause, within five words ("Version 3.3 Level 2 ozone
# data", "version 3 temperature and water vapour data").
_DATA_WORD_AFTER = re.compile(r"(?:[\s\-]+[^\s,;.]+){0,5}?[\s\-]+" + DATA_WORD, re.IGNORECASE)
# The words right before a version word that say it is a data product's ("data version v3.3", "product version 2").
_DATA_QUALIFIERS = frozenset({"data", "dataset", "product"})


# A parenthesis that opens with data words and holds a version ("(data product version 3.3)"), closed right after the
# version at the end of its sentence: the version of what the sentence states was used. Not a bare "(version 3.3)",
# which may be any thing's ("The model (version 3.3) has ...").
_DATA_PARENTHESIS = re.compile(r"\(\s*(?:" + DATA_WORD + r"\s+){1,2}$", re.IGNORECASE)
_PARENTHESIS_CLOSE = re.compile(r"\s*\)\s*(?:[.;]|$)")
# What ties a version to a name later in its sentence: "from", "of" or "by", at most three words before the name
# ("... data products obtained from the IR radiances of the AIRS sounder"), not "compared with MLS".
_SOURCE_BEFORE_NAME = re.compile(r"\b(?:from|of|by)\s+(?:[\w\-]+\s+){0,3}$", re.IGNORECASE)
# Words that may stand right before a version stated without its name, so that the version opens its phrase: a
# determiner ("the version 3 data", "its version 3.3"), a preposition ("from version 4.2") or a verb papers state a use
# with ("we used version 3.3", "we took version 4.2"); not a noun that would own it ("the model version 3.3").
_DETERMINERS = frozenset({"the", "a", "an", "its", "their", "this", "that", "these", "those", "both", "of", "from", "with", "in", "on", "is", "are",
                          "was", "were", "use", "used", "uses", "using", "take", "took", "taken", "employ", "employed", "adopt", "adopted",
                          "apply", "applied", "choose", "chose", "select", "selected", "download", "downloaded", "obtain", "obtained",
                          "analyse", "analysed", "analyze", "analyzed", "process", "processed"})
# The verbs of use among them: one word in lower case may stand between such a verb and the version ("We use daily
# version 2.2 data", "we used monthly version 4 fields"; not "the model version 3.3": "the" is no verb).
_USE_VERBS = frozenset({"use", "used", "uses", "using", "take", "took", "employ", "employed", "adopt", "adopted", "apply", "applied", "choose",
                        "chose", "select", "selected", "download", "downloaded", "obtain", "obtained", "analyse", "analysed", "analyze", "analyzed"})
# "version N of <thing>": the version is the thing's (`detached_versions` keeps it only when the thing is a data word or
# describes the line: "version 3.3 of the data", not "version 2 of our model").
_OF_THING = re.compile(r"\s+of\s+(?:(?:the|a|an|this|that|our|their|its)\s+)?([^\s,;.()]+)", re.IGNORECASE)
# Possessives that make a phrase the authors' own ("our ozone profiles, version 3", "my retrieval version 2"): its version
# is theirs ("we use version 3.3 data" states a use, and stays).
_OWN_WORDS = frozenset({"our", "my"})


_ACRONYM = re.compile(r"[A-Z][A-Z-]{2,}")
# A sentence in which the authors state their own use ("Here, we use the v4.2 retrievals", "we used version 3.3"): a
# version it states without a name may belong to a line named more than a sentence before (`_named_through_members`).
# So does a sentence that makes the data the study's subject or input ("This study relies on MLS v4.2", "this study
# analyses", "is the basis of this work", "Here MLS v4.2 ozone is compared against ozonesondes", "We compute the
# differences between MLS v4.2 ozone and ozonesondes").
_WE_USE = re.compile(r"\bwe\s+(?:\w+\s+)?(?:use|used|take|took|employ|employed|analy[sz]e|analy[sz]ed|obtain|obtained|download|downloaded"
                     r"|compute|computed|calculate|calculated|compare|compared)\b"
                     r"|\b(?:is|are|was|were)\s+(?:used|considered|analy[sz]ed|employed|compared)\b"
                     r"|\b(?:this|the\s+present|our)\s+(?:study|work|paper|analysis)\s+(?:\w+\s+)?(?:uses|used|relies|relied|analy[sz]es|analy[sz]ed|employs|is\s+based)\b"
                     r"|\b(?:basis|core)\s+of\s+(?:this|the\s+present|our)\s+(?:study|work|paper|analysis)\b", re.IGNORECASE)
# A citation in a sentence ("validated in Santee et al. (2008)", "(Lambert et al., 2007)"; not a date, "July 2004"):
# what it states a version for may be the cited work's. An author's name may hold a diacritic the PDF's text layer
# writes apart from its letter ("Br¨uhl et al., 1996" for Brühl).
_AUTHOR = r"[A-Z][\w’'\-¨´`ˆ˜¸]+"
CITATION_TEXT = _AUTHOR + r"(?:\s+et\s+al\.?|\s+and\s+" + _AUTHOR + r")?(?:,\s+|\s+\()(?:19|20)\d{2}[a-z]?\b"
_CITATION = re.compile(CITATION_TEXT)
# What joins two versions of one list ("Both v2.2 and v3.3 water vapour products", "v2.2 or v3.3"): the second opens
# its phrase as the first does.
_VERSION_LIST_JOIN = re.compile(r"\s*(?:,\s*)?(?:and|or|&|,|/)\s*", re.IGNORECASE)


def detached_versions(facts: ParagraphFacts, readings: Sequence[tuple[str, int, int, Reading]], catalogue: DatasetCatalogue,
                      paragraph_wide: bool = False) -> list[tuple[str, int, int, Reading]]:
    """Versions a paragraph states for a product line without repeating its name, by proximity: a version of the
    grammar (`version_grammar.VERSION`, worded or opened by a letter, not `excluded`, not a number glued to a word as
    "XYZ.004"), in no name's reading and no algorithm's
    (`dataset_names.is_algorithm_version`), goes to the nearest name before it in its sentence, else in the sentence
    before ("The MLS instrument scans the limb to retrieve the ozone profile. Version 3.3 data on the 38 layers were
    used"; anywhere before it in the paragraph when `paragraph_wide`, a heading that names the line leading the
    paragraph; further back when its sentence states the authors' use, `use_stated`: "we use", "we obtained", "are
    considered", "used here", and each sentence between names a member of the line, `_named_through_members`, or its own clause names
    one, `_member_in_clause`), else to the one name of its sentence after it behind "from", "of" or "by" (`_SOURCE_BEFORE_NAME`: "the
    level 3 version 5 daily data products obtained from the radiances of the AIRS sounder"). The name must have been
    read without a version (a LINE alias or a family, not an instrument COLLECTION), and the paragraph must not have
    stated the same version before it first names the line ("the version 1.0 data products. For version 1.0, comparisons
    with the HALOE instrument [...] compared the version 1.0 temperature profiles": another instrument's version,
    restated); after it, the same version is the line's own, restated (a table run into the paragraph, "MLS MIPAS SMR
    HALOE L2 version v2.2 [...] v19", before "The HALOE processing version used in this study is the third public
    release (V19). Version 19 CH4 data are provided by": paper 84).
    Each is (name, its start, its end, a Reading of the version); a version a cited work validated yields to the one
    the authors use (`yields_to_used`).
    The version is the name's only when the words around it make it no other thing's:
    - "version N of X" names X's version: kept only when X is a data word or describes the line (`_OF_THING`: not
      "Version 3.3 of the scheme", "version 2 of our model");
    - it closes, at its sentence's end, a parenthesis that opens with data words (`_DATA_PARENTHESIS`: "temperature and
      water are used (data product version 3.3)"; never a bare "(version 3.3)", any thing's); or
    - it stands in apposition to a data word (`_DATA_WORD_BEFORE`) whose phrase, from its clause's start, names a member
      of the line, and the line is named later in its sentence behind "from", "of" or "by": "The O3 profiles, version
      v2.2, derived from MLS measurements"; or
    - it is said to be data's, by a data word right before it (`_DATA_QUALIFIERS` before a version word: "data version
      v3.3", not "retrieval version 3.5", an algorithm's as often; any data word before a letter's: "profiles v19"), a data word
      after it in its clause (`_DATA_WORD_AFTER`: "Version 3.3 data") or a member of the line named in its clause by the
      catalogue's own word for it (`species_mentions`: "Version 3.3 Level 2 nighttime OH"), and it opens its phrase: the
      word before it in its sentence, if any, is a determiner, a preposition, a verb of use (`_DETERMINERS`), a data
      word or describes the line (not "the model version 3.3"), or a verb of use and one word in lower case stand
      before it (`_USE_VERBS`: "We use daily version 2.2 data"), and its phrase is not the authors' own (`_OWN_WORDS`:
      not "Our ozone profiles, version 3") nor, the line named in an earlier sentence, another instrument's (a word in
      capitals the catalogue does not know: "MIPAS temperature data v4.62").
    The reading's describing words: those after the version (`words_trailing`) and those of the name's sentence (the
    "ozone" of "retrieve the ozone vertical profile"), less the version's own ("version 5" is no "2.5 degrees").
    `facts`: the paragraph's (`ParagraphFacts`)."""
    text = facts.text
    found = []
    bounds = facts.sentences.bounds

    def sentence_of(pos: int) -> tuple[int, int]:
        left = max(b for b in bounds if b <= pos)
        return left, min((b for b in bounds if b > pos), default=len(text))

    stated = sorted(versions_in(text, worded=True) + [v for v in versions_in(text) if not WORDED_VERSION.match(text, v.start())],
                    key=lambda v: v.start())
    for version in stated:
        at, after = version.start(), version.end()
        if version.group(0).startswith("."):
            continue  # a number glued to a word ("MOD13Q1.006") is that word's
        if any(r.first <= at < r.last or start <= at < end for _, start, end, r in readings):
            continue
        if is_algorithm_version(text, after):
            continue
        version_left, version_right = sentence_of(at)
        reach = 0 if paragraph_wide else sentence_of(version_left - 1)[0] if version_left else 0
        before = [(name, start, end, r) for name, start, end, r in readings if end <= at and start >= reach]
        if not before and use_stated(text[version_left:version_right]):
            before = _named_through_members(text, readings, catalogue, at, version_left, sentence_of) \
                or _member_in_clause(text, readings, catalogue, at, version_left, version_right)
        in_sentence = [(name, start, end, r) for name, start, end, r in readings if version_left <= start < version_right]
        if before:
            name, start, end, reading = before[-1]
        elif len(in_sentence) == 1 and in_sentence[0][1] >= after and _SOURCE_BEFORE_NAME.search(text, after, in_sentence[0][1]):
            # no name before: the one name of the version's sentence, later in it ("We used the level 3 version 5
            # daily data products [...] obtained from the radiances of the AIRS sounder")
            name, start, end, reading = in_sentence[0]
        else:
            continue
        if reading.stated is not None or catalogue.kind.get(name) == COLLECTION:
            continue
        first_named = min(s for other, s, _, _ in readings if other == name)
        if any(v.start() < min(first_named, at) and stated_sort_key(v.group(1)) == stated_sort_key(version.group(1)) for v in stated):
            continue  # the paragraph stated this version before it first named the line: it restates that earlier thing's
        name_left, name_right = sentence_of(start)
        families = catalogue.members[name]
        clause_stop = CLAUSE_END.search(text, after)
        clause_end = clause_stop.start() if clause_stop else len(text)
        thing = _OF_THING.match(text, after)
        if thing and not (is_data_word(thing.group(1)) or describes_line(catalogue, thing.group(1), families) or thing.group(1).upper() == name.upper()):
            continue
        # "(data product version 3.3)": the version alone with data words in a parenthesis that closes its sentence's
        # statement ("temperature and water are used (data product version 3.3)")
        parenthesis = _DATA_PARENTHESIS.search(text, version_left, at) if _PARENTHESIS_CLOSE.match(text, after) else None
        if parenthesis is None:
            names, codes = catalogue.species(name)
            # "The O3 profiles, version v2.2, derived from MLS measurements": the version in apposition to a data word
            # whose phrase (from its clause's start) names a member of the line, the line named later in the sentence
            # behind "from", "of" or "by" (`_SOURCE_BEFORE_NAME`; not "our ozone profiles, version 3, compared with MLS")
            apposed = _DATA_WORD_BEFORE.search(text, version_left, at)
            phrase_start = max((m.end() for m in CLAUSE_END.finditer(text, version_left, apposed.start())), default=version_left) \
                if apposed else max((m.end() for m in CLAUSE_END.finditer(text, version_left, at)), default=version_left)
            by_apposition = bool(apposed and (names or codes) and species_mentions(text[phrase_start:apposed.start()], names, codes) and any(
                other == name and first >= after and _SOURCE_BEFORE_NAME.search(text, after, first) for other, first, _, _ in in_sentence))
            # else the version is said to be data's: a data word right before it ("data version v3.3", "profiles v19") or after it in
            # its clause ("Version 3.3 data"), or a member of the line named in its clause by the catalogue's own word for
            # it ("Version 3.3 Level 2 nighttime OH"), not "Details of version 2.2 are given by Smith et al."
            opening = [w.group(0).rstrip(",") for w in WORD.finditer(text, version_left, at)]
            data_word = _DATA_WORD_AFTER.match(text, after)
            said = bool((opening and (opening[-1].lower() in _DATA_QUALIFIERS or (is_data_word(opening[-1]) and not WORDED_VERSION.match(text, at))))
                        or (data_word and not CLAUSE_END.search(text, after, data_word.end()))
                        or ((names or codes) and species_mentions(text[after:clause_end], names, codes)))
            # and it opens its phrase, never another thing's ("the model version 3.3") nor the authors' own ("Our ozone
            # profiles, version 3, are compared")
            own = any(w.group(0).lower() in _OWN_WORDS for w in WORD.finditer(text, phrase_start, at))
            # and, the line named in an earlier sentence, its phrase names no other instrument in capitals the catalogue
            # does not know ("coincident MLS profiles. MIPAS temperature data v4.62 are compared": MIPAS's version)
            if start < version_left:
                own = own or other_instrument(text, phrase_start, at, catalogue, name)
            # the second of a list of versions opens its phrase as the first ("Both v2.2 and v3.3 water vapour products")
            listed = any(v.end() <= at and _VERSION_LIST_JOIN.fullmatch(text, v.end(), at) for v in stated)
            # or a verb of use and one word in lower case stand before it ("We use daily version 2.2 data")
            qualified = len(opening) >= 2 and opening[-2].lower() in _USE_VERBS and opening[-1].islower()
            opens = not opening or listed or qualified or opening[-1].lower() in _DETERMINERS or is_data_word(opening[-1]) \
                or describes_line(catalogue, opening[-1], families)
            if not by_apposition and (own or not opens or not said):
                continue
        trailing = words_trailing(text, after, clause_end, catalogue, families)
        # the version's own words are no describing words ("version 5" in the name's sentence is no "2.5 degrees")
        around = [w.group(0).rstrip(".") for w in WORD.finditer(text, name_left, name_right) if not (at <= w.start() < after)]
        describing = [w for w in around if w.lower() not in FILLER and w.upper() != name.upper() and describes_line(catalogue, w, families)]
        first = parenthesis.start() if parenthesis else at
        found.append((name, start, end, Reading(version.group(1), first, after, tuple(trailing + describing))))
    return [(name, start, end, r) for name, start, end, r in found if not yields_to_used(facts, readings, name, r)]


def _member_in_clause(text: str, readings: Sequence[tuple[str, int, int, Reading]], catalogue: DatasetCatalogue, at: int,
                      version_left: int, version_right: int) -> list[tuple[str, int, int, Reading]]:
    """[the last name read before text[at], any number of sentences back in the paragraph] when the version's clause,
    in a sentence stating the authors' use (`use_stated`, checked by the caller), names a member of that name's line by the catalogue's own word for it (`species_mentions`: "AURA-MLS is a passive
    instrument [...]. Version 2.2 RHi retrievals from 2004 to 2007 are considered": RHi is an MLS product) and the
    version's sentence (`version_left`, `version_right`) writes no other instrument in capitals the catalogue does not
    know ("Version 5 ozone data from SAGE II": SAGE's), else []."""
    earlier = [(name, start, end, r) for name, start, end, r in readings if end <= at]
    if not earlier:
        return []
    name = earlier[-1][0]
    names, codes = catalogue.species(name)
    clause = CLAUSE_END.search(text, at, version_right)
    if not (names or codes) or not species_mentions(text[at:clause.start() if clause else version_right], names, codes):
        return []
    return [] if other_instrument(text, version_left, version_right, catalogue, name) else earlier[-1:]


def _named_through_members(text: str, readings: Sequence[tuple[str, int, int, Reading]], catalogue: DatasetCatalogue, at: int,
                           version_left: int, sentence_of) -> list[tuple[str, int, int, Reading]]:
    """[the last name read before text[at]] when every sentence between that name's sentence and the version's (which
    starts at `version_left`) names a member of its line (`species_mentions`: "Aura MLS measurements of ClO are
    available. The version 2.2 ClO measurements were validated in Smith et al. (2008). Here, we use the v4.2
    retrievals": the paragraph has stayed on the line's ClO), else []. A sentence that names none ("It flies on Aura.")
    ends the reach. A line whose catalogue words name no parameter (HALOE's UARHA2FN, "Level 2 V019") stays the subject
    of every sentence that writes a data word and no other instrument (`other_instrument`): "HALOE [...] used the solar
    occultation technique for measuring ozone. The vertical resolution of ozone profiles is 2.5 km. The ozone volume
    mixing ratio profiles v19 for 1991-2005 are used" (paper 81). `sentence_of(pos)` gives the (start, end) of the
    sentence at text[pos]."""
    earlier = [(name, start, end, r) for name, start, end, r in readings if end <= at]
    if not earlier:
        return []
    name, start = earlier[-1][0], earlier[-1][1]
    names, codes = catalogue.species(name)
    pos = sentence_of(start)[1]
    while pos < version_left:
        right = sentence_of(pos)[1]
        stays = species_mentions(text[pos:right], names, codes) if names or codes \
            else bool(_DATA_WORD_IN.search(text, pos, right)) and not other_instrument(text, pos, right, catalogue, name)
        if not stays:
            return []
        pos = right
    return earlier[-1:]


def cites_work(sentence: str) -> bool:
    """Whether a sentence cites a work (`_CITATION`: "validated in Santee et al. (2008)", "(Lambert et al., 2007)")."""
    return bool(_CITATION.search(sentence))


def other_instrument(text: str, left: int, right: int, catalogue: DatasetCatalogue, name: str) -> bool:
    """Whether text[left:right] writes an instrument in capitals (`_ACRONYM`) that the catalogue does not know and
    that describes none of line `name`'s members ("Ozone profiles from SAGE II", "MIPAS temperature data v4.62"), and
    that abbreviates no common words before it (`_LOWER_CASE_ABBREVIATION`: "volume mixing ratio (VMR)" is a measure;
    an instrument's words are capitalised, "Halogen Occultation Experiment (HALOE)")."""
    families = catalogue.members[name]
    return any(_ACRONYM.fullmatch(w.group(0)) and name_key(w.group(0)) not in catalogue.by_key and not describes_line(catalogue, w.group(0), families)
               and not _abbreviates_common_words(text, w.start(), w.group(0)) for w in WORD.finditer(text, left, right))


# Lower-case words right before an opening parenthesis: what an abbreviation in it may spell ("mixing ratio (").
_LOWER_CASE_WORDS_BEFORE = re.compile(r"((?:\b[a-z]+[\s\-]+){1,6})\($")


def _abbreviates_common_words(text: str, start: int, acronym: str) -> bool:
    """Whether the acronym at text[start] stands in parentheses right after lower-case words whose initials spell it
    ("volume mixing ratio (VMR)", "upper troposphere (UT)")."""
    words = _LOWER_CASE_WORDS_BEFORE.search(text, max(0, start - 80), start)
    initials = "".join(word[0] for word in re.split(r"[\s\-]+", words.group(1)) if word).upper() if words else ""
    return bool(initials) and initials.endswith(acronym.upper())


def other_source_s(text: str, begin: int, catalogue: DatasetCatalogue, name: str) -> bool:
    """Whether the member word at text[begin] is written right after another source's name in capitals, which makes it
    that source's parameter, not line `name`'s ("interpolated on the model levels (using ECMWF temperature)", "SAGE
    ozone"): the word before it is an instrument or centre the catalogue does not know (`other_instrument`)."""
    before = list(WORD.finditer(text, max(0, begin - 40), begin))
    return bool(before) and before[-1].end() >= begin - 1 and other_instrument(text, before[-1].start(), before[-1].end(), catalogue, name)


def use_stated(sentence: str) -> bool:
    """Whether a sentence states the authors' use (`_WE_USE`: "we use", `_USED_HERE`: "used here")."""
    return bool(_WE_USE.search(sentence) or _USED_HERE.search(sentence))


def yields_to_used(facts: ParagraphFacts, readings: Sequence[tuple[str, int, int, Reading]], name: str, reading: Reading) -> bool:
    """Whether the version `reading` gives line `name` in paragraph `text` is a cited work's, not the paper's: its
    sentence cites a work (`_CITATION`) and states no use (`use_stated`), while another sentence of the paragraph
    states a use of another version, one no other name is read with and no other acronym stands before in its sentence
    ("We use the MIPAS version 5 data" is MIPAS's) ("The version 2.2 ClO measurements were
    validated in Smith et al. (2008). Here, we use the v4.2 retrievals": v4.2 is used, v2.2 the validation's; "The MLS
    version 2 N2O product agrees with other observations (Smith et al., 2007). Differences with version 3, used here,
    are negligible"). `readings`: (name, start, end, Reading) of the paragraph's names; `facts`: the paragraph's."""
    text = facts.text
    left, right = facts.sentences.span(reading.first)
    if not cites_work(text[left:right]) or use_stated(text[left:right]):
        return False
    used = set()
    bounds = facts.sentences.bounds
    for start, end in zip(bounds, bounds[1:]):
        if use_stated(text[start:end]):
            used |= {stated_sort_key(v.group(1)) for v in versions_in(text, start, end, worded=True) + versions_in(text, start, end)
                     if not any(other != name and r.first <= v.start() < r.last for other, _, _, r in readings)
                     and not any(_ACRONYM.fullmatch(w.group(0)) and w.group(0).upper() != name.upper() for w in WORD.finditer(text, start, v.start()))}
    return bool(used) and stated_sort_key(reading.stated) not in used


# What reports a comparison's or a validation's finding ("Comparisons between HALOE V17 data and other correlative
# measurements showed agreement", "mean differences of MLS v2.2 ozone data with respect to the correlative data are
# within 8 %", "biased low"): with a citation in its sentence, the cited works' finding (`reported_not_used`).
_FINDING = re.compile(r"\b(?:agree\w*|differences?|bias\w*|overestimat\w*|underestimat\w*)\b", re.IGNORECASE)
# What says a newer version mended an earlier one ("has been largely removed in v3.3", "greatly improved in v3.3").
_MENDED = re.compile(r"\b(?:improv|remov|reduc|correct|fix|resolv|replac|supersed|updat|upgrad)\w*", re.IGNORECASE)
# What says a release changed something, the mending words or "become" ("the 640 GHz product has become the standard
# one in version 3"): after the paragraph has stated an older version, the later release's news, not data used.
_CHANGED = re.compile(_MENDED.pattern + r"|\bbec[oa]m\w*", re.IGNORECASE)


# What says data are another retrieval's or analysis's starting point ("The a priori profile of the retrieval is
# based on MLS version 2.2 data", "the first guess is taken from ..."): that retrieval's input, not data the paper uses
# (SOURCES.md's labels keep no row for an a priori: paper 63's borderline call).
_PRIOR_INPUT = re.compile(r"\ba\s+priori\b|\b(?:first|initial)\s+guess(?:es)?\b", re.IGNORECASE)


# A citation in parentheses right after the data's phrase ("MLS v4.2 ozone profiles (Livesey et al., 2020) show"): the
# data's reference, not the source of the sentence's finding.
_DATA_REFERENCE = re.compile(r"(?:\s+[a-z][\w\-]*){0,3}\s*\(" + CITATION_TEXT + r"[^()]*\)")
# The authors' own words in a finding ("agrees with our model", "we find"): their finding, not a cited work's.
_OWN_FINDING = re.compile(r"\b(?:our|we)\b", re.IGNORECASE)
# Between a mending verb and the newer version that is its agent ("removed in v3.3", "largely corrected by version 5").
_AGENT_BEFORE = re.compile(r"(?:\s+[a-z]+){0,3}?\s+(?:in|by|with)\s+(?:the\s+)?(?:[\w\-]+\s+){0,2}?", re.IGNORECASE)


def reported_not_used(facts: ParagraphFacts, reading: Reading) -> bool:
    """Whether the version `reading` holds (read with a name or apart from it, spanning text[reading.first:reading.last])
    is one the paper reports rather than uses, in a sentence that states no use (`use_stated`):
    - another work's finding: the sentence reports what comparisons or a validation found (`_FINDING`) and cites the
      works that found it (`cites_work`): "Comparisons between HALOE V17 data and other correlative ozone measurements
      showed agreement to within 5 % (Smith et al., 1996)", "mean differences of MLS v2.2 ozone data are within 8 %
      (Jones et al., 2007)"; not a finding in the authors' words (`_OWN_FINDING`: "agrees with our model"), and not
      when the only citation is the data's reference right after their phrase (`_DATA_REFERENCE`: "MLS v4.2 ozone
      profiles (Livesey et al., 2020) show a small positive bias");
    - an earlier release a newer one mended: the sentence states a newer version (a greater `stated_sort_key`) that is
      the mending verb's subject or agent (`_mended_by`, `_MENDED`): "the negative bias observed in the v2.2 HNO3
      profiles has been largely removed in v3.3"; not "The MLS v4.2 ozone data were reduced to monthly zonal means, and
      MLS v5.0 data serve as a check".
    - a later release's news: the paragraph stated an older version before the sentence, and the sentence says what the
      later one changed (`_CHANGED`): "The 190 GHz product is the standard one in V2.2. [...] The 640 GHz product has
      become the standard one in version 3 of the MLS data".
    - whatever the sentence says of use, another retrieval's a priori or first guess (`_PRIOR_INPUT`): "The a priori
      profile of the retrieval is based on mean profiles of the MLS version 2.2 data".
    A paper that uses the version says so elsewhere ("In this study HALOE V19 data is used."), which is read on its own.
    `facts`: the paragraph's (`ParagraphFacts`)."""
    text = facts.text
    left, _ = facts.sentences.span(reading.first)
    _, right = facts.sentences.span(max(reading.first, reading.last - 1))
    prior, used, finding, changed = facts.says(left, right)
    if prior:
        return True
    if used:
        return False
    reference = _DATA_REFERENCE.match(text, reading.last)
    if finding and (cites_work(text[left:reference.start()] + text[reference.end():right]) if reference and reference.end() <= right
                    else cites_work(text[left:right])):
        return True
    key = stated_sort_key(reading.stated or "")
    if not (key and changed):
        return False
    newer = [v for v in facts.versions(left, right) if stated_sort_key(v.group(1)) > key]
    older_before = any(() < stated_sort_key(v.group(1)) < key for v in facts.versions(0, left))
    return any(_mended_by(text, reading, v, left, right) for v in newer) or older_before


def _mended_by(text: str, reading: Reading, newer: re.Match, left: int, right: int) -> bool:
    """Whether the newer version `newer` is what mended (`_MENDED`) in its sentence text[left:right]: the subject of the
    mending verb, written before it in its clause with the reading's version not between ("version 5.0, released in
    2021, corrected a drift"), or its agent right after it ("has been largely removed in v3.3"); not "The MLS v4.2
    ozone data were reduced to monthly zonal means, and MLS v5.0 data serve as a check" (the older data's verb)."""
    for mend in _MENDED.finditer(text, left, right):
        if newer.end() <= mend.start() and not (newer.end() <= reading.first < mend.start()) \
                and not re.search(r";|\.(?=\s)", text[newer.end():mend.start()]):
            return True
        if mend.end() <= newer.start() and _AGENT_BEFORE.fullmatch(text, mend.end(), newer.start()):
            return True
    return False
