"""Answering one question over the graph's scores (issue 21): the retrieval pool read from the tables, retrieval by
RECON's hybrid score, the critic's rounds with rewritten sub-questions, merged by DOI. The same functions serve the
assets (`briefs.assets`) and the offline benchmark (benchmarks/briefs_offline.py), so what is measured is what runs.

The pool of a question (`load_pool`): the publications with a scored edge to a dataset of its scope and the
publications citing them (a comment cites what it answers), from `question_pool_papers.sql`; their edges to the
scope's datasets (`question_pool_edges.sql`); the judged contradictions and recorded comments among them
(`question_pool_debates.sql`). Each round keeps the `per_round` best of the pool by hybrid score for its
sub-questions, each paper's semantic similarity the best over the sub-questions (RECON retrieves per sub-question and
merges); the rounds' candidates are merged by DOI (`retrieval.merge_candidates`) and judged (`critic.judge_question`).
A rewrite round may first widen the pool with what a search finds for its rewritten sub-questions (`Search`: online,
OpenAlex search, `briefs.searching`), as the plan's search widened round 0's.

Similarity and search are functions given by the caller (`Similarity`, `Search`), so the embedding model, OpenAlex
and their caches stay outside.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date

import numpy as np

from recon_assets.briefs.critic import Comment, Debates, EdgeAssessment, Evidence, JudgedContradiction, QuestionJudgement, debates_in, judge_question
from recon_assets.briefs.planner import SubQuestion, rewrite
from recon_assets.briefs.retrieval import KG, Candidate, candidate_key, citation_tags, merge_candidates, score_papers
from recon_assets.judgement.judge_address import without_judge_address
from recon_assets.judgement.text_embedding import cosine_similarities
from recon_assets.kg.authors import author_names
from recon_assets.reliability.settings import Decay
from recon_assets.verdicts.critic import VerdictRules

# Candidates kept per round (the benchmark's default; RECON's retriever keeps its top 8 for the synthesizer too).
PER_ROUND = 8
CONTRADICTION, COMMENT = "contradiction", "comment"

# (queries, texts) -> similarity of each text to its best query, shape (len(texts),), cosine in [-1, 1].
Similarity = Callable[[Sequence[str], Sequence[str]], np.ndarray]


@dataclass(frozen=True)
class Pool:
    """A question's retrieval pool: its papers by KG publication id (semantic 0 until retrieved), each paper's edges
    as (dataset_id, EdgeAssessment), the judged contradictions (older id, newer id) and the recorded comments
    (commented id, comment id, answered) among them, and `dataset_ids`, the question's datasets in scope (None: the
    scope names none, every dataset counts). Only a paper's edges to those datasets are its evidence (`scope_edges`):
    DOMAIN.md weighs "papers whose edges to the question's datasets are not UNVERIFIED", so a paper's edge to another
    dataset (a TRMM question's paper that also uses MODIS land cover) never makes it assessed or standing."""

    papers: Mapping[str, Candidate]
    edges: Mapping[str, tuple[tuple[str, EdgeAssessment], ...]]
    contradictions: tuple[tuple[str, str], ...] = ()
    comments: tuple[tuple[str, str, bool], ...] = ()
    dataset_ids: tuple[str, ...] | None = None

    def scope_edges(self, publication_id: str | None) -> tuple[EdgeAssessment, ...]:
        """The paper's edges to the question's datasets in scope (every edge when the scope names none); none for a
        paper without a KG id (found only in OpenAlex)."""
        found = self.edges.get(publication_id, ()) if publication_id is not None else ()
        return tuple(edge for dataset_id, edge in found if self.dataset_ids is None or dataset_id in self.dataset_ids)

    def text(self, publication_id: str) -> str:
        """What similarity is computed on: 'title. abstract'."""
        paper = self.papers[publication_id]
        return f"{paper.title}. {paper.abstract or ''}"


@dataclass(frozen=True)
class RoundSearch:
    """What a round's search did: the papers it added to the pool (works whose DOI the pool lacked), one line on the
    search (sent, read from a cache, failed or not sent and why; None: no search ran), the HTTP requests and
    OpenAlex list calls it spent, and how many of its queries were not answered now (failed, not sent although
    requests could be, or answered by an older cached answer)."""

    added: int = 0
    said: str | None = None
    requests: int = 0
    list_calls: int = 0
    unanswered: int = 0


# (the pool, a rewrite round's sub-questions) -> (the pool with what a search for them found, what the search did).
# Never raises for the search service's failures: the round is then judged over the pool it had, the failure said.
Search = Callable[[Pool, Sequence[SubQuestion]], tuple[Pool, RoundSearch]]


@dataclass(frozen=True)
class Round:
    """One round: its number (0 first), the sub-questions it retrieved with, the merged evidence of every round so
    far with its edges, the debates within it, the verdict, the seconds it took and what its search added to the
    pool (`RoundSearch`; round 0: the plan's search, as the caller gives it)."""

    number: int
    subquestions: tuple[SubQuestion, ...]
    evidence: tuple[Evidence, ...]
    debates: Debates
    judgement: QuestionJudgement
    seconds: float
    search: RoundSearch = RoundSearch()


def load_pool(con, dataset_ids: Sequence[str] | None) -> Pool:
    """The pool of a scope's datasets (`dataset_ids`; None: every dataset) from the tables publications,
    publication_citations, edge_reliability, coherence_judgements and recorded_disputes. `con` is a DuckDB connection
    (or the store's `Tables`). Dataset names in the edges read 'SHORT_NAME VERSION'. Abstracts are read without the
    wording that addresses a reader-model (`judge_address.without_judge_address`): a planted instruction moves no
    similarity, hence no ranking."""
    from recon_assets.shared.sql_files import load_sql  # package data reader; kept out of the pure functions' imports

    ids = None if dataset_ids is None else list(dataset_ids)
    papers = {
        row[0]: Candidate(doi=row[1], title=row[2] or "", source=KG, semantic=0.0, year=_year(row[3]), abstract=without_judge_address(row[4])[0],
                          authors=tuple(author_names(row[5])), cited_by_count=None if row[6] is None else int(row[6]),
                          publication_id=row[0])
        for row in con.execute(load_sql("question_pool_papers"), [ids]).fetchall()
    }
    edges: dict[str, list[tuple[str, EdgeAssessment]]] = {}
    for publication_id, dataset_id, short_name, version, label, reliability, reason, superseded, _ in con.execute(
            load_sql("question_pool_edges"), [ids]).fetchall():
        if publication_id in papers:
            edge = EdgeAssessment(f"{short_name or dataset_id} {version or ''}".strip(), label, float(reliability), reason, bool(superseded))
            edges.setdefault(publication_id, []).append((dataset_id, edge))
    contradictions, comments = [], []
    for kind, first, second, answered in con.execute(load_sql("question_pool_debates"), [sorted(papers)]).fetchall():
        if kind == CONTRADICTION:
            contradictions.append((first, second))
        elif second in papers:
            comments.append((first, second, bool(answered)))
    return Pool(papers, {key: tuple(found) for key, found in edges.items()}, tuple(contradictions), tuple(comments), None if ids is None else tuple(ids))


def cosine_similarity(embed_texts: Callable[[Sequence[str]], np.ndarray]) -> Similarity:
    """A `Similarity` from an embedder of L2-normalised vectors (n texts -> shape (n, d)): the cosine similarity of
    each text with each query (`text_embedding.cosine_similarities`), its best over the queries."""

    def similarity(queries: Sequence[str], texts: Sequence[str]) -> np.ndarray:
        return cosine_similarities(embed_texts, queries, texts).max(axis=0)

    return similarity


def retrieve(pool: Pool, queries: Sequence[str], similarity: Similarity, as_of: date, decay: Decay,
             per_round: int = PER_ROUND) -> list[Candidate]:
    """The `per_round` best papers of the pool by hybrid score (`retrieval.score_papers`) for `queries`, each with its
    best similarity over them. An empty pool or no query gives none."""
    ids = list(pool.papers)
    if not ids or not queries:
        return []
    semantic = similarity(list(queries), [pool.text(key) for key in ids])
    found = [replace(pool.papers[key], semantic=float(np.clip(value, -1.0, 1.0))) for key, value in zip(ids, semantic)]
    return [scored.candidate for scored in score_papers(found, as_of, decay)[:per_round]]


def assess(pool: Pool, candidates: Sequence[Candidate], as_of: date, decay: Decay) -> list[Evidence]:
    """The candidates merged by DOI and scored, best first, each with its edges to the question's datasets in scope
    (`Pool.scope_edges`): a paper with none is unassessed, outside the critic's staleness weight."""
    scored = score_papers(merge_candidates(candidates).papers, as_of, decay)
    return [Evidence(paper, pool.scope_edges(paper.candidate.publication_id)) for paper in scored]


def debates_of(pool: Pool, evidence: Sequence[Evidence]) -> Debates:
    """The judged contradictions and recorded comments of the pool that concern the evidence (`critic.debates_in`),
    each comment cited by its tag in the brief (`comment_citations`)."""
    key_of = {publication_id: candidate_key(paper) for publication_id, paper in pool.papers.items()}
    pairs = [JudgedContradiction(key_of[older], key_of[newer]) for older, newer in pool.contradictions if older in key_of and newer in key_of]
    tags = comment_citations(pool, evidence)
    comments = [Comment(key_of[commented], tags[comment], answered) for commented, comment, answered in pool.comments if commented in key_of]
    return debates_in(evidence, pairs, comments)


def comment_citations(pool: Pool, evidence: Sequence[Evidence]) -> dict[str, str]:
    """The citation tag of each recorded comment of the pool, by KG publication id: its evidence tag when the comment
    is in the evidence, else the tag retrieval gives its paper (`retrieval.citation_tags`), unique beside the
    evidence's tags and the other comments' (two title-cited comments of one title and year: '2019a', '2019b')."""
    cited = {item.paper.key: item.paper.citation for item in evidence}
    tags = {comment: cited[key] for _, comment, _ in pool.comments if (key := candidate_key(pool.papers[comment])) in cited}
    others = list(dict.fromkeys(comment for _, comment, _ in pool.comments if comment not in tags))
    tags |= dict(zip(others, citation_tags([pool.papers[comment] for comment in others], taken=set(cited.values()))))
    return tags


def comment_citation(paper: Candidate) -> str:
    """A paper's citation tag on its own, as retrieval gives it (`retrieval.citation_tags`); within a brief, where two
    tags may need telling apart, `comment_citations`."""
    return citation_tags([paper])[0]


def answer_rounds(
    question: str,
    subquestions: Sequence[SubQuestion],
    terms: Sequence[str | None],
    pool: Pool,
    similarity: Similarity,
    as_of: date,
    decay: Decay,
    rules: VerdictRules,
    scope_problem: str | None = None,
    per_round: int = PER_ROUND,
    first: Sequence[Candidate] | None = None,
    search: Search | None = None,
    first_search: RoundSearch = RoundSearch(),
) -> list[Round]:
    """Every round of a question: round 0 retrieves with the question and its plan's `subquestions` (or takes the
    candidates `first` already retrieved so), each later round with the sub-questions `planner.rewrite` gives for the
    last verdict, until a verdict asks no rewrite (PASS, FORCED_PASS at the ceiling of `rules.expansion_rounds`, a
    `scope_problem`, or a scoped pool with no paper: `empty_pool_problem`, since no rewrite can retrieve from it).
    With `search`, a rewrite round first widens the pool with what it finds for the round's sub-questions (merged by
    DOI there), then retrieves from the widened pool; without it (the offline benchmark) the pool stays as given.
    `first_search` is what the plan's search added to the given pool, recorded on round 0.

    Raises:
        ValueError: an unknown decay (`retrieval.paper_recency`).
    """
    scope_problem = scope_problem or empty_pool_problem(pool)
    rounds: list[Round] = []
    started = time.perf_counter()
    candidates = list(first) if first is not None else retrieve(pool, [question, *(item.text for item in subquestions)], similarity, as_of, decay, per_round)
    asked, searched = tuple(subquestions), first_search
    while True:
        evidence = assess(pool, candidates, as_of, decay)
        debates = debates_of(pool, evidence)
        judgement = judge_question(evidence, debates, rules, as_of, len(rounds), scope_problem)
        rounds.append(Round(len(rounds), asked, tuple(evidence), debates, judgement, time.perf_counter() - started, searched))
        if not judgement.rewrite:
            return rounds
        started = time.perf_counter()
        opening = rounds[0].debates
        debated = [pair.older_citation for pair in opening.pairs] + [dispute.commented for dispute in opening.disputes]
        asked = rewrite(question, judgement.rewrite, terms, as_of, debated)
        pool, searched = search(pool, asked) if search is not None else (pool, RoundSearch())
        candidates += retrieve(pool, [item.text for item in asked], similarity, as_of, decay, per_round)


def empty_pool_problem(pool: Pool) -> str | None:
    """Why a scoped question has nothing to answer from, or None: its datasets matched KG nodes, but no publication
    has a scored edge to them and no paper came in otherwise (a sample's TRMM_3B42RT V7 node, used by no paper).
    The verdict is then INSUFFICIENT with this reason and not retried (issue 21: "a scope that matches nothing gets
    ... an INSUFFICIENT verdict with the reason"), as for a scope naming no KG dataset."""
    if pool.dataset_ids is None or pool.papers:
        return None
    return (f"no publication of the knowledge graph has a scored edge to the scope's {len(pool.dataset_ids)} dataset(s), "
            "and none cites one: a rewrite cannot retrieve what the graph does not hold")


def _year(value: object) -> int | None:
    return None if value is None or (isinstance(value, float) and np.isnan(value)) else int(value)
