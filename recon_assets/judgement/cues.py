"""Cue wording of the offline judge: the rules in `cues.yaml`, matched on Snowball stems with negation.

`cues.yaml` (package data beside this module) is the single list of cues: each has a kind (contradiction,
supersession, refinement, support), a pattern, and the real sentences it was taken from (its tests). Its
header documents the pattern language; in short, a pattern is a sequence of words matched by their Snowball
English stem ("overestimate" matches overestimated, overestimates, overestimation), exact word forms
("=biased"), word groups ("@result"), alternatives ("on|upon") and bounded gaps ("~3").

How a text is read: it is cut into sentences (a punctuation rule: `[.!?]` before white space), each sentence
into tokens (words, with inner hyphens and apostrophes kept, "n't" split off as its own token; and single
punctuation marks), each token lower-cased and stemmed. A cue matches a run of tokens; it is *negated* when a
negator ("not", "no", "n't", ...) stands within `negation.window` tokens before it, or inside one of its gaps,
with no clause boundary (",", "but", "and", ...) in between; "not only" is no negation.

Stemmer: snowballstemmer (the Snowball project's Python build of M. F. Porter's English stemmer,
https://snowballstem.org/algorithms/english/stemmer.html).
"""

from __future__ import annotations

import enum
import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache
from importlib.resources import files
from itertools import accumulate
from pathlib import Path

import snowballstemmer
import yaml

from recon_assets.judgement.judge_address import find_cue_sentence_address
from recon_assets.judgement.text_embedding import is_missing_text
from recon_assets.shared.excerpt import excerpt

CUES_FILE = files("recon_assets.judgement").joinpath("cues.yaml")
QUOTE_CHARS = 200  # enough for one clause of context, short enough for a reason string

_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")
# A word keeps inner hyphens (ASCII, U+2010, U+2011, en dash) and apostrophes; "n't" is split off
# ("didn't" -> "did", "n't") so that it reads as a negator.
_TOKEN = re.compile(r"\w+(?=n['’]t\b)|n['’]t\b|\w+(?:[-‐‑–'’]\w+)*|[^\w\s]", re.IGNORECASE)
_HYPHENS = re.compile(r"[-‐‑–]")
_GAP = re.compile(r"^~(\d+)$")
# Separates a token's stem from its lower-cased form inside the matching string: "stem\x1fform".
_SEP = "\x1f"


class CueKind(enum.StrEnum):
    """Kinds of explicit wording, most severe first (the first kind found in a text wins)."""

    CONTRADICTION = "contradiction"
    SUPERSESSION = "supersession"
    REFINEMENT = "refinement"
    SUPPORT = "support"


@dataclass(frozen=True)
class Cue:
    """Explicit wording found in a text: its kind, the matched phrase, the sentence holding it and the cue id
    (the row of cues.yaml that matched)."""

    kind: CueKind
    phrase: str
    sentence: str
    cue_id: str

    def quote(self) -> str:
        """The sentence, or when it is longer than QUOTE_CHARS characters its part around the phrase, cut between
        words with '…' at each cut end, at most QUOTE_CHARS characters in all (`shared.excerpt.excerpt`, the rule the
        papers' quotes follow; it once cut mid-word: "…long period of record precipitati…")."""
        at = max(self.sentence.find(self.phrase), 0)
        return excerpt(self.sentence, at, at + len(self.phrase), QUOTE_CHARS)


@dataclass(frozen=True)
class CueExample:
    """A real sentence holding a cue, with the DOI of the abstract it comes from, where its text was read and
    under which licence."""

    text: str
    doi: str
    source: str
    licence: str


@dataclass(frozen=True)
class CueRule:
    """One row of cues.yaml, compiled: `regex` runs over a sentence's "stem\\x1fform" tokens."""

    cue_id: str
    kind: CueKind
    pattern: str
    regex: re.Pattern[str]
    required: tuple[frozenset[str], ...]
    has_own_negator: bool
    examples: tuple[CueExample, ...]
    negated: str
    negated_source: str | None


