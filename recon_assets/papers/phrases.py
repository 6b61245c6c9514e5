"""The words around a name or a version in a paragraph, as paper detection reads them (`datasets`,
`version_association`): where sentences and clauses end, the words papers use for a product's data (DATA_WORDS),
the describing words of a product line's entry titles read after a name or a version (`words_after`), and the
Reading of one name (its stated version, its span, its describing words). Pure functions over strings."""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from recon_assets.lifecycle.versions import version_sort_key
from recon_assets.papers.dataset_names import FILLER, WORD
from recon_assets.papers.version_grammar import version_at

if TYPE_CHECKING:
    from recon_assets.papers.dataset_catalogue import DatasetCatalogue

# Where a sentence ends: after ".", "!" or "?" before a capital or a parenthesis, never after an abbreviation papers
# write inside a sentence ("Smith et al. (2006) describe", "e.g. MODIS", "Fig. 3", "Sect. 2").
_ABBREVIATIONS = ("al", "e.g", "i.e", "cf", "vs", "ca", "Fig", "Figs", "Eq", "Eqs", "Sect", "Ref", "No", "ver")
SENTENCE = re.compile(r"(?<=[.!?])" + "".join(rf"(?<!\b{re.escape(a)}\.)" for a in _ABBREVIATIONS) + r"\s+(?=[A-Z(])")
# Separators skipped between a name, its describing words and its version (never a full stop: "3B42. Version 7 of").
SEPARATOR = re.compile(r"[\s,;:()\[\]/\-–]*")
# Words for a product's data, singular or plural (how papers refer to what a product holds): the reading after a name
# passes over them on the way to its version, as it does FILLER, without counting them as describing words ("the Aura
# MLS measurements version 3.3", "MLS ozone profiles (v4.2)"; compared after NFKC, so "profiles" written with the fi
# ligature U+FB01, as PDF text often has it, is one too); only there: "the v2.2 measurements of MLS" does not tie a
# version to the name after it (`_joins_name`). The same words tie a version or a list of members to a line elsewhere
# (`DATA_WORD`).
DATA_WORDS = frozenset({"data", "dataset", "product", "measurement", "observation", "retrieval", "profile", "field", "record", "file",
                        "granule", "estimate"} | {w + "s" for w in ("dataset", "product", "measurement", "observation",
                        "retrieval", "profile", "field", "record", "file", "granule", "estimate")})
# DATA_WORDS in a pattern (the fi ligature as PDF text has it).
DATA_WORD = r"(?:" + "|".join(sorted((re.escape(w).replace("fi", "(?:fi|\ufb01)") for w in DATA_WORDS), key=len, reverse=True)) + r")\b"
# What joins the items of a list between a name and its version ("MLS O3, H2O and HNO3 version 4.2"): passed over when
# the word after it describes a candidate or is a data word.
LIST_WORD = frozenset({"and", "or", "&"})
CLAUSE_END = re.compile(r"[,;]|\.(?=\s|$)")
# Words that describe no candidate which the reading after a version passes over ("version 5 O3 standard products").
SKIPPED_WORDS = 2
# Kinds of alias (`dataset_aliases.csv`): a product line whose members are variants of one product (IMERG's runs and
# periods, GLDAS's models), which a version and describing words can resolve to one member; or an instrument's
# collection (MODIS Collection 5), whose stated version applies to the member products named with it.
LINE, COLLECTION = "line", "collection"


def name_key(name: str) -> str:
    """A name as the catalogue keys it: without spaces, underscores and hyphens, in capitals ("MLS-Aura" -> "MLSAURA")."""
    return re.sub(r"[\s_\-]+", "", name).upper()


@dataclass(frozen=True)
class Reading:
    """What the words around one name say: the stated version (None if none), the span of name and version, and
    the describing words (between name and version, right after the version, right before the name); `more`: the
    further versions of a list the stated one opens ("MLS v2.2 and v3.3 data": stated "2.2", more ("3.3",)), each a
    version of the same name."""

    stated: str | None
    first: int
    last: int
    words: tuple[str, ...]
    more: tuple[str, ...] = ()


def describes_line(catalogue: DatasetCatalogue, word: str, families: Sequence[str]) -> bool:
    """Whether `word` describes one of `families` (a word of its CMR entry titles: `TitleVocabulary.describes`)."""
    return any(catalogue.vocabulary.describes(word, family) for family in families)


def is_data_word(word: str) -> bool:
    """Whether `word` is one of DATA_WORDS (after NFKC, without case)."""
    return unicodedata.normalize("NFKC", word).lower() in DATA_WORDS


