"""A paper's keywords, offline: the terms that set its text apart from the graph's publications (TF-IDF, scikit-learn's
TfidfVectorizer), each matched to the graph's GCMD ScienceKeyword nodes where one fits; and the TF-IDF similarity of
the paper to each publication, which the citation gaps rank candidates by (`papers.gaps`).

TF-IDF: the vectorizer is fitted on the publications' title + abstract texts and the paper's text together (the paper
is one more document, so a term only it uses still has an idf); a term is a word of 3+ letters or a pair of them
(English stop words left out; a pair never spans a sentence or clause break), tf is sublinear (1 + log tf) and rows are L2-normalised, so a weight is in [0, 1] and
the dot product of two rows is their cosine similarity. Source: scikit-learn's TfidfVectorizer
(https://scikit-learn.org/stable/modules/feature_extraction.html#tfidf-term-weighting).

A keyword is a term whose every word the graph's publications use (GRAPH_MIN_DF of them or more) or a GCMD keyword's
name holds: the vocabulary of the graph's titles, abstracts and keywords is the test of a word. A word none of them uses is the paper's own coinage or an
artefact of its PDF (a symbol run into its subscript, "Opt_def" read as "optdef" in a real paper,
`recon_assets_tests/fixtures/papers/real/kim2020_remotesensing_smart_lai.pdf`), and would match nothing of the graph
anyway. The price: an acronym only the paper uses ("ATCE") is not a keyword. With no publication to read, nothing is
filtered. The similarity to each publication is computed on every term (a word only the paper uses adds nothing to it).

Matching a term to a GCMD keyword (names upper case, "PRECIPITATION AMOUNT", "LAND USE/LAND COVER"): the term's words
and the keyword's, each lower-cased and Snowball-stemmed ("aerosols" and "AEROSOL" meet), are compared:
  - "same words": the same stems in the same order (precipitation amount = PRECIPITATION AMOUNT);
  - "term in keyword": the term's stems are a run of the keyword's (precipitation in PRECIPITATION AMOUNT);
  - "keyword in term": the keyword's stems are a run of the term's (PRECIPITATION in satellite precipitation).
Among several fitting keywords the better kind wins (in that order), then the one with fewest words more or less
than the term, then the one more datasets and publications link to, then by name.
A term no keyword fits is kept with no keyword (a paper on a topic the graph has no keyword for is not dropped).
Online, with the papers' opt-in, the LLM refines these keywords (`papers.llm_keywords`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import snowballstemmer

from recon_assets.papers.parse import PaperDocument

TOP_TERMS = 15
SAME_WORDS, TERM_IN_KEYWORD, KEYWORD_IN_TERM = "same words", "term in keyword", "keyword in term"
MATCHES = (SAME_WORDS, TERM_IN_KEYWORD, KEYWORD_IN_TERM)  # the better fit first
# Words of 3+ letters (a hyphen inside allowed): numbers, units and single letters carry no topic.
_TOKEN = r"(?u)\b[^\W\d_]{3,}(?:-[^\W\d_]+)*\b"
_CLAUSE_BREAK = re.compile(r"[.;:!?,()\[\]]")
_WORD = re.compile(r"[^\W\d_]+")
METHOD = ("offline TF-IDF (scikit-learn TfidfVectorizer, unigrams and bigrams, English stop words) against the graph's publications, "
          "each word of a term one the graph's publications use")
# A keyword's every word must occur in at least this many of the graph's publications (title + abstract): a word no
# publication uses is the paper's own coinage or an artefact of its PDF (a subscripted symbol run into its
# subscript, "Opt_def" read as "optdef"; a running header's abbreviation), and matches nothing of the graph.
GRAPH_MIN_DF = 1


@dataclass(frozen=True)
class ScienceKeyword:
    """A GCMD science keyword of the graph (a `science_keywords` row): its id, name and how many datasets and
    publications link to it."""

    keyword_id: str
    name: str
    links: int = 0


@dataclass(frozen=True)
class PaperKeyword:
    """One of the paper's top TF-IDF terms: its weight in [0, 1] and the GCMD keyword it fits (None when none does)
    with how it was matched (SAME_WORDS or TERM_IN_KEYWORD)."""

    term: str
    weight: float
    keyword: ScienceKeyword | None
    match: str | None


class TfidfCorpus:
    """The paper's text and the publications' texts in one TF-IDF space.

    Args:
        paper_text: the paper's text (may be empty).
        texts: the publications' title + abstract texts, n of them (missing ones as '').
    Attributes:
        paper: the paper's row, shape (1, vocabulary) sparse; all zeros when it has no term.
        rows: the publications' rows, shape (n, vocabulary) sparse.
        terms: the vocabulary, in column order; empty when no text has a term.
        graph_words: the single words that GRAPH_MIN_DF or more publications use (their vocabulary; None when there is
            no publication with a term, and then no term is filtered).
    """

    def __init__(self, paper_text: str, texts: Sequence[str]):
        # imported here, not with the module: every code server and run worker loads the definitions, which import
        # this module, and scikit-learn (with scipy) takes about 1.2 CPU-s to import (issue 23, suite time)
        from sklearn.feature_extraction.text import TfidfVectorizer

        documents = [text or "" for text in texts] + [paper_text or ""]
        words = TfidfVectorizer(stop_words="english", ngram_range=(1, 2), token_pattern=_TOKEN).build_analyzer()
        vectorizer = TfidfVectorizer(  # a pair of words never spans a sentence or clause break ("basin. Aerosols")
            analyzer=lambda document: [term for clause in _CLAUSE_BREAK.split(document) for term in words(clause)], sublinear_tf=True,
        )
        try:
            matrix = vectorizer.fit_transform(documents)
            self.terms = vectorizer.get_feature_names_out()
        except ValueError:  # "empty vocabulary": no document has a term (all empty, or only stop words and numbers)
            matrix, self.terms = None, np.array([], dtype=object)
        self.rows = matrix[:-1] if matrix is not None else None
        self.paper = matrix[-1] if matrix is not None else None
        self.count = len(texts)
        self.graph_words: frozenset[str] | None = None
        if self.rows is not None and self.count and self.rows.nnz:
            frequency = np.asarray(self.rows.getnnz(axis=0)).ravel()
            self.graph_words = frozenset(str(t) for t, n in zip(self.terms, frequency) if n >= GRAPH_MIN_DF and " " not in t)

    def in_graph_vocabulary(self, term: str) -> bool:
        """Every word of the term is one the graph's publications use (`graph_words`); True when there is none to ask."""
        return self.graph_words is None or all(word in self.graph_words for word in term.split())

    def top_terms(self, top: int = TOP_TERMS) -> list[tuple[str, float]]:
        """The paper's `top` terms by weight (ties by term) among those whose every word the graph's publications use
        (`in_graph_vocabulary`), [(term, weight in (0, 1])]; [] when it has none. The weights are the paper's row's
        (L2-normalised over all its terms, the filtered ones included)."""
        if self.paper is None or self.paper.nnz == 0:
            return []
        row = self.paper.tocoo()
        ranked = sorted(zip(row.col, row.data), key=lambda item: (-item[1], self.terms[item[0]]))
        kept = ((str(self.terms[column]), float(weight)) for column, weight in ranked)
        return [(term, weight) for term, weight in kept if self.in_graph_vocabulary(term)][:top]

    def similarities(self) -> np.ndarray:
        """Cosine similarity of the paper to each publication, shape (n,), in [0, 1]; zeros when either side has no term."""
        if self.paper is None or self.count == 0:
            return np.zeros(self.count)
        return np.asarray((self.rows @ self.paper.T).todense()).ravel()


