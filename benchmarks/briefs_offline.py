"""The research briefs, offline, on the labelled questions (issue 21, "Measured, not asserted"): the pure pipeline of
`recon_assets/briefs` (offline plan, retrieval by RECON's hybrid score, the critic with up to 2 rewrite rounds, the
extractive brief) over a DuckDB file that `recon run` scored, graded by rule (`briefs.grading`) beside two baselines.
Prints one JSON report; nothing is asserted.

    recon run --db /tmp/x/recon.duckdb --as-of 2026-12-01        # the sample, offline (DAGSTER_HOME a temp folder)
    .venv/bin/python benchmarks/briefs_offline.py --db /tmp/x/recon.duckdb [--as-of 2026-12-01] [--per-round 8]

Reads (read-only): publications, publication_citations, datasets, dataset_lineage, edge_reliability,
coherence_judgements (CONTRADICTED pairs) and recorded_disputes (comments; answered when a reply is recorded).
Retrieval pool of a question: the publications with an edge to a dataset of its scope and the publications citing
them (a comment cites what it answers); each round keeps the `--per-round` best by hybrid score of its
sub-questions (the question and its offline plan, then the rewrites) and merges them by DOI with the earlier rounds.

Conditions: `critic` (the scores' critic, up to 2 rewrite rounds), `age_rule_first_round` and `critic_first_round`
(RECON's 24-month rule against the scores, both on the first round's evidence), `no_critic` (the first round's
evidence with no verdict and no edge scores: RECON's single-pass retrieval). The graph must hold the labelled
questions' papers (the shipped sample does).
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from datetime import date

import duckdb
import numpy as np

from recon_assets.briefs.critic import Comment, EdgeAssessment, Evidence, JudgedContradiction, debates_in, judge_question
from recon_assets.briefs.grading import MEASURES, grade, rates
from recon_assets.briefs.planner import offline_plan, rewrite
from recon_assets.briefs.question_cases import read_question_cases
from recon_assets.briefs.questions import DatasetRow, resolve_scope
from recon_assets.briefs.retrieval import KG, Candidate, candidate_key, merge_candidates, score_papers
from recon_assets.briefs.synthesis import extractive_brief
from recon_assets.judgement.text_embedding import embed
from recon_assets.kg.authors import author_names
from recon_assets.verdicts.critic import VerdictRules


def load(con: duckdb.DuckDBPyConnection):
    publications = con.execute("SELECT publication_id, doi, title, year, abstract, authors FROM publications").fetchall()
    papers = {
        row[0]: Candidate(doi=row[1], title=row[2] or "", source=KG, semantic=0.0, year=row[3], abstract=row[4],
                          authors=tuple(author_names(row[5])), publication_id=row[0])
        for row in publications
    }
    cited_by = defaultdict(set)
    for citing, cited in con.execute("SELECT citing_publication_id, cited_publication_id FROM publication_citations").fetchall():
        cited_by[cited].add(citing)
    datasets = [DatasetRow(*row) for row in con.execute(
        "SELECT d.dataset_id, d.short_name, l.version_text, d.doi FROM datasets d LEFT JOIN dataset_lineage l USING (dataset_id)").fetchall()]
    edges = defaultdict(list)
    for publication_id, dataset_id, short_name, version, label, reliability, reason, superseded in con.execute(
            "SELECT publication_id, dataset_id, dataset_short_name, dataset_version, label, reliability, reason, dataset_superseded "
            "FROM edge_reliability").fetchall():
        edges[publication_id].append((dataset_id, EdgeAssessment(f"{short_name} {version or ''}".strip(), label, reliability, reason, bool(superseded))))
    contradictions = con.execute(
        "SELECT DISTINCT older_publication_id, newer_publication_id FROM coherence_judgements WHERE verdict = 'CONTRADICTED'").fetchall()
    replied = {row[0] for row in con.execute("SELECT publication_id FROM recorded_disputes WHERE relation = 'reply'").fetchall()}
    comments = [(row[0], row[1], row[0] in replied) for row in con.execute(
        "SELECT DISTINCT publication_id, other_key FROM recorded_disputes WHERE relation = 'comment'").fetchall()]
    return papers, cited_by, datasets, edges, contradictions, comments


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--as-of", type=date.fromisoformat, default=date(2026, 12, 1))
    parser.add_argument("--per-round", type=int, default=8)
    args = parser.parse_args()
    rules = VerdictRules()
    with duckdb.connect(args.db, read_only=True) as con:
        papers, cited_by, datasets, edges, contradictions, comments = load(con)
    ids = list(papers)
    started = time.perf_counter()
    vectors = embed([f"{papers[key].title}. {papers[key].abstract or ''}" for key in ids])
    embed_seconds = time.perf_counter() - started
    key_of = {publication_id: candidate_key(paper) for publication_id, paper in papers.items()}
    citation_of_id = {}
    grades, rows = defaultdict(list), []
    for case in read_question_cases().cases:
        started = time.perf_counter()
        scope = resolve_scope(case.scope, datasets)
        in_scope = set(scope.dataset_ids or ())
        users = {publication_id for publication_id, found in edges.items() if any(dataset_id in in_scope for dataset_id, _ in found)}
        pool = sorted(users | {citing for used in users for citing in cited_by[used]})
        pool_index = [ids.index(publication_id) for publication_id in pool]

        def retrieve(queries: list[str]) -> list[Candidate]:
            semantic = (embed(queries) @ vectors[pool_index].T).max(axis=0)
            found = [Candidate(**{**papers[key].__dict__, "semantic": float(np.clip(value, -1, 1))}) for key, value in zip(pool, semantic)]
            return [scored.candidate for scored in score_papers(found, args.as_of, case.decay)[: args.per_round]]

        def assess(candidates: list[Candidate]) -> list[Evidence]:
            scored = score_papers(merge_candidates(candidates).papers, args.as_of, case.decay)
            return [Evidence(paper, tuple(edge for dataset_id, edge in edges[paper.candidate.publication_id] if dataset_id in in_scope)) for paper in scored]

        def debates(evidence: list[Evidence]):
            citation = {item.paper.key: item.paper.citation for item in evidence}
            pairs = [JudgedContradiction(key_of[older], key_of[newer]) for older, newer in contradictions if older in key_of and newer in key_of]
            recorded = [Comment(key_of[commented], _citation(papers, key_of, comment, citation_of_id), answered)
                        for commented, comment, answered in comments if commented in key_of and comment in papers]
            return debates_in(evidence, pairs, recorded), citation

        candidates = retrieve([case.question, *(item.text for item in offline_plan(case.question, case.scope.datasets, args.as_of).subquestions)])
        first = assess(candidates)
        first_debates, _ = debates(first)
        evidence, judgement, rounds = first, judge_question(first, first_debates, rules, args.as_of, 0, scope.problem), 0
        first_judgement = judgement
        while judgement.rewrite:
            debated = [pair.older_citation for pair in first_debates.pairs] + [dispute.commented for dispute in first_debates.disputes]
            candidates += retrieve([item.text for item in rewrite(case.question, judgement.rewrite, case.scope.datasets, args.as_of, debated)])
            rounds += 1
            evidence = assess(candidates)
            found, _ = debates(evidence)
            judgement = judge_question(evidence, found, rules, args.as_of, rounds, scope.problem)
        found, citation = debates(evidence)
        brief = extractive_brief(case.question, evidence, judgement, found, rules)
        seconds = time.perf_counter() - started
        comment_citations = {comment.doi or comment.title: citation_of_id.get(comment.doi or comment.title)
                             for comment in (case.dispute.comments if case.dispute else ())}
        mapping = citation | {key: value for key, value in comment_citations.items() if value}
        first_brief = extractive_brief(case.question, first, first_judgement, first_debates, rules)
        plain = [Evidence(item.paper) for item in first]
        plain_brief = extractive_brief(case.question, plain, judge_question(plain, debates_in(plain, [], []), rules, args.as_of), debates_in(plain, [], []), rules)
        first_mapping = {item.paper.key: item.paper.citation for item in first} | {key: value for key, value in comment_citations.items() if value}
        conditions = {
            "critic": grade(case, brief, judgement.verdict, judgement.unresolved, mapping),
            "critic_first_round": grade(case, first_brief, first_judgement.verdict, None, first_mapping),
            "age_rule_first_round": grade(case, first_brief, first_judgement.age_rule_verdict, None, first_mapping),
            "no_critic": grade(case, plain_brief, None, None, first_mapping),
        }
        for name, result in conditions.items():
            grades[name].append(result)
        rows.append({"id": case.id, "kind": case.kind, "verdict": judgement.verdict, "unresolved": judgement.unresolved, "rounds": rounds,
                     "first_round": first_judgement.verdict, "age_rule_first_round": first_judgement.age_rule_verdict,
                     "papers": len(evidence), "seconds": round(seconds, 3), "critic": conditions["critic"].why})
    report = {
        "db": args.db, "as_of": args.as_of.isoformat(), "per_round": args.per_round, "publications": len(papers),
        "embed_publications_seconds": round(embed_seconds, 2),
        "seconds_per_brief": {"mean": round(float(np.mean([row["seconds"] for row in rows])), 3), "max": max(row["seconds"] for row in rows)},
        "conditions": {name: {measure: str(value) for measure, value in rates(found).items() if measure in (*MEASURES, "stale_not_retrieved")}
                       for name, found in grades.items()},
        "questions": rows,
    }
    print(json.dumps(report, indent=1))


def _citation(papers, key_of, publication_id, cache):
    """A comment's citation tag, as the retrieval would give it (`score_papers`' citation), cached by DOI (by title for
    a comment without one, as the labelled questions name it)."""
    paper = papers[publication_id]
    tag = score_papers([paper], date.today(), "none")[0].citation
    cache[paper.doi or paper.title] = tag
    return tag


if __name__ == "__main__":
    main()