def words_after(text: str, pos: int, limit: int, catalogue: DatasetCatalogue, families: Sequence[str]) -> tuple[list[str], int]:
    """The describing words from `pos` on, up to a version or `limit` (each a word of some family's entry titles or a
    FILLER word), and where they end."""
    words = []
    while pos < limit:
        begin = SEPARATOR.match(text, pos).end()
        if version_at(text, begin, named=True):
            break
        found = WORD.match(text, begin, limit)
        if not found:
            break
        word = found.group(0).rstrip(".")
        if is_data_word(word):
            # passed over, read as no describing word ("MLS measurements version 3.3")
            pos = begin + len(word)
            continue
        if word.lower() in LIST_WORD and (following := WORD.match(text, SEPARATOR.match(text, begin + len(word)).end(), limit)) \
                and (is_data_word(following.group(0).rstrip(".")) or describes_line(catalogue, following.group(0).rstrip("."), families)):
            # a list of the product's parameters runs on to its version ("MLS O3, H2O and HNO3 version 4.2")
            pos = begin + len(word)
            continue
        if not word or (word.lower() not in FILLER and not describes_line(catalogue, word, families)):
            break
        words.append(word)
        pos = begin + len(word)
    return words, pos


def clause_end_at(text: str, pos: int, limit: int) -> int:
    """Where the clause from `pos` ends: its first comma, semicolon or full stop before `limit`, else `limit`."""
    clause = CLAUSE_END.search(text, pos, limit)
    return clause.start() if clause else limit


def words_past(text: str, pos: int, stop: int, catalogue: DatasetCatalogue, families: Sequence[str]) -> tuple[list[str], int]:
    """`words_after` up to `stop`, read on past at most SKIPPED_WORDS words in a row that describe no candidate (never
    past a version), and where they end."""
    words, end = words_after(text, pos, stop, catalogue, families)
    skipped = 0
    while end < stop and skipped < SKIPPED_WORDS:
        passed = WORD.match(text, SEPARATOR.match(text, end).end(), stop)
        if not passed or version_at(text, passed.start(), named=True):
            break
        more, after = words_after(text, passed.end(), stop, catalogue, families)
        if more:
            words, end, skipped = words + more, after, 0
        else:
            end, skipped = passed.end(), skipped + 1
    return words, end


def words_trailing(text: str, pos: int, limit: int, catalogue: DatasetCatalogue, families: Sequence[str]) -> list[str]:
    """The describing words after a version, up to a comma, semicolon or full stop ("V6 Daily accumulated"), past at
    most SKIPPED_WORDS words that describe no candidate ("version 5 O3 standard products": "standard" is read though
    "O3" describes no AIRS product); none when they open a list of alternatives ("version 6 early, late and final runs"
    names three products, not the early one)."""
    words, end = words_past(text, pos, clause_end_at(text, pos, limit), catalogue, families)
    words = [w for w in words if w.lower() not in FILLER]
    rest = re.match(r"[\s\-]*(?:,|\band\b|\bor\b)\s*(?:and\s+|or\s+)?", text[end:limit])
    if words and rest:
        follower = WORD.match(text, end + rest.end(), limit)
        if follower and describes_line(catalogue, follower.group(0).rstrip(".-"), families):
            return []
    return words


# Dashes papers and their PDFs write for a hyphen inside a name, after a letter ("SBUV‐2" U+2010, "SBUV–2" en dash,
# "SBUV−2" minus, "ACE‐FTS"); not a range of numbers ("3–6 km", which a table's rows would otherwise run into one word).
_NAME_DASH = re.compile(r"(?<=[A-Za-z])[\u2010\u2011\u2012\u2013\u2014\u2212\ufe63\uff0d](?=[A-Za-z0-9])")
# A digit of another script ("v٤.٢", fullwidth "v４.２"), which `re`'s \d matches.
_OTHER_DIGIT = re.compile(r"(?![0-9])\d")


def read_as_ascii(text: str) -> str:
    """`text` with every dash inside a name (`_NAME_DASH`) a hyphen and every decimal digit of another script its ASCII
    digit, character for character (same length, so a position in one is the same place in the other): the text whose
    names and versions are read, so that "SBUV‐2" names SBUV/2 as "SBUV-2" does and "v٤.٢" states version "4.2"."""
    return _OTHER_DIGIT.sub(lambda digit: str(unicodedata.decimal(digit.group(0))), _NAME_DASH.sub("-", text))


class Sentences:
    """A text's sentences (`SENTENCE`), its breaks read once: every mention of a paragraph asks for its sentence, so the
    paragraph's reader builds this once and asks it (hostile pass: a 50 KB paragraph with no full stop took 80 s, each
    mention re-reading the paragraph).

    Args:
        text: the text; `bounds` and `span` are positions in it.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        breaks = [m.span() for m in SENTENCE.finditer(text)]
        self._starts = tuple(start for start, _ in breaks)
        self._ends = tuple(end for _, end in breaks)
        # 0, where each sentence after the first begins, and len(text), in order
        self.bounds = (0, *self._ends, len(text))

    def span(self, pos: int) -> tuple[int, int]:
        """(start, end) of the sentence that holds text[pos]: it starts after the last break that ends before pos and
        ends where the first break at or after pos begins."""
        before = bisect_left(self._ends, pos)
        after = bisect_left(self._starts, pos)
        return self._ends[before - 1] if before else 0, self._starts[after] if after < len(self._starts) else len(self.text)


def stated_sort_key(stated: str) -> tuple[int, ...]:
    """`version_sort_key`, or () for a text without a digit."""
    try:
        return version_sort_key(stated)
    except ValueError:
        return ()