@lru_cache(maxsize=1)
def _stemmer():
    return snowballstemmer.stemmer("english")


def stems(text: str) -> tuple[str, ...]:
    """The lower-cased Snowball stems of a text's words ('LAND USE/LAND COVER' -> ('land', 'use', 'land', 'cover'))."""
    return tuple(_stemmer().stemWords([word.lower() for word in _WORD.findall(text or "")]))


def _holds(longer: tuple[str, ...], shorter: tuple[str, ...]) -> bool:
    """`shorter` is a run of `longer`."""
    return any(longer[i:i + len(shorter)] == shorter for i in range(len(longer) - len(shorter) + 1))


def match_keyword(term: str, keywords: Sequence[ScienceKeyword]) -> tuple[ScienceKeyword | None, str | None]:
    """The GCMD keyword a term fits and how (module docstring), or (None, None)."""
    wanted = stems(term)
    if not wanted:
        return None, None
    best: tuple[tuple, ScienceKeyword, str] | None = None
    for keyword in keywords:
        have = stems(keyword.name)
        if have == wanted:
            kind = SAME_WORDS
        elif _holds(have, wanted):
            kind = TERM_IN_KEYWORD
        elif _holds(wanted, have):
            kind = KEYWORD_IN_TERM
        else:
            continue
        rank = (MATCHES.index(kind), abs(len(have) - len(wanted)), -keyword.links, keyword.name)
        if best is None or rank < best[0]:
            best = (rank, keyword, kind)
    return (best[1], best[2]) if best else (None, None)


def paper_keywords(
    paper_text: str, publication_texts: Sequence[str], keywords: Sequence[ScienceKeyword], top: int = TOP_TERMS
) -> list[PaperKeyword]:
    """The paper's `top` TF-IDF terms against the publications (`TfidfCorpus`), each with the GCMD keyword it fits.

    Args:
        paper_text: the paper's text (headings, paragraphs, captions); empty gives [].
        publication_texts: the graph's publications' title + abstract texts (none is allowed: idf is then the paper's).
        keywords: the graph's GCMD science keywords (none is allowed: no term gets one).
    Returns:
        Up to `top` PaperKeyword, heaviest first.
    """
    corpus = TfidfCorpus(paper_text, publication_texts)
    if corpus.graph_words is not None:  # a GCMD keyword's words are the graph's words too
        corpus.graph_words = corpus.graph_words | {word.lower() for k in keywords for word in _WORD.findall(k.name or "")}
    found = []
    for term, weight in corpus.top_terms(top):
        keyword, match = match_keyword(term, keywords)
        found.append(PaperKeyword(term, weight, keyword, match))
    return found


def document_text(document: PaperDocument, title: str | None = None) -> str:
    """The text a paper's keywords and similarity are read from: its title, headings, paragraphs and captions, one
    per line (the reference list is left out: it is other works' words)."""
    parts = [title or "", *(s.title for s in document.sections), *(p.text for p in document.paragraphs), *(c.text for c in document.captions)]
    return "\n".join(part for part in parts if part)