@dataclass(frozen=True)
class CueRules:
    """Every cue of a cue file, in file order, and its negation settings."""

    version: int
    rules: tuple[CueRule, ...]
    negators: frozenset[str]
    window: int
    not_before: frozenset[str]
    boundaries: frozenset[str]

    @cached_property
    def rules_by_first_word(self) -> dict[str, tuple[int, ...]]:
        """{key ("s:" stem or "f:" form): positions in `rules` of the rules whose first word it is one of}: a sentence
        can only match a rule whose first word it holds, so `matches` looks at those rules alone (one dictionary look-up
        per token instead of a set test per rule: most of the cue reading's time at 200,000 publications)."""
        index: dict[str, list[int]] = {}
        for position, rule in enumerate(self.rules):
            for key in rule.required[0]:
                index.setdefault(key, []).append(position)
        return {key: tuple(positions) for key, positions in index.items()}


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Snowball English stem of a lower-cased word, inner hyphens dropped ("over-estimated" -> "overestim")."""
    return _stemmer().stemWord(_HYPHENS.sub("", word))


@cache
def _stemmer() -> snowballstemmer.stemmer:
    return snowballstemmer.stemmer("english")


@lru_cache(maxsize=65536)  # one cached call a token: the cue reading's most frequent call
def _stem_token(word: str) -> str:
    """Stem of a token; punctuation and "n't" stand for themselves."""
    return stem(word) if word[0].isalnum() or word[0] == "_" else word


def _require(condition: bool, where: str, message: str) -> None:
    if not condition:
        raise ValueError(f"cue file {where}: {message}")


def _compile(
    pattern: str, groups: dict[str, list[str]], excluded: list[str], where: str
) -> tuple[re.Pattern[str], tuple[frozenset[str], ...]]:
    """Regex over "stem\\x1fform" tokens joined by single spaces (each gap is a capturing group, so that a
    negator inside it can be found), and per word of the pattern the keys ("s:" stem, "f:" form) of which a
    sentence must hold one for the regex to have a chance (a cheap test before the regex)."""
    elements = pattern.split()
    _require(bool(elements) and not _GAP.match(elements[0]) and not _GAP.match(elements[-1]), where,
             f"pattern {pattern!r} must start and end with a word")
    parts, required = [], []
    for element in elements:
        gap = _GAP.match(element)
        if gap:
            # Words or commas only: a gap never crosses other punctuation.
            parts.append(rf"((?:[^ {_SEP}]+{_SEP}(?:\w[^ ]*|,) ){{0,{int(gap.group(1))}}})")
            continue
        words = []
        for alternative in element.split("|"):
            _require(bool(alternative), where, f"empty alternative in pattern {pattern!r}")
            if alternative.startswith("@"):
                _require(alternative[1:] in groups, where, f"unknown group {alternative!r}")
                words += groups[alternative[1:]]
            else:
                words.append(alternative)
        unless = "".join(rf"(?!{re.escape(word.lower())} )" for word in excluded)
        required.append(frozenset(f"f:{w[1:].lower()}" if w.startswith("=") else f"s:{_stem_token(w.lower())}" for w in words))
        alternatives = sorted(
            {
                rf"[^ {_SEP}]+{_SEP}{re.escape(word[1:].lower())}"  # =form: this word form only
                if word.startswith("=")
                else rf"{re.escape(_stem_token(word.lower()))}{_SEP}{unless}[^ ]+"  # any form of the stem
                for word in words
            }
        )
        parts.append("(?:" + "|".join(alternatives) + ") ")
    # Each element ends with a space, so the token string is matched with a space appended.
    return re.compile(r"(?:(?<= )|^)" + "".join(parts)), tuple(required)


def load_cue_rules(path: Path | None = None) -> CueRules:
    """Read and compile a cue file (default: the packaged cues.yaml).

    Args:
        path: a YAML file in the format documented in cues.yaml's header.

    Returns:
        The compiled rules, in file order.

    Raises:
        ValueError: invalid YAML, a missing or malformed field, an unknown kind or group, a duplicate id, a cue
            without a real example sentence or a negated sentence, or a pattern that is empty or starts or ends
            with a gap.
    """
    text = path.read_text(encoding="utf-8") if path is not None else CUES_FILE.read_text(encoding="utf-8")
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise ValueError(f"cue file is not valid YAML: {error}") from error
    _require(isinstance(data, dict), "top level", "must be a mapping")
    for key in ("version", "negation", "groups", "cues"):
        _require(key in data, "top level", f"lacks {key!r}")
    _require(isinstance(data["cues"], list), "top level", "cues must be a list")
    _require(data.get("stemmer", "english") == "english", "top level", "only the Snowball 'english' stemmer is supported")
    negation, groups = data["negation"], data["groups"]
    _require(isinstance(negation, dict) and "negators" in negation and "window" in negation, "negation",
             "needs negators and window")
    for key in ("negators", "not_before", "boundaries"):
        _require(all(isinstance(w, str) for w in negation.get(key, [])), "negation",
                 f"{key} must be strings (quote no, yes, on, off: YAML reads them as booleans)")
    _require(isinstance(groups, dict), "groups", "must be a mapping")
    for name, words in groups.items():
        _require(isinstance(words, list) and all(isinstance(w, str) for w in words), f"group {name!r}",
                 "must be a list of strings")
    rules, seen = [], set()
    for index, row in enumerate(data["cues"]):
        where = f"cue #{index + 1} ({row.get('id', '?') if isinstance(row, dict) else '?'})"
        _require(isinstance(row, dict), where, "must be a mapping")
        for key in ("id", "kind", "pattern", "examples", "negated"):
            _require(bool(row.get(key)), where, f"lacks {key!r}")
        _require(row["id"] not in seen, where, "duplicate id")
        seen.add(row["id"])
        _require(row["kind"] in CueKind.__members__.values(), where, f"unknown kind {row['kind']!r}")
        examples = []
        for example in row["examples"]:
            for key in ("text", "doi", "source", "licence"):
                _require(bool(isinstance(example, dict) and example.get(key)), where, f"an example lacks {key!r}")
            examples.append(CueExample(str(example["text"]), str(example["doi"]), str(example["source"]), str(example["licence"])))
        pattern = str(row["pattern"])
        words = {w.lower() for element in pattern.split() for w in element.split("|")}
        regex, required = _compile(pattern, groups, list(row.get("except", [])), where)
        rules.append(
            CueRule(
                cue_id=str(row["id"]),
                kind=CueKind(row["kind"]),
                pattern=pattern,
                regex=regex,
                required=required,
                has_own_negator=bool(words & {w.lower() for w in negation["negators"]}),
                examples=tuple(examples),
                negated=str(row["negated"]),
                negated_source=row.get("negated_source"),
            )
        )
    return CueRules(
        version=int(data["version"]),
        rules=tuple(rules),
        negators=frozenset(w.lower() for w in negation["negators"]),
        window=int(negation["window"]),
        not_before=frozenset(w.lower() for w in negation.get("not_before", [])),
        boundaries=frozenset(w.lower() for w in negation.get("boundaries", [])),
    )


@cache
def packaged_cue_rules() -> CueRules:
    """The rules of the packaged cues.yaml, read once."""
    return load_cue_rules()


@dataclass(frozen=True)
class CueMatch:
    """One match of a cue rule in a text: the rule, where (sentence number, first token), the matched phrase and
    its sentence (white space normalised), and whether a negator silences it."""

    rule: CueRule
    sentence_index: int
    first_token: int
    phrase: str
    sentence: str
    negated: bool


def sentences(text: str) -> Iterator[str]:
    """The text's sentences as the cues are read in them (module docstring: `[.!?]` before white space ends one), each
    with its white space as in the text; a blank rest after the last end is no sentence."""
    start = 0
    for end in _SENTENCE_END.finditer(text):
        yield text[start : end.end()]
        start = end.end()
    if text[start:].strip():
        yield text[start:]


def _is_negator(forms: list[str], at: int, rules: CueRules) -> bool:
    return forms[at] in rules.negators and not (at + 1 < len(forms) and forms[at + 1] in rules.not_before)


def _negated_before(forms: list[str], first: int, rules: CueRules) -> bool:
    for at in range(first - 1, max(-1, first - rules.window - 2), -1):
        if forms[at] in rules.boundaries:
            return False
        if _is_negator(forms, at, rules):
            return True
    return False


def matches(text: str | None, rules: CueRules | None = None) -> Iterator[CueMatch]:
    """Every match of every cue in a text, negated ones included, in (sentence, rule, position) order."""
    if is_missing_text(text):
        return
    rules = rules or packaged_cue_rules()
    by_first_word = rules.rules_by_first_word
    for sentence_index, sentence in enumerate(sentences(text)):
        # One apostrophe: "hasn’t" and "hasn't" both give the negator "n't".
        forms = [word.lower() for word in _TOKEN.findall(sentence)]
        if not forms:
            continue
        if "’" in sentence:
            forms = [form.replace("’", "'") for form in forms]
        stems = [_stem_token(form) for form in forms]
        keys = {f"f:{form}" for form in forms} | {f"s:{token_stem}" for token_stem in stems}
        # What only a rule that may match needs (most sentences have none): the token string and token offsets.
        line = starts = tokens = None
        for position in sorted({position for key in keys for position in by_first_word.get(key, ())}):
            rule = rules.rules[position]
            if not all(keys & words for words in rule.required[1:]):
                continue
            if line is None:
                joined = [f"{token_stem}{_SEP}{form}" for token_stem, form in zip(stems, forms)]
                starts = list(accumulate((len(item) + 1 for item in joined[:-1]), initial=0))
                line = " ".join(joined) + " "
            for found in rule.regex.finditer(line):
                first = bisect_right(starts, found.start()) - 1
                last = bisect_right(starts, found.end() - 2) - 1
                in_gaps = [
                    bisect_right(starts, found.start(g)) - 1 + k
                    for g in range(1, (rule.regex.groups or 0) + 1)
                    if found.group(g)
                    for k in range(found.group(g).count(" "))
                ]
                negated = _negated_before(forms, first, rules) or any(_is_negator(forms, t, rules) for t in in_gaps)
                tokens = tokens or list(_TOKEN.finditer(sentence))
                phrase = " ".join(sentence[tokens[first].start() : tokens[last].end()].split())
                yield CueMatch(rule, sentence_index, first, phrase, " ".join(sentence.split()), negated)


def find_cues(text: str | None, rules: CueRules | None = None) -> list[Cue]:
    """Every non-negated cue in a text, most severe kind first, then in text order, except those in a sentence that
    addresses the judge (`judge_address.find_cue_sentence_address`: an instruction, a judge told what to conclude, a
    verdict string in capitals): such a sentence is a planted instruction, not the paper's stance, and reading its cue
    words would let it decide the offline verdict (issue 24).

    Args:
        text: an abstract (or title + abstract); None, NA and 'N/A' are allowed.
        rules: compiled cue rules (default: the packaged cues.yaml).

    Returns:
        One Cue per match, sorted by (CueKind order, sentence, first token, cue file order).
    """
    order = list(CueKind)
    addressing = cache(find_cue_sentence_address)  # a sentence with several cues is looked at once
    found = sorted(
        (m for m in matches(text, rules) if not m.negated and addressing(m.sentence) is None),
        key=lambda m: (order.index(m.rule.kind), m.sentence_index, m.first_token),
    )
    return [Cue(m.rule.kind, m.phrase, m.sentence, m.rule.cue_id) for m in found]


def find_cue(text: str | None, rules: CueRules | None = None) -> Cue | None:
    """The most severe explicit contradiction, supersession, refinement or support wording in a text.

    Args:
        text: an abstract (or title + abstract); None, NA and 'N/A' are allowed.
        rules: compiled cue rules (default: the packaged cues.yaml).

    Returns:
        The first non-negated match of the most severe kind present (CueKind order), or None.
    """
    cues = find_cues(text, rules)
    return cues[0] if cues else None
