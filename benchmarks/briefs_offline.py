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

from recon_assets.briefs.answering import answer_rounds, comment_citation, cosine_similarity, load_pool
from recon_assets.briefs.critic import Evidence, debates_in, judge_question
from recon_assets.briefs.grading import MEASURES, grade, rates
from recon_assets.briefs.planner import offline_plan
from recon_assets.briefs.question_cases import read_question_cases
from recon_assets.briefs.questions import DatasetRow, resolve_scope
from recon_assets.briefs.synthesis import extractive_brief
from recon_assets.judgement.text_embedding import embed
from recon_assets.shared.sql_files import load_sql
from recon_assets.verdicts.critic import VerdictRules


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--as-of", type=date.fromisoformat, default=date(2026, 12, 1))
    parser.add_argument("--per-round", type=int, default=8)
    args = parser.parse_args()
    rules = VerdictRules()
    vectors: dict[str, np.ndarray] = {}
    embed_seconds = 0.0

    def embed_texts(texts):
        nonlocal embed_seconds
        new = sorted({text for text in texts if text not in vectors})
        if new:
            started = time.perf_counter()
            vectors.update(zip(new, embed(new)))
            embed_seconds += time.perf_counter() - started
        return np.stack([vectors[text] for text in texts])

    similarity = cosine_similarity(embed_texts)
    grades, rows = defaultdict(list), []
    with duckdb.connect(args.db, read_only=True) as con:
        (publications,) = con.execute("SELECT count(*) FROM publications").fetchone()
        datasets = [DatasetRow(*row) for row in con.execute(load_sql("question_datasets")).fetchall()]
        for case in read_question_cases().cases:
            started = time.perf_counter()
            scope = resolve_scope(case.scope, datasets)
            pool = load_pool(con, scope.dataset_ids or [])
            plan = offline_plan(case.question, case.scope.datasets, args.as_of)
            rounds = answer_rounds(case.question, plan.subquestions, case.scope.datasets, pool, similarity, args.as_of, case.decay,
                                   rules, scope.problem, args.per_round)
            first, last = rounds[0], rounds[-1]
            brief = extractive_brief(case.question, last.evidence, last.judgement, last.debates, rules)
            seconds = time.perf_counter() - started
            cited = {paper.doi or paper.title: paper for paper in pool.papers.values()}
            comment_citations = {
                key: comment_citation(cited[key]) for key in (c.doi or c.title for c in (case.dispute.comments if case.dispute else ())) if key in cited
            }
            mapping = {item.paper.key: item.paper.citation for item in last.evidence} | comment_citations
            first_brief = extractive_brief(case.question, first.evidence, first.judgement, first.debates, rules)
            plain = [Evidence(item.paper) for item in first.evidence]
            plain_brief = extractive_brief(case.question, plain, judge_question(plain, debates_in(plain, [], []), rules, args.as_of),
                                           debates_in(plain, [], []), rules)
            first_mapping = {item.paper.key: item.paper.citation for item in first.evidence} | comment_citations
            conditions = {
                "critic": grade(case, brief, last.judgement.verdict, last.judgement.unresolved, mapping),
                "critic_first_round": grade(case, first_brief, first.judgement.verdict, None, first_mapping),
                "age_rule_first_round": grade(case, first_brief, first.judgement.age_rule_verdict, None, first_mapping),
                "no_critic": grade(case, plain_brief, None, None, first_mapping),
            }
            for name, result in conditions.items():
                grades[name].append(result)
            rows.append({"id": case.id, "kind": case.kind, "verdict": last.judgement.verdict, "unresolved": last.judgement.unresolved,
                         "rounds": len(rounds) - 1, "first_round": first.judgement.verdict,
                         "age_rule_first_round": first.judgement.age_rule_verdict, "papers": len(last.evidence),
                         "seconds": round(seconds, 3), "critic": conditions["critic"].why})
    report = {
        "db": args.db, "as_of": args.as_of.isoformat(), "per_round": args.per_round, "publications": publications,
        "embed_seconds": round(embed_seconds, 2),
        "seconds_per_brief": {"mean": round(float(np.mean([row["seconds"] for row in rows])), 3), "max": max(row["seconds"] for row in rows)},
        "conditions": {name: {measure: str(value) for measure, value in rates(found).items() if measure in (*MEASURES, "stale_not_retrieved")}
                       for name, found in grades.items()},
        "questions": rows,
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
