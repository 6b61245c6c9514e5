"""A paper's claims against the literature, offline: each claim judged by the project's offline judge
(`judgement.offline_judge.judge_pair`) against the graph's publications most similar to it, SUPPORTED / CONTRADICTED /
UNVERIFIED with the quoted evidence and who judged; and the flags of a claim that rests on a replaced dataset version
or on a cited paper the graph labels SUPERSEDED. Pure functions on plain values (the `claim_verdicts` asset reads the
tables and embeds the texts).

Judging one claim: its `top_k` most similar publications (cosine of the offline judge's WordLlama embeddings, claim
sentence against title + abstract) are each judged as the offline judge judges a newer paper on an edge: below the
judge's similarity gate the work is not about the same thing; above it, the most severe cue of its text decides
(contradiction or supersession wording: an objection; support or refinement wording: SUPPORTED; none: read, no
stance). The works are combined as `offline_judge.aggregate_edge_coherence` combines an edge's offline pairs, each
counting 1: objections decide (CONTRADICTED) only when they strictly outnumber the works read without objection;
else SUPPORTED when a work supports; else UNVERIFIED. With no work above the gate the claim is UNVERIFIED, and says
the best similarity. The judge's own limits hold here too (its module docstring): a cue is wording, not a verdict on
this claim, and similarity is the only link between the two.

Flags (issue 22): a claim *rests on* a dataset when it names it (its family name, or a word of it with letters and
digits, as 3B42 or MOD13Q1) or is the sentence the dataset was found in; on a cited paper when it cites it ("[3]",
"[2-4]", or the first author's surname followed by "et al.", "and" or a year). A replaced dataset, matched to a Dataset
node or a version the graph lacks (`paper_datasets.superseded`, `stated_lifecycle`), is flagged with its lifecycle line
(`paper_datasets.lifecycle`); a version of unknown status flags nothing. A cited paper the graph labels SUPERSEDED
is flagged with that edge's reason (`edge_reliability.reason`). Groq and steward judgements of claims are not built.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from recon_assets.judgement.cues import find_cue
from recon_assets.judgement.offline_judge import DEFAULT_MIN_SIMILARITY, JUDGE_ID, judge_pair
from recon_assets.judgement.verdict_scale import CONTRADICTED, OBJECTIONS, SUPPORTED, UNVERIFIED

TOP_K = 5
REPLACED_DATASET, SUPERSEDED_PAPER = "rests on a replaced dataset version", "rests on a paper labelled SUPERSEDED"
_BRACKETS = re.compile(r"\[(\d+(?:\s*[-–,]\s*\d+)*)\]")
_RANGE = re.compile(r"(\d+)(?:\s*[-–]\s*(\d+))?")
_NAME_PART = re.compile(r"[^\W_]+")
_SURNAME = re.compile(r"^\W*([^\W\d_][^\W\d_'-]+)")


@dataclass(frozen=True)
class Work:
    """A publication of the graph as evidence: id, DOI, title + abstract text and its similarity to the claim."""

    publication_id: str
    doi: str | None
    text: str | None
    similarity: float


@dataclass(frozen=True)
class Judged:
    """A claim's verdict: SUPPORTED, CONTRADICTED or UNVERIFIED, the deciding work (None when none decides) with its
    quoted evidence, the best similarity, how many works were read (above the gate), why and who judged."""

    verdict: str
    evidence: str | None
    publication_id: str | None
    doi: str | None
    similarity: float | None
    works_read: int
    why: str
    judge: str


def judge_claim(works: Sequence[Work], *, top_k: int = TOP_K, min_similarity: float = DEFAULT_MIN_SIMILARITY) -> Judged:
    """Judge one claim from the works of the graph with their similarity to it (module docstring).

    Args:
        works: any number of publications (none is allowed: UNVERIFIED, nothing to read); NaN similarity counts as
            below the gate.
    Raises:
        ValueError: top_k < 1.
    """
    if top_k < 1:
        raise ValueError(f"top_k must be >= 1, got {top_k}")
    nearest = sorted(works, key=lambda w: (-(w.similarity if w.similarity == w.similarity else -2.0), w.publication_id))[:top_k]
    if not nearest:
        return Judged(UNVERIFIED, None, None, None, None, 0, "no publication of the graph to read", JUDGE_ID)
    read = [(w, judge_pair(w.similarity, find_cue(w.text), min_similarity=min_similarity)) for w in nearest if w.similarity >= min_similarity]
    best = nearest[0].similarity
    if not read:
        return Judged(
            UNVERIFIED, None, None, None, best, 0,
            f"no publication of the graph is about the same thing (best similarity {best:.2f} < {min_similarity:.2f})", JUDGE_ID,
        )
    objections = [(w, j) for w, j in read if j.verdict in OBJECTIONS]
    supports = [(w, j) for w, j in read if j.verdict == SUPPORTED]
    if len(objections) > len(read) - len(objections):
        verdict, (work, judgement) = CONTRADICTED, objections[0]
        counted = f"{len(objections)} of {len(read)} works read object"
    elif supports:
        verdict, (work, judgement) = SUPPORTED, supports[0]
        counted = f"{len(supports)} of {len(read)} works read support it, {len(objections)} object"
    else:
        return Judged(
            UNVERIFIED, None, None, None, best, len(read),
            f"{len(read)} works about the same thing read, none with a stance that carries ({len(objections)} object)", JUDGE_ID,
        )
    cue = find_cue(work.text)
    return Judged(verdict, cue.quote() if cue else None, work.publication_id, work.doi, work.similarity, len(read),
                  f"{counted}; {work.doi or work.publication_id}: {judgement.rationale}", JUDGE_ID)


@dataclass(frozen=True)
class ReplacedDataset:
    """A dataset the paper uses whose version is replaced: its name (the graph family, TRMM_3B42, when matched to a
    Dataset node; the name as the paper writes it, MOD15A2H or SMAP, for a version the graph lacks), the sentence it
    was found in and its lifecycle line."""

    family: str
    quote: str
    lifecycle: str

    def named_in(self, text: str) -> bool:
        """The text names it: the family with '_' read as a space, or a word of it holding letters and digits."""
        spaced = self.family.replace("_", " ")
        words = [w for w in _NAME_PART.findall(self.family) if re.search(r"\d", w) and re.search(r"[^\W\d_]", w) and len(w) >= 3]
        return any(re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text, re.IGNORECASE) for name in [spaced, self.family, *words])


@dataclass(frozen=True)
class SupersededReference:
    """A reference of the paper whose publication the graph labels SUPERSEDED: its number, text and the edge's reason."""

    number: int
    text: str
    reason: str


