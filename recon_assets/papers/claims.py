"""The offline claim extractor: deterministic cue words and numbers with units, no model.

It finds sentences that state a claim (claim wording: "we show", "results indicate", "outperforms", "we propose",
"is attributed to"; or a result with a number and a unit), types each METHODOLOGICAL / EMPIRICAL / THEORETICAL /
COMPARATIVE by its cue, and gives a confidence from the wording. Novelty needs the literature and judgement, so it is
NOT_ASSESSED, never guessed; every claim names the extractor (OFFLINE_EXTRACTOR) so no one mistakes it for the LLM's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from recon_assets.papers.parse import REFERENCE_HEADINGS, PaperDocument, Paragraph
from recon_assets.papers.scores import NOT_ASSESSED

OFFLINE_EXTRACTOR = "offline deterministic extractor (cue words, numbers with units)"
METHODOLOGICAL, EMPIRICAL, THEORETICAL, COMPARATIVE = "METHODOLOGICAL", "EMPIRICAL", "THEORETICAL", "COMPARATIVE"
CLAIM_TYPES = (METHODOLOGICAL, EMPIRICAL, THEORETICAL, COMPARATIVE)
# Sections whose sentences are statements about the paper, not claims of it.
_SKIPPED_SECTIONS = REFERENCE_HEADINGS | {
    "acknowledgements", "acknowledgments", "acknowledgement", "acknowledgment", "author contributions", "funding",
    "conflicts of interest", "competing interests", "data availability", "data availability statement",
    "code and data availability", "code availability", "abbreviations",
}
# Checked in this order: the first type whose cue a sentence holds is its type.
_TYPE_CUES = (
    (COMPARATIVE, re.compile(r"\b(?:outperform\w*|better than|worse than|more accurate|less accurate|(?:higher|lower|larger|smaller|greater) than|superior to|inferior to|compared (?:with|to)|in comparison (?:with|to)|than (?:the|that|those))\b", re.I)),
    (METHODOLOGICAL, re.compile(r"\b(?:we (?:propose|present|develop|introduce|design)\w*|this (?:study|paper|work) (?:proposes|presents|develops|introduces)|(?:a |an )?(?:new|novel) (?:method|approach|algorithm|framework|model|technique|index|dataset))\b", re.I)),
    (THEORETICAL, re.compile(r"\b(?:mechanism\w*|theor\w+|hypothes\w+|is explained by|are explained by|attributed to|driven by|implies that|governed by)\b", re.I)),
    (EMPIRICAL, re.compile(r"\b(?:we (?:find|found|observe\w*|show\w*|demonstrate\w*)|(?:results|analysis|analyses|findings) (?:show|showed|indicate\w*|reveal\w*|suggest\w*|demonstrate\w*|confirm\w*)|(?:was|were) found|(?:shows|showed|indicates?|revealed?|demonstrates?|confirms?) that|significant\w*|increas\w+|decreas\w+|correlat\w+|trend\w*)\b", re.I)),
)
_STRONG = re.compile(r"\b(?:show\w*|demonstrat\w+|reveal\w*|confirm\w*|find|found|clearly)\b", re.I)
_HEDGE = re.compile(r"\b(?:may|might|could|possibl\w+|perhaps|likely|suggest\w*|appear\w*|seem\w*|potential\w*)\b", re.I)
# A number with a unit ("1.2 mm/day", "5%", "0.25°", "3 W m-2", "12 km2") or a statistic ("R2 = 0.85",
# "RMSE of 1.2", "r = 0.9", "p < 0.05").
_UNIT = (
    r"%|‰|°\s?C|°|K\b|mm\s?(?:/|per\s)?\s?(?:day|d|h|hr|month|mon|yr|year|a)\b|mm\s?(?:d|h|yr|a)[-−–]1|mm\b|cm\b|km[2²]?|m\s?s[-−–]1|"
    r"m\b|W\s?m[-−–]2|ppm|ppb|Tg|Pg|Gt|days?\b|years?\b|yr\b"
)
_MEASURE = re.compile(rf"[-+−]?\d+(?:[.,]\d+)?\s?(?:{_UNIT})")
_STATISTIC = re.compile(rf"\b(?:R\s?2|R²|r|RMSE|MAE|bias|NSE|KGE|CC|p)\s?(?:=|<|>|≤|≥|of)\s?[-+−]?\d+(?:\.\d+)?(?:\s?(?:{_UNIT}))?", re.I)
# Sentence ends, but not after "et al.", "e.g.", "i.e.", "Fig.", "Eq.", "vs." or a decimal point.
_SENTENCE_END = re.compile(r"(?<!\bet al)(?<!\be\.g)(?<!\bi\.e)(?<!\bFig)(?<!\bEq)(?<!\bvs)(?<!\bca)(?<=[.!?])\s+(?=[A-Z(])")
_MIN_LENGTH, _MAX_LENGTH = 40, 600


@dataclass(frozen=True)
class Claim:
    """A claim the paper makes: the sentence quoted, its section and 1-based page, its type, a confidence (0-1),
    the numbers with units it states, its novelty (NOT_ASSESSED offline) and the extractor that found it."""

    text: str
    section: str
    page: int
    claim_type: str
    confidence: float
    results: tuple[str, ...]
    novelty: str
    extractor: str


def claim_confidence(sentence: str, has_result: bool) -> float:
    """The offline extractor's confidence that a sentence is a firm claim, 0.1-0.9.

    0.5, + 0.2 when it states a number with a unit or a statistic, + 0.1 for a strong verb (show, demonstrate,
    reveal, confirm, find), - 0.2 for a hedge (may, might, could, likely, suggest, appear); clamped to [0.1, 0.9].
    This project's rule for its offline extractor (no model); the LLM's confidence replaces it online.
    """
    score = 0.5 + (0.2 if has_result else 0.0) + (0.1 if _STRONG.search(sentence) else 0.0) - (0.2 if _HEDGE.search(sentence) else 0.0)
    return round(min(0.9, max(0.1, score)), 2)


def results_in(sentence: str) -> tuple[str, ...]:
    """The numbers with units and the statistics a sentence states, in order ("1.2 mm/day", "R2 = 0.85")."""
    found = sorted([*_MEASURE.finditer(sentence), *_STATISTIC.finditer(sentence)], key=lambda m: m.start())
    kept, end = [], -1
    for match in found:
        if match.start() >= end:
            kept.append(match.group(0).strip())
            end = match.end()
    return tuple(kept)


def claim_paragraphs(document: PaperDocument) -> list[Paragraph]:
    """The paragraphs whose sentences may be claims, in reading order: those outside the reference list,
    acknowledgements, funding, author contributions and data statements."""
    return [
        paragraph for paragraph in document.paragraphs
        if re.sub(r"^[\dIVX.]+\s+", "", paragraph.section).strip().rstrip(".:").lower() not in _SKIPPED_SECTIONS
    ]


def extract_claims(document: PaperDocument) -> list[Claim]:
    """The claims of a parsed paper, in reading order, by the offline extractor.

    A sentence (40-600 characters, outside the reference list, acknowledgements, funding, author contributions and
    data statements) is a claim when it holds a type's cue, or states a number with a unit or a statistic (then it
    is EMPIRICAL). Types are tried in the order COMPARATIVE, METHODOLOGICAL, THEORETICAL, EMPIRICAL. A sentence
    repeated (the same words, case and spacing apart) is one claim, where it first appears.
    """
    claims, seen = [], set()
    for paragraph in claim_paragraphs(document):
        for sentence in _SENTENCE_END.split(paragraph.text):
            sentence = sentence.strip()
            if not _MIN_LENGTH <= len(sentence) <= _MAX_LENGTH or (said := " ".join(sentence.lower().split())) in seen:
                continue
            seen.add(said)
            results = results_in(sentence)
            claim_type = next((kind for kind, cue in _TYPE_CUES if cue.search(sentence)), EMPIRICAL if results else None)
            if claim_type is None:
                continue
            confidence = claim_confidence(sentence, bool(results))
            claims.append(Claim(sentence, paragraph.section, paragraph.page, claim_type, confidence, results, NOT_ASSESSED, OFFLINE_EXTRACTOR))
    return claims
