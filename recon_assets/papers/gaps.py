"""A paper's citation gaps, offline: works of the graph on the paper's keywords and datasets that its reference list
lacks, each with a severity and why. Pure rules on plain values (the `paper_citation_gaps` asset reads the tables).

A work is *listed* when its DOI is among the references' DOIs, or its title (4 words or more, compared as lower-case
words) is inside a reference's text. The paper itself (its DOI, or its title) is never a gap. The rules:

- **high, same dataset and highly cited**: the work uses a dataset the paper uses (matched to the graph) and has at
  least `highly_cited` citations (OpenAlex cited_by_count when recorded, else the KG's citing publications).
- **high, newer version's reference paper**: the paper uses a version the graph says is replaced; of the works that
  use its successor, the most cited one (then the most similar, then by id) stands for the newer version's reference
  paper (the graph does not mark a dataset's reference paper: this is the closest it can tell).
- **high, comment on a work it relies on**: a recorded comment (`recorded_disputes`, relation comment) on a work the
  paper cites (by DOI), which the reference list lacks.
- **medium, similar work**: a work whose TF-IDF similarity to the paper (`keywords.TfidfCorpus`) is at least
  `min_similarity` (on its keywords; the why says when it also uses one of the paper's datasets); the `max_medium`
  most similar ones. A work on the paper's dataset but not on its keywords is no gap by itself: a dataset as used
  as TRMM 3B42 has hundreds of papers on other subjects.

A work several rules find is one gap, at its highest severity, with every rule's why. The issue's citation score
(`scores.citation_score`) counts high and medium gaps. Source of the severities: issue 22 ("Citation gaps").

Online (OpenAlex can be asked AND the papers' own opt-in, RECON_PAPERS_ONLINE=online, is set: a search built from an
unpublished manuscript's keywords sends its text), OpenAlex search adds works the graph lacks (`search_texts` builds
the queries from the paper's top TF-IDF terms and its matched datasets' names; `openalex_works` turns the answers into
`Work`s keyed 'openalex:W…', a work whose DOI is a graph publication or the paper itself left out). They are read in
the same TF-IDF space as the graph's and found by the same rules; having no dataset known to the graph, they can be
medium gaps only (similar work), and their why says OpenAlex search found them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from recon_assets.kg.doi import canonical_doi

HIGH, MEDIUM = "high", "medium"
SAME_DATASET_HIGHLY_CITED = "same dataset, highly cited"
NEWER_VERSION_REFERENCE = "newer version's reference paper"
COMMENT_ON_CITED_WORK = "comment on a work it relies on"
SIMILAR_WORK = "similar work"
# At least this many citations make a work highly cited (a paper in the top few percent of Earth-science papers by
# OpenAlex counts; a setting of the asset).
HIGHLY_CITED = 100
# TF-IDF cosine similarity at or above which a work is on the paper's keywords: a first setting, not calibrated on
# real papers yet (the measured papers of issue 22 are still to come).
MIN_SIMILARITY = 0.1
MAX_MEDIUM = 10
_WORDS = re.compile(r"[^\W_]+")
_MIN_TITLE_WORDS = 4


def _words(text: str | None) -> str:
    return " ".join(_WORDS.findall((text or "").lower()))


@dataclass(frozen=True)
class References:
    """What the paper cites and is: its references' DOIs (canonical) and texts, and its own DOI and title."""

    dois: frozenset[str] = frozenset()
    texts: tuple[str, ...] = ()
    own_doi: str | None = None
    own_title: str | None = None
    _texts: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "_texts", tuple(_words(text) for text in self.texts))

    def lists(self, doi: str | None, title: str | None) -> bool:
        """The reference list holds the work: its DOI, or its title of 4+ words inside a reference's text."""
        if doi and doi in self.dois:
            return True
        words = _words(title)
        return len(words.split()) >= _MIN_TITLE_WORDS and any(words in text for text in self._texts)

    def is_paper(self, doi: str | None, title: str | None) -> bool:
        """The work is the paper itself (same DOI, or same title as lower-case words)."""
        return bool(doi and doi == self.own_doi) or bool(self.own_title and _words(title) and _words(title) == _words(self.own_title))


