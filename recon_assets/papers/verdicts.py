"""A paper's claims against the literature, offline: each claim judged by the project's offline judge
(`judgement.offline_judge.judge_pair`) against the graph's publications most similar to it, SUPPORTED / CONTRADICTED /
UNVERIFIED with the quoted evidence and who judged; and the flags of a claim that rests on a replaced dataset version
or on a cited paper the graph labels SUPERSEDED. Pure functions on plain values (the `claim_verdicts` asset reads the
tables and embeds the texts).

Judging one claim: its `top_k` most similar publications (cosine of the offline judge's WordLlama embeddings, claim
sentence against title + abstract) are each judged as the offline judge judges a newer paper on an edge: below the
judge's similarity gate the work is not about the same thing; above it, the most severe cue of its text *in a
sentence about the claim* decides (contradiction or supersession wording: an objection; support or refinement wording:
SUPPORTED; none: read, no stance). The works are combined as `offline_judge.aggregate_edge_coherence` combines an edge's
offline pairs, each counting 1: objections decide (CONTRADICTED) only when they strictly outnumber the works read
without objection; else SUPPORTED when a work supports; else UNVERIFIED. With no work above the gate the claim is
UNVERIFIED, and says the best similarity. The judge's own limits hold here too (its module docstring): a cue is
wording, not a verdict on this claim.

The quoted sentence (issue 22): a work about the same thing as the claim is not evidence on the claim through any of
its sentences. Judged on the work alone, 8 of 8 SUPPORTED or CONTRADICTED verdicts on the fixture papers 1-5 quoted a
sentence about something else (a claim on a drydown loss function "supported" by "good agreement between the flood
inundation ... and SMAP soil moisture"; a claim on precipitable water trends by CHIRPS "builds on previous
approaches"): the work's similarity passed the gate and the most severe cue anywhere in its text decided. So each cue's
own sentence is weighed against the claim (`sentence_similarities`): only a cue whose sentence reaches
MIN_SENTENCE_SIMILARITY counts (its source beside it), the most severe kind first and, within it, the sentence most
similar to the claim; that sentence is the one quoted. A work whose stance wording is all in other sentences is read
with no stance, and the claim's why names the nearest such wording and its similarity. Groq's answers are held to the
same bar through the sentence of the work holding their first quote (none found: not counted); a steward's judgement
is not (a person read the pair). Limit: similarity is lexical, so a sentence sharing the claim's dataset and variable
names but not its subject can pass (on papers 1-5 one does, at 0.56: agreement between CYGNSS flood inundation and
SMAP soil moisture, quoted for a claim on SMAP soil-moisture drydowns).

Flags (issue 22): a claim *rests on* a dataset when it names it (its family name, or a word of it with letters and
digits, as 3B42 or MOD13Q1) or is the sentence the dataset was found in; on a cited paper when it cites it ("[3]",
"[2-4]", or the first author's surname followed by "et al.", "and" or a year). A replaced dataset, matched to a Dataset
node or a version the graph lacks (`paper_datasets.superseded`, `stated_lifecycle`), is flagged with its lifecycle line
(`paper_datasets.lifecycle`); a version of unknown status flags nothing. A cited paper the graph labels SUPERSEDED
is flagged with that edge's reason (`edge_reliability.reason`).

The project's other judges (issue 22: "offline judge, Groq when configured, steward judgements"), each recorded in the
verdict's `judge` (who judged the deciding work; for UNVERIFIED, every judge that read a work):
- Groq (online, only with the papers' opt-in: `papers.claim_judge`): each (claim, work) pair goes through the edges' own
  guarded pair judge (`judgement.llm_prompt`: fenced texts, wording addressing a model removed first, answers validated
  with pydantic, a verdict counting only when it quotes the work's own wording stating its stance), the claim in the
  place of the older paper p and the work in the place of the newer one q (the work is the evidence, so its text is
  what must state the stance). An answer then counts as the edges' LLM answers do (`llm_judge.llm_answer_counts`,
  issue 24): only as an objection at least as strong as the offline judge's for that work, quoting a sentence about the
  claim (above); SUPPORTED and UNVERIFIED never replace the offline reading. Whatever a model was told by a planted
  instruction, it so can only withhold an objection, never lift a claim to SUPPORTED nor remove a CONTRADICTED. The
  price: Groq never confirms a claim.
- Stewards (`judgement.steward`): a steward judges (older, newer) publication pairs and edges of the graph, keyed by
  DOI. A new paper has no id in the graph, so a steward's row cannot name its claims; what it can say soundly:
  (1) a pair row (older A, newer B) where the claim cites A (`cites`; A the paper itself when the paper is in the graph,
      given by DOI) and B is one of the works the claim is judged against: the steward read B against the work the
      claim rests on, which is the question asked of (claim, B); the steward's verdict replaces every machine
      judgement of that work, below the similarity gate too (a person read it), and the verdict's judge is
      steward/<name> when that work decides;
  (2) a steward objection (a pair row CONTRADICTED or SUPERSEDED whose older paper is A, or an edge row of A with
      such a verdict) on a work the claim cites, or on the work that decides its verdict, flags the claim
      (STEWARD_OBJECTION) with the steward's words: the claim, or its evidence, rests on work a person found
      contradicted or superseded. It does not change the verdict: the steward judged that work against another, not
      this claim.
  A steward's SUPPORTED on a pair (A, B) in (1) counts as B's support; in (2) support flags nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from recon_assets.judgement.cues import Cue, CueKind, find_cues, sentences
from recon_assets.judgement.llm_judge import NOT_AN_OBJECTION, llm_answer_counts
from recon_assets.judgement.offline_judge import DEFAULT_MIN_SIMILARITY, JUDGE_ID, judge_pair
from recon_assets.judgement.text_embedding import cosine_similarities, embed
from recon_assets.judgement.verdict_scale import CONTRADICTED, NEUTRAL_COHERENCE, OBJECTIONS, SUPPORTED, UNVERIFIED

TOP_K = 5
# The quoted sentence's own cosine similarity to the claim (WordLlama, as the works' gate) at or above which it is about
# the claim's subject (module docstring, "The quoted sentence"). Measured on real records
# (benchmarks/claim_evidence_similarity.py: 90 titled abstracts of the sample graph, its OpenAlex recording and the
# evaluation's publications): a title against the most similar sentence of its own abstract (the same subject) reaches
# 0.50 in 81 % of cases and 0.55 in 58 % (median 0.57); against the most similar sentence of another abstract, 0.5 % and
# 0.17 % of 8,010 (median 0.21). The works' gate (0.5) lets 1.2 % of cross-field pairs through; a claim's verdict is a
# finding shown to its author, a wrong SUPPORTED or CONTRADICTED costs more than an UNVERIFIED (neutral, with its
# reason), so the bar sits where another abstract passes at most 1 in 500: 0.55. Papers 1-5 of the fixtures
# (development data) were read before it was set: their 8 wrong verdicts quoted sentences at 0.26-0.56; at 0.5 three
# stay, at 0.55 one (the module docstring's limits say why).
MIN_SENTENCE_SIMILARITY = 0.55
REPLACED_DATASET, SUPERSEDED_PAPER = "rests on a replaced dataset version", "rests on a paper labelled SUPERSEDED"
STEWARD_OBJECTION = "rests on a paper a steward judged contradicted or superseded"
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


@dataclass(frozen=True)
class WorkJudgement:
    """A judgement of one (claim, work) pair by a judge other than the offline judge: a Groq answer (verdict and
    coherence on DOMAIN.md's scale, the model's sentence, its first quote of the work) or a steward's (the steward's
    words as the evidence); `judge` is groq/<model> or steward/<name>."""

    verdict: str
    coherence: float
    rationale: str
    evidence: str | None
    judge: str


def sentence_similarities(claim: str, texts: Sequence[str], embed_texts: Callable[[Sequence[object]], np.ndarray] = embed) -> list[float]:
    """Cosine similarity of the claim to each text (a sentence) (`text_embedding.cosine_similarities`): one float in
    [-1, 1] per text, 0.0 for a blank one; [] for none.

    `embed_texts`: n texts -> (n, d) unit vectors, the offline judge's WordLlama embeddings (`text_embedding.embed`) or
    the same through the embedding cache (`embedding_store.embedded`, as the claim_verdicts asset passes it)."""
    if not texts:
        return []
    return [float(value) for value in cosine_similarities(embed_texts, [claim], texts)[0]]


def judge_claim(
    works: Sequence[Work], *, claim: str, top_k: int = TOP_K, min_similarity: float = DEFAULT_MIN_SIMILARITY,
    min_sentence_similarity: float = MIN_SENTENCE_SIMILARITY, llm: Mapping[str, WorkJudgement] | None = None,
    steward: Mapping[str, WorkJudgement] | None = None,
    similarities: Callable[[str, Sequence[str]], Sequence[float]] = sentence_similarities,
) -> Judged:
    """Judge one claim from the works of the graph with their similarity to it (module docstring).

    Args:
        works: any number of publications (none is allowed: UNVERIFIED, nothing to read); NaN similarity counts as
            below the gate.
        claim: the claim's sentence, which each quoted sentence must be about (`min_sentence_similarity`).
        llm: {publication_id: Groq's answer} for works of the nearest `top_k`; each counts only where
            `llm_judge.llm_answer_counts` lets it (an objection at least as strong as the offline judge's) and the
            sentence it quotes is about the claim; None or {}: the offline judge alone.
        steward: {publication_id: a steward's judgement} (module docstring, (1)); it replaces every other judgement
            of that work, below the gate too.
        similarities: (claim, sentences) -> one similarity per sentence (default `sentence_similarities`).
    Raises:
        ValueError: top_k < 1, or `similarities` gives another number of values than sentences.
    """
    if top_k < 1:
        raise ValueError(f"top_k must be >= 1, got {top_k}")
    llm, steward = llm or {}, steward or {}
    nearest = sorted(works, key=lambda w: (-(w.similarity if w.similarity == w.similarity else -2.0), w.publication_id))[:top_k]
    if not nearest:
        return Judged(UNVERIFIED, None, None, None, None, 0, "no publication of the graph to read", JUDGE_ID)
    cues = {w.publication_id: find_cues(w.text) for w in nearest if w.similarity >= min_similarity}
    quoted = {w.publication_id: _quoted_sentence(w.text, answer.evidence) for w in nearest
              if w.publication_id not in steward and (answer := llm.get(w.publication_id)) is not None}
    weighed = list(dict.fromkeys([cue.sentence for found in cues.values() for cue in found] + [q for q in quoted.values() if q]))
    scores = list(similarities(claim, weighed))
    if len(scores) != len(weighed):
        raise ValueError(f"similarities gave {len(scores)} values for {len(weighed)} sentences")
    about = dict(zip(weighed, scores))
    read: list[tuple[Work, WorkJudgement]] = []
    uncounted, unrelated = [], []
    for work in nearest:
        name = work.doi or work.publication_id
        judged = None
        if work.publication_id in cues:
            judged, note = _offline_reading(work, cues[work.publication_id], about, min_similarity, min_sentence_similarity)
            unrelated += [note] if note and work.publication_id not in steward else []
        if work.publication_id in steward:
            judged = steward[work.publication_id]
        elif (answer := llm.get(work.publication_id)) is not None:
            at = about.get(quoted[work.publication_id] or "", float("nan"))
            offline = (judged.verdict, judged.coherence) if judged else (None, float("nan"))
            if not llm_answer_counts(*offline, answer.verdict, answer.coherence):
                if answer.verdict != UNVERIFIED:
                    uncounted.append(f"{answer.judge} answered {answer.verdict} for {name}: {NOT_AN_OBJECTION}")
            elif at >= min_sentence_similarity:
                rationale = f"{answer.rationale} (the quoted sentence's similarity to the claim {at:.2f})"
                judged = WorkJudgement(answer.verdict, answer.coherence, rationale, answer.evidence, answer.judge)
            else:
                quoting = _not_about(at, min_sentence_similarity)
                uncounted.append(f"{answer.judge} answered {answer.verdict} for {name}, quoting {quoting}: not counted")
        if judged is not None:
            read.append((work, judged))
    best = nearest[0].similarity
    notes = "".join(f"; {note}" for note in uncounted + unrelated)
    if not read:
        return Judged(
            UNVERIFIED, None, None, None, best, 0,
            f"no publication of the graph is about the same thing (best similarity {best:.2f} < {min_similarity:.2f}){notes}", JUDGE_ID,
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
        judges = "; ".join(dict.fromkeys(j.judge for _, j in read))
        return Judged(
            UNVERIFIED, None, None, None, best, len(read),
            f"{len(read)} works about the same thing read, none with a stance that carries ({len(objections)} object){notes}", judges,
        )
    return Judged(verdict, judgement.evidence, work.publication_id, work.doi, work.similarity, len(read),
                  f"{counted}; {work.doi or work.publication_id}: {judgement.rationale}{notes}", judgement.judge)


def _offline_reading(
    work: Work, cues: Sequence[Cue], about: Mapping[str, float], min_similarity: float, min_sentence_similarity: float,
) -> tuple[WorkJudgement, str | None]:
    """The offline judge's reading of a work above the gate: its most severe cue among those whose sentence is about
    the claim (the most similar sentence first within a kind), quoted; with none, no stance, and a note naming the
    stance wording found in sentences not about the claim (None when the work has no cue at all)."""
    order = list(CueKind)
    kept = sorted((cue for cue in cues if about[cue.sentence] >= min_sentence_similarity),
                  key=lambda cue: (order.index(cue.kind), -about[cue.sentence]))
    if kept:
        cue = kept[0]
        pair = judge_pair(work.similarity, cue, min_similarity=min_similarity)
        rationale = f"{pair.rationale}; the quoted sentence's similarity to the claim {about[cue.sentence]:.2f}"
        return WorkJudgement(pair.verdict, pair.coherence, rationale, evidence_quote(cue), JUDGE_ID), None
    if not cues:
        pair = judge_pair(work.similarity, None, min_similarity=min_similarity)
        return WorkJudgement(pair.verdict, pair.coherence, pair.rationale, None, JUDGE_ID), None
    nearest = max(cues, key=lambda cue: (about[cue.sentence], -order.index(cue.kind)))
    where = _not_about(about[nearest.sentence], min_sentence_similarity)
    note = f'{work.doi or work.publication_id}: {nearest.kind} wording "{nearest.phrase}" only in {where} ("{nearest.quote()}"): no stance on it'
    return WorkJudgement(UNVERIFIED, NEUTRAL_COHERENCE, note, None, JUDGE_ID), note


def _not_about(similarity: float, min_sentence_similarity: float) -> str:
    """'a sentence not about the claim (similarity 0.42 < 0.55)', three decimals where two would read as the bar."""
    if similarity != similarity:
        return "no sentence of the work"
    shown = f"{similarity:.2f}" if round(similarity, 2) < min_sentence_similarity else f"{similarity:.3f}"
    return f"a sentence not about the claim (similarity {shown} < {min_sentence_similarity:.2f})"


def _quoted_sentence(text: str | None, quote: str | None) -> str | None:
    """The sentence of the work's text (`cues.sentences`, white space normalised) that holds the quote (case and white
    space ignored); None when no sentence holds it or there is no quote."""
    wanted = " ".join((quote or "").split()).strip("…. ").casefold()
    if not wanted or not text:
        return None
    for sentence in sentences(text):
        normal = " ".join(sentence.split())
        if wanted in normal.casefold():
            return normal
    return None


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
        # each range of each part: "[1-2-3]" (a typo'd range) reads as 1-2 and 3, where a single match raised
        for low, high in (found for part in group.split(",") for found in _RANGE.findall(part)):
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


def evidence_quote(cue: Cue | None) -> str | None:
    """The sentence holding the cue, cut to `cues.QUOTE_CHARS` around its phrase between words with '…' at a cut end
    (`Cue.quote`); None without a cue."""
    return cue.quote() if cue is not None else None


def _same_sentence(claim: str, quote: str) -> bool:
    """One holds the other (the quote is the sentence a dataset was found in, cut at word boundaries to 400 characters
    with '…' at a cut end, two sentences joined by ' [...] ': each part is compared without its ellipses)."""
    claim = claim.strip()
    parts = [part.strip().strip("…").strip() for part in quote.split("[...]")]
    return bool(claim) and any(part and (claim in part or part in claim) for part in parts)


@dataclass(frozen=True)
class StewardRow:
    """A steward's judgement that applies (`judgement.steward.applicable`): scope pair (the newer work `newer_id`
    judged against the older `older_id`) or edge (`older_id`'s edge to `dataset_id`; `newer_id` None), its verdict,
    coherence, the steward's name and `words` (`steward.steward_evidence`)."""

    scope: str
    dataset_id: str
    older_id: str
    newer_id: str | None
    verdict: str
    coherence: float
    steward: str
    words: str


def steward_pair_judgements(rests_on: set[str], works: Sequence[Work], rows: Sequence[StewardRow]) -> dict[str, WorkJudgement]:
    """{work id: the steward's judgement} for the works a steward judged against a publication the claim rests on
    (module docstring, (1)): pair rows whose older paper is in `rests_on` and whose newer one is in `works`. Several
    rows for one work: an objection first (the most severe stance a person recorded), then the row given last."""
    ids = {work.publication_id for work in works}
    found: dict[str, StewardRow] = {}
    for row in rows:
        if row.scope == "pair" and row.older_id in rests_on and row.newer_id in ids:
            earlier = found.get(row.newer_id)
            if earlier is None or not (earlier.verdict in OBJECTIONS and row.verdict not in OBJECTIONS):
                found[row.newer_id] = row
    return {
        work_id: WorkJudgement(row.verdict, row.coherence, f"{row.words} ({row.dataset_id}; against {row.older_id})", row.words,
                               f"steward/{row.steward}")
        for work_id, row in found.items()
    }


def steward_flags(rests_on: set[str], deciding: str | None, rows: Sequence[StewardRow], names: Mapping[str, str] | None = None) -> list[tuple[str, str]]:
    """[(STEWARD_OBJECTION, reason)] for each steward objection (a CONTRADICTED or SUPERSEDED pair row whose older paper,
    or edge row whose paper, is a work in `rests_on` or the deciding work `deciding`): module docstring, (2). `names`
    gives a work's DOI or label for the reason ({id: name}; its id otherwise)."""
    names = names or {}
    flags = []
    for row in rows:
        if row.verdict not in OBJECTIONS or not (row.older_id in rests_on or row.older_id == deciding):
            continue
        role = "the work it rests on" if row.older_id in rests_on else "its deciding evidence"
        against = f" against {names.get(row.newer_id, row.newer_id)}" if row.newer_id else f" on its edge to {row.dataset_id}"
        flags.append((STEWARD_OBJECTION, f"{role} {names.get(row.older_id, row.older_id)} judged {row.verdict}{against} {row.words}"))
    return list(dict.fromkeys(flags))
