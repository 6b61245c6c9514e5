"""Candidate papers for a question: RECON's hybrid retrieval score and the merge of candidates by canonical DOI.

    hybrid    = 0.5 * semantic + 0.3 * recency + 0.2 * authority
    recency   = 1 (none) | max(0, 1 - age/20) (linear) | max(0, 1 - log(1 + age)/log(21)) (log)
    authority = min(1, log(1 + citations) / log(10001))

Source: RECON (github.com/MukulRay1603/project-recon, `src/retriever_utils.py`: `hybrid_score`, `recency_score`,
`authority_score`; weights "chosen by ablation study"), restated in issue 21 and DOMAIN.md "Verdicts over an evidence
set". RECON's decay definitions are DOMAIN.md's "recency" exactly (1 - age/20; 1 - log1p(age)/log1p(20)), so the
project's `reliability.signals.recency` computes them, and RECON's authority is DOMAIN.md's citation centrality
(`centrality.citation_centrality`, log1p(n)/log1p(10000) = log(1 + n)/log(10001)). Two differences from RECON, both
on missing values: RECON gives an unknown year recency 0 under every decay, here 'none' gives 1 (age plays no part,
as in the edge score); and semantic similarity is clipped to [0, 1] (RECON adds the raw cosine, which may be
negative), so the hybrid score stays in [0, 1] and compares with the 0.40 bar of the critic.

Online, OpenAlex search adds candidates (`openalex_candidate`, `searched_papers`): a work whose DOI is a paper of the
question's pool is that KG paper (merged by DOI, the KG record kept); one whose DOI is another KG publication is that
publication, without an edge to the question's datasets; any other is a paper found only in OpenAlex (no KG id, no
edge: unassessed, outside the staleness weight). Its citations count up to as_of only (`reliability.citations`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from typing import Any

import numpy as np

from recon_assets.centrality.citation_centrality import citation_centrality
from recon_assets.enrichment.openalex_records import rebuild_abstract
from recon_assets.judgement.judge_address import without_judge_address
from recon_assets.reliability.citations import citation_records
from recon_assets.kg.authors import TITLE_WORDS, citation_tag, short_title
from recon_assets.kg.doi import canonical_doi
from recon_assets.reliability.settings import DECAYS, Decay
from recon_assets.reliability.signals import age_years, recency

# RECON's hybrid weights (src/retriever_utils.py `hybrid_score`: semantic x 0.5 + recency x 0.3 + authority x 0.2).
SEMANTIC_WEIGHT, RECENCY_WEIGHT, AUTHORITY_WEIGHT = 0.5, 0.3, 0.2
KG, OPENALEX = "kg", "openalex"
SOURCES = (KG, OPENALEX)


@dataclass(frozen=True)
class Candidate:
    """A paper one retrieval pass found for one sub-question.

    doi: as found (any spelling; canonicalised by `merge_candidates`); publication_id: the KG node id, None for a
    paper found only in OpenAlex; year: publication year or None; authors: names in order; cited_by_count: citations
    known up to as_of, None when unknown; semantic: cosine similarity of the sub-question and the title + abstract,
    in [-1, 1]; source: 'kg' or 'openalex'; found_by: the sub-question kinds that found it.
    """

    doi: str | None
    title: str
    source: str
    semantic: float
    year: int | None = None
    authors: tuple[str, ...] = ()
    abstract: str | None = None
    cited_by_count: int | None = None
    publication_id: str | None = None
    found_by: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.source not in SOURCES:
            raise ValueError(f"source must be one of {SOURCES}, got {self.source!r}")
        if not (isinstance(self.semantic, (int, float)) and -1.0 <= self.semantic <= 1.0):
            raise ValueError(f"semantic similarity must be a number in [-1, 1], got {self.semantic!r} for {self.title!r}")


@dataclass(frozen=True)
class ScoredPaper:
    """A merged candidate with its scores (each in [0, 1]) and its citation tag '[Smith et al., 2019]'. `key` is the
    canonical DOI, or 'kg:<publication_id>' for a KG paper without one."""

    key: str
    candidate: Candidate
    citation: str
    recency: float
    authority: float
    hybrid: float


@dataclass(frozen=True)
class Rejected:
    """A candidate left out of the evidence, and why."""

    candidate: Candidate
    reason: str


@dataclass(frozen=True)
class Merged:
    """`merge_candidates`' result. Every candidate in is accounted for: len(candidates) == len(papers) +
    duplicates + len(rejected)."""

    papers: tuple[Candidate, ...]
    duplicates: int
    rejected: tuple[Rejected, ...] = field(default=())


def authority(cited_by_count: int | float | None) -> float:
    """min(1, log(1 + n) / log(10001)) for n citations (RECON `authority_score`; DOMAIN.md citation centrality).
    An unknown count (None, NaN) gives 0: no evidence of authority, as RECON gives a paper without a count.

    Raises:
        ValueError: a negative count.
    """
    if cited_by_count is None or (isinstance(cited_by_count, float) and math.isnan(cited_by_count)):
        return 0.0
    if cited_by_count < 0:
        raise ValueError(f"a citation count cannot be negative, got {cited_by_count}")
    return float(citation_centrality(cited_by_count))


def paper_recency(year: int | None, as_of: date, decay: Decay) -> float:
    """Recency in [0, 1] of a paper published in `year` seen on `as_of` (`reliability.signals.recency`, the same
    decays as RECON `recency_score`); an unknown year gives 0 under linear and log decay and 1 under none.

    Raises:
        ValueError: an unknown decay.
    """
    if decay not in DECAYS:
        raise ValueError(f"decay must be one of {DECAYS}, got {decay!r}")
    return float(recency(age_years(year, as_of), decay))


def hybrid(semantic: float, recency_: float, authority_: float) -> float:
    """0.5 * max(0, semantic) + 0.3 * recency + 0.2 * authority (RECON `hybrid_score`), in [0, 1]."""
    return SEMANTIC_WEIGHT * max(0.0, semantic) + RECENCY_WEIGHT * recency_ + AUTHORITY_WEIGHT * authority_


def candidate_key(candidate: Candidate) -> str | None:
    """The merge key: the canonical DOI (`kg.doi.canonical_doi`), else 'kg:<publication_id>' for a KG paper; None
    for a paper with neither (it cannot be told apart from another)."""
    doi = canonical_doi(candidate.doi)
    if doi:
        return doi
    return f"kg:{candidate.publication_id}" if candidate.publication_id else None


def merge_candidates(candidates: Iterable[Candidate]) -> Merged:
    """Merge the candidates of every sub-question and round into one paper per key (`candidate_key`).

    Of duplicates, the KG record wins over OpenAlex's (only it has edges to score its trust) and otherwise the first
    seen; the merged paper takes the highest semantic similarity (its best match among the sub-questions), the
    largest known citation count, the first abstract and year found, and every sub-question kind that found it.
    A candidate without a DOI and without a KG id is rejected with the reason.

    Returns:
        Merged, papers in the order their key was first seen.
    """
    merged: dict[str, Candidate] = {}
    rejected: list[Rejected] = []
    duplicates = 0
    for candidate in candidates:
        key = candidate_key(candidate)
        if key is None:
            rejected.append(Rejected(candidate, f"no DOI ({candidate.doi!r} is not one) and no KG publication: cannot be de-duplicated"))
            continue
        if key not in merged:
            merged[key] = replace(candidate, doi=canonical_doi(candidate.doi) or candidate.doi)
            continue
        duplicates += 1
        merged[key] = _merge_two(merged[key], candidate)
    return Merged(tuple(merged.values()), duplicates, tuple(rejected))


def _merge_two(kept: Candidate, other: Candidate) -> Candidate:
    base, extra = (other, kept) if other.source == KG and kept.source != KG else (kept, other)
    counts = [count for count in (kept.cited_by_count, other.cited_by_count) if count is not None]
    return replace(
        base,
        doi=kept.doi,
        semantic=max(kept.semantic, other.semantic),
        cited_by_count=max(counts) if counts else None,
        abstract=base.abstract or extra.abstract,
        year=base.year if base.year is not None else extra.year,
        authors=base.authors or extra.authors,
        found_by=tuple(dict.fromkeys((*kept.found_by, *other.found_by))),
    )


def score_papers(papers: Sequence[Candidate], as_of: date, decay: Decay) -> list[ScoredPaper]:
    """Each merged paper with its recency, authority and hybrid score as of `as_of`, best hybrid first (ties by
    key, so the order is stable).

    Raises:
        ValueError: an unknown decay, a paper without a merge key (merge first), or a negative citation count.
    """
    scored = []
    for paper, citation in zip(papers, citation_tags(papers)):
        key = candidate_key(paper)
        if key is None:
            raise ValueError(f"{paper.title!r} has no DOI and no KG publication id: merge_candidates rejects it")
        recency_ = paper_recency(paper.year, as_of, decay)
        authority_ = authority(paper.cited_by_count)
        scored.append(ScoredPaper(key, paper, citation, recency_, authority_, hybrid(paper.semantic, recency_, authority_)))
    return sorted(scored, key=lambda paper: (-paper.hybrid, paper.key))


def citation_tags(papers: Sequence[Candidate], taken: Collection[str] = ()) -> list[str]:
    """Each paper's citation tag (`kg.authors.citation_tag`: '[Smith et al., 2019]'; a paper without an author by its
    title's opening, '["Global Precipitation Measurement Mission…", 2019]'; without a title either by its DOI, else
    its KG publication id), in the order of `papers`, the title-cited ones unique among them and `taken` (tags already
    given, e.g. the evidence's when citing recorded comments):
    - papers of one whole title and year ('Comment on "The global tree restoration potential"', two comments of 2019)
      get a letter after the year, in key order: '["Comment on 'The global tree restoration…'", 2019a]', '… 2019b]'
      ('n.d.-a' without a year);
    - other title tags equal to each other are lengthened word by word until they differ;
    - a title tag equal to one of `taken` gets the first letter that makes it new.
    Tags of named authors are left as they are: two papers of one first author and year share a tag.
    """
    def tag(paper: Candidate, words: int = TITLE_WORDS, suffix: str = "") -> str:
        return citation_tag(list(paper.authors), paper.year, paper.doi or paper.publication_id or paper.title, paper.title, words, suffix)

    tags = [tag(paper) for paper in papers]
    by_title = [i for i, paper in enumerate(papers) if not paper.authors and short_title(paper.title)]
    whole: dict[str, list[int]] = {}
    for i in by_title:
        whole.setdefault(tag(papers[i], _ALL_WORDS), []).append(i)
    twins = {i for members in whole.values() if len(members) > 1 for i in members}
    words = dict.fromkeys(by_title, TITLE_WORDS)
    while True:
        counts: dict[str, int] = {}
        for value in tags:
            counts[value] = counts.get(value, 0) + 1
        colliding = [i for i in by_title if i not in twins and counts[tags[i]] > 1]
        longer = {i: tag(papers[i], words[i] + 1) for i in colliding}
        grown = [i for i in colliding if longer[i] != tags[i]]
        if not grown:
            break
        for i in grown:
            words[i] += 1
            tags[i] = longer[i]
    used = {*tags, *taken}
    groups = [sorted(members, key=lambda i: (candidate_key(papers[i]) or "", i)) for members in whole.values() if len(members) > 1]
    groups += [[i] for i in by_title if i not in twins and tags[i] in taken]
    for members in groups:
        letters = (_letters(n) for n in itertools.count())
        for i in members:
            tags[i] = next(value for value in (tag(papers[i], words[i], letter) for letter in letters) if value not in used)
            used.add(tags[i])
    return tags


# More words than any title holds: a title tag's whole title.
_ALL_WORDS = 10_000


def _letters(n: int) -> str:
    """'a'..'z', then 'aa', 'ab', ... for n = 0, 1, ..."""
    return chr(ord("a") + n) if n < 26 else _letters(n // 26 - 1) + chr(ord("a") + n % 26)


# Years before as_of whose citations count as recent (DOMAIN.md: 3); only the count up to as_of is read here.
_RECENT_YEARS = 3


def openalex_candidate(work: Mapping[str, Any], as_of: date, fetched_at: datetime | None, publication_id: str | None = None) -> Candidate:
    """The candidate of an OpenAlex search's work (`openalex_search`, CITING_FIELDS): its DOI (as OpenAlex gives it;
    canonicalised when merged), title, year, authors (authorships' display names), abstract rebuilt from its inverted
    index without the wording that addresses a reader-model (`judge_address`, as `answering.load_pool` reads the KG's),
    and its citations up to `as_of` (`reliability.citations.citation_records`: cited_by_count less the years after
    as_of; None when the record cannot tell). `publication_id` given: the KG publication of that DOI (source kg), else
    source openalex.
    """
    year = work.get("publication_year") if isinstance(work.get("publication_year"), int) else None
    authors = [(a.get("author") or {}).get("display_name") or a.get("raw_author_name") for a in work.get("authorships") or []]
    records = citation_records([work.get("cited_by_count")], [work.get("counts_by_year")], [fetched_at], [year],
                               as_of=as_of, recent_years=_RECENT_YEARS)
    count = records.count[0]
    abstract = rebuild_abstract(work.get("abstract_inverted_index"))
    return Candidate(
        doi=work.get("doi"), title=work.get("title") or "", source=KG if publication_id else OPENALEX, semantic=0.0, year=year,
        authors=tuple(name for name in authors if name), abstract=without_judge_address(abstract)[0] if abstract else None,
        cited_by_count=None if np.isnan(count) else int(count), publication_id=publication_id,
    )


@dataclass(frozen=True)
class Searched:
    """`searched_papers`' result: the papers OpenAlex search adds to a pool, by pool key (the KG publication id, or
    the canonical DOI of a paper found only in OpenAlex); how many of its works were papers of the pool already
    (merged by DOI); and the works left out with why (no DOI). Every work in is accounted for: works ==
    len(papers) + in_pool + repeated + len(rejected)."""

    papers: Mapping[str, Candidate]
    in_pool: int
    repeated: int = 0
    rejected: tuple[Rejected, ...] = ()

    @property
    def openalex_only(self) -> int:
        """Papers found only in OpenAlex (no KG publication)."""
        return sum(paper.source == OPENALEX for paper in self.papers.values())


def searched_papers(pool: Mapping[str, Candidate], found: Sequence[Candidate]) -> Searched:
    """The candidates OpenAlex search `found` that a question's `pool` ({key: KG candidate}) lacks, de-duplicated by
    canonical DOI: a work with the DOI of a pool paper is that paper (counted in `in_pool`, the KG record kept as
    `merge_candidates` keeps it); a repeated DOI is kept once; a work without a DOI is rejected (it cannot be told
    apart from another). Keys: a KG publication's id, else the canonical DOI."""
    known = {canonical_doi(paper.doi) for paper in pool.values() if canonical_doi(paper.doi)}
    papers: dict[str, Candidate] = {}
    rejected: list[Rejected] = []
    in_pool = repeated = 0
    for candidate in found:
        doi = canonical_doi(candidate.doi)
        if doi is None:
            rejected.append(Rejected(candidate, f"an OpenAlex work without a DOI ({candidate.title[:60]!r}): cannot be de-duplicated"))
        elif doi in known:
            in_pool += 1
        elif any(paper.doi == doi for paper in papers.values()):
            repeated += 1
        else:
            papers[candidate.publication_id or doi] = replace(candidate, doi=doi)
    return Searched(papers, in_pool, repeated, tuple(rejected))