def cites(claim: str, number: int, reference_text: str) -> bool:
    """The claim cites the reference: its number in brackets ([3], [2-4], [1, 3]), or its first author's surname
    followed by 'et al.', 'and <name>' or a year."""
    for group in _BRACKETS.findall(claim):
        for part in group.split(","):
            low, high = _RANGE.fullmatch(part.strip()).groups()
            if int(low) <= number <= int(high or low):
                return True
    surname = _SURNAME.match(reference_text or "")
    if not surname:
        return False
    return re.search(rf"\b{re.escape(surname.group(1))}\b(?:\s+et\s+al\b|\s+and\s+[^\W\d_]|\s*,?\s*\(?\d{{4}})", claim) is not None


def claim_flags(claim: str, replaced: Sequence[ReplacedDataset], superseded: Sequence[SupersededReference]) -> list[tuple[str, str]]:
    """[(flag, reason)] of a claim: REPLACED_DATASET with the lifecycle line for each replaced dataset it rests on,
    SUPERSEDED_PAPER with the edge's reason for each cited reference labelled SUPERSEDED; [] when none."""
    flags = [
        (REPLACED_DATASET, dataset.lifecycle) for dataset in replaced
        if dataset.named_in(claim) or _same_sentence(claim, dataset.quote)
    ]
    flags += [(SUPERSEDED_PAPER, f"[{ref.number}] {ref.reason}") for ref in superseded if cites(claim, ref.number, ref.text)]
    return flags


def _same_sentence(claim: str, quote: str) -> bool:
    """One holds the other (the quote is the sentence a dataset was found in, cut to 400 characters)."""
    claim, quote = claim.strip(), quote.strip()
    return bool(claim and quote) and (claim in quote or quote in claim)