@dataclass(frozen=True)
class UsedDataset:
    """A dataset the paper uses (matched): its id and name with version, and its successor when it is replaced."""

    dataset_id: str
    name: str
    successor_id: str | None = None
    successor_name: str | None = None


@dataclass(frozen=True)
class Work:
    """A publication of the graph, or a work OpenAlex search found (`found_by` says so; its datasets unknown, none):
    its citations (None when unknown) and where they come from, the datasets it uses and its TF-IDF similarity to the
    paper (0-1)."""

    publication_id: str
    doi: str | None
    title: str | None
    year: int | None
    citations: int | None
    citation_source: str
    dataset_ids: frozenset[str]
    similarity: float
    found_by: str | None = None


@dataclass(frozen=True)
class Comment:
    """A recorded comment on a publication of the graph (`recorded_disputes`): on which, and the comment's key, DOI,
    title and year."""

    on_publication_id: str
    on_doi: str | None
    key: str
    doi: str | None
    title: str | None
    year: int | None


@dataclass(frozen=True)
class CitationGap:
    """A work the reference list lacks: the graph's publication id (or the comment's key), DOI, title, year, severity
    (HIGH or MEDIUM), the rules that found it and why (one clause each), its similarity and citations when known."""

    key: str
    doi: str | None
    title: str | None
    year: int | None
    severity: str
    rules: tuple[str, ...]
    why: str
    similarity: float | None
    citations: int | None


def citation_gaps(
    references: References,
    datasets: Sequence[UsedDataset],
    works: Sequence[Work],
    comments: Sequence[Comment] = (),
    *,
    highly_cited: int = HIGHLY_CITED,
    min_similarity: float = MIN_SIMILARITY,
    max_medium: int = MAX_MEDIUM,
) -> list[CitationGap]:
    """The paper's citation gaps by the module's rules: high ones first, then medium, each by similarity (highest
    first) then key.

    Args:
        references: what the paper cites and is.
        datasets: the datasets it uses, matched to the graph (none is allowed: no dataset rule applies).
        works: the graph's publications with their citations, datasets and similarity to the paper.
        comments: recorded comments on the graph's publications (any; only those on works the paper cites count).
    Raises:
        ValueError: highly_cited < 1, min_similarity outside [0, 1] or max_medium < 0.
    """
    if highly_cited < 1 or not 0 <= min_similarity <= 1 or max_medium < 0:
        raise ValueError(f"need highly_cited >= 1, 0 <= min_similarity <= 1, max_medium >= 0; got {highly_cited}, {min_similarity}, {max_medium}")
    found: dict[str, list] = {}  # key -> [work or None, severity, rules, whys, doi, title, year]

    def add(key, work, severity, rule, why, doi=None, title=None, year=None):
        entry = found.setdefault(key, [work, MEDIUM, [], [], doi, title, year])
        entry[1] = HIGH if HIGH in (entry[1], severity) else MEDIUM
        if rule not in entry[2]:
            entry[2].append(rule)
            entry[3].append(why)

    names = {d.dataset_id: d.name for d in datasets}
    open_works = [w for w in works if not references.lists(w.doi, w.title) and not references.is_paper(w.doi, w.title)]
    for work in open_works:
        same = sorted(names[d] for d in work.dataset_ids & names.keys())
        if same and work.citations is not None and work.citations >= highly_cited:
            add(work.publication_id, work, HIGH, SAME_DATASET_HIGHLY_CITED,
                f"uses {', '.join(same)} as the paper does and is highly cited ({work.citations} citations, {work.citation_source}; >= {highly_cited})")
    for dataset in datasets:
        on_successor = [w for w in open_works if dataset.successor_id and dataset.successor_id in w.dataset_ids]
        if on_successor:
            best = min(on_successor, key=lambda w: (-(w.citations or 0), -w.similarity, w.publication_id))
            add(best.publication_id, best, HIGH, NEWER_VERSION_REFERENCE,
                f"the most cited work of the graph on {dataset.successor_name or dataset.successor_id}, which replaced "
                f"{dataset.name} the paper uses ({best.citations if best.citations is not None else 'unknown'} citations)")
    cited = {w.publication_id: w for w in works if references.lists(w.doi, w.title)}
    for comment in comments:
        if comment.on_publication_id in cited and not references.lists(comment.doi, comment.title) and not references.is_paper(comment.doi, comment.title):
            on = cited[comment.on_publication_id]
            add(comment.key, None, HIGH, COMMENT_ON_CITED_WORK,
                f"a recorded comment on {on.doi or on.publication_id} ({on.title or 'untitled'}), which the paper cites",
                comment.doi, comment.title, comment.year)
    similar = sorted((w for w in open_works if w.similarity >= min_similarity), key=lambda w: (-w.similarity, w.publication_id))
    for work in similar[:max_medium]:
        same = sorted(names[d] for d in work.dataset_ids & names.keys())
        on_datasets = f"uses {', '.join(same)} as the paper does; " if same else ""
        found_by = f"found by {work.found_by}; " if work.found_by else ""
        add(work.publication_id, work, MEDIUM, SIMILAR_WORK,
            f"{found_by}{on_datasets}TF-IDF similarity {work.similarity:.2f} to the paper, on its keywords (>= {min_similarity:g})")
    gaps = [
        CitationGap(
            key, work.doi if work else doi, work.title if work else title, work.year if work else year, severity, tuple(rules),
            "; ".join(whys), work.similarity if work else None, work.citations if work else None,
        )
        for key, (work, severity, rules, whys, doi, title, year) in found.items()
    ]
    return sorted(gaps, key=lambda g: (g.severity != HIGH, -(g.similarity or 0.0), g.key))


OPENALEX_SEARCH = "OpenAlex search"
# The paper's terms a search is built from: the first query holds SEARCH_TERMS of them, each dataset query its name
# and DATASET_TERMS of them; at most MAX_DATASET_QUERIES datasets (a search page costs 10 of the day's 10,000 list calls).
SEARCH_TERMS, DATASET_TERMS, MAX_DATASET_QUERIES = 6, 3, 2


def search_texts(terms: Sequence[str], dataset_names: Sequence[str]) -> list[str]:
    """The OpenAlex search texts of a paper: its top `terms` (TF-IDF, best first) joined, then per matched dataset
    (at most MAX_DATASET_QUERIES, in order) its name with the top DATASET_TERMS terms; each word once in a text, each
    text once, none empty.
    What they hold is the paper's own wording: they are sent only with the papers' opt-in."""
    texts = [_unique_words(terms[:SEARCH_TERMS])]
    texts += [_unique_words((name, *terms[:DATASET_TERMS])) for name in list(dict.fromkeys(dataset_names))[:MAX_DATASET_QUERIES]]
    return [text for text in dict.fromkeys(texts) if text]


def _unique_words(parts: Sequence[str]) -> str:
    """The words of `parts` joined, each once (a bigram term repeats its words: 'gold deposits', 'gold')."""
    return " ".join(dict.fromkeys(word for part in parts for word in part.split()))


def openalex_works(works: Sequence[dict], similarity: Sequence[float], graph_dois: set[str], references: References) -> list[Work]:
    """`Work`s of OpenAlex search answers (OpenAlex work dicts with id, doi, title, publication_year, cited_by_count)
    with their TF-IDF `similarity` (same order): keyed 'openalex:<W id>', DOI canonical, citations OpenAlex's
    cited_by_count, no dataset, found_by OPENALEX_SEARCH. A work whose DOI is in `graph_dois` (the graph's publication
    is read instead) or that is the paper itself is left out; each OpenAlex id once."""
    found: dict[str, Work] = {}
    for work, value in zip(works, similarity):
        doi = canonical_doi(work.get("doi"))
        key = f"openalex:{str(work.get('id', '')).rsplit('/', 1)[-1]}"
        if (doi and doi in graph_dois) or references.is_paper(doi, work.get("title")) or key in found:
            continue
        year, count = work.get("publication_year"), work.get("cited_by_count")
        found[key] = Work(key, doi, work.get("title"), year if isinstance(year, int) else None, count if isinstance(count, int) else None,
                          "OpenAlex cited_by_count", frozenset(), float(value), OPENALEX_SEARCH)
    return list(found.values())
