"""The research briefs, offline, on the labelled questions (issue 21, "Measured, not asserted"): the pure pipeline of
`recon_assets/briefs` (offline plan, retrieval by RECON's hybrid score, the critic with up to 2 rewrite rounds, the
extractive brief) over a DuckDB file that `recon run` scored, graded by rule (`briefs.grading`) beside three baselines.
Prints one JSON report on stdout and the same rates as two plain tables on stderr; nothing is asserted.

    recon run --db /tmp/x/recon.duckdb --as-of 2026-12-01        # the sample, offline (DAGSTER_HOME a temp folder)
    .venv/bin/python benchmarks/briefs_offline.py --db /tmp/x/recon.duckdb [--as-of 2026-12-01] [--per-round 8] [--unscoped]

`--unscoped` asks each labelled question without its scope, as `recon ask "QUESTION"` without `--dataset` does: the
scope is what `question_plans` reads from the question's text (`questions.datasets_named_in`), every edge weighed when
the text names no KG dataset; the report lists, per question, the entries read (`named`). Same tables.

Reads (read-only): publications, publication_citations, datasets, dataset_lineage, edge_reliability,
coherence_judgements (CONTRADICTED pairs) and recorded_disputes (comments; answered when a reply is recorded).
Retrieval pool of a question: the publications with an edge to a dataset of its scope and the publications citing
them (a comment cites what it answers); each round keeps the `--per-round` best by hybrid score of its
sub-questions (the question and its offline plan, then the rewrites) and merges them by DOI with the earlier rounds.

Conditions (`CONDITIONS`): `critic` (the scores' critic, up to 2 rewrite rounds), `critic_first_round`,
`age_rule_first_round` (RECON's 24-month rule in place of the scores' staleness check) and `version_rule_first_round`
(the replaced-version rule, `critic.REPLACED_VERSION_ONLY`: labels and scores ignored), these three on the first
round's evidence (the rounds' rewrites follow the scores' verdict), `no_critic` (the first round's evidence with no
verdict and no edge scores: RECON's single-pass retrieval). Every condition is graded on a brief whose trust summary is
the scores', so a baseline's staleness catch may come from that summary: the second table gives, per condition, the
catch by the verdict alone on version chains and how often its staleness check fires (before contradiction wins) on
version-chain, dispute and control cases. The version chains' replaced versions are an input of the scores' critic
too (`dataset_replaced`): there the two rules share their evidence; where they differ shows what the scores add.
The graph must hold the labelled questions' papers (the shipped sample does).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from datetime import date

import duckdb
import numpy as np

from recon_assets.briefs.answering import answer_rounds, comment_citation, comment_citations, cosine_similarity, load_pool
from recon_assets.briefs.critic import Evidence, QuestionJudgement, debates_in, judge_question
from recon_assets.briefs.grading import MEASURES, CaseGrade, by_kind, grade, rates
from recon_assets.briefs.planner import offline_plan, scope_terms
from recon_assets.briefs.question_cases import CONTROL, DISPUTE, VERSION_CHAIN, read_question_cases
from recon_assets.briefs.questions import DatasetRow, Scope, datasets_named_in, resolve_scope
from recon_assets.briefs.synthesis import extractive_brief
from recon_assets.evaluation.metrics import Rate
from recon_assets.judgement.text_embedding import embed
from recon_assets.shared.sql_files import load_sql
from recon_assets.verdicts.critic import Check, VerdictRules

# The critic variants: the round each is graded on (True: the last, False: the first) and what it reads of that
# round's judgement: (verdict, the verdict a FORCED_PASS stands in for, its staleness check). They share the
# retrieval, the brief, the contradiction and sufficiency checks; only the staleness check differs.
VARIANTS: dict[str, tuple[bool, Callable[[QuestionJudgement], tuple[str, str | None, Check]]]] = {
    "critic": (True, lambda j: (j.verdict, j.unresolved, j.staleness)),
    "critic_first_round": (False, lambda j: (j.verdict, None, j.staleness)),
    "age_rule_first_round": (False, lambda j: (j.age_rule_verdict, None, j.age_rule)),
    "version_rule_first_round": (False, lambda j: (j.version_rule_verdict, None, j.version_rule)),
}
NO_CRITIC = "no_critic"
CONDITIONS = {
    "critic": "critic on the scores (up to 2 rewrite rounds)",
    "critic_first_round": "critic on the scores (first round)",
    "age_rule_first_round": "critic with RECON's age rule (first round)",
    "version_rule_first_round": "replaced dataset version only (first round)",
    NO_CRITIC: "retrieval without the critic",
}
# The second table's columns: (key in the report, heading).
BY_KIND = (
    ("stale_verdict_version_chain", "version chains: STALE verdict"),
    ("staleness_check_version_chain", "version chains: staleness check fires"),
    ("staleness_check_dispute", "disputes: staleness check fires"),
    ("staleness_check_control", "controls: staleness check fires"),
)


def variant_reading(name: str, first: QuestionJudgement, last: QuestionJudgement) -> tuple[str, str | None, Check]:
    """(verdict, unresolved, staleness check) of the critic variant `name` (VARIANTS) on a question's rounds."""
    on_last, read = VARIANTS[name]
    return read(last if on_last else first)


def case_comment_citations(keys: Sequence[str], cited: dict, pool, evidence) -> dict[str, str]:
    """The tag the brief gives each labelled comment (by its key, DOI or title): its tag in the round's debates
    (`answering.comment_citations`: the evidence's tag, else one told apart from it), else its own tag."""
    tags = comment_citations(pool, evidence)
    return {key: tags.get(cited[key].publication_id) or comment_citation(cited[key]) for key in keys}


def condition_rates(found: Sequence[CaseGrade], checks: Sequence[bool] | None) -> dict[str, Rate | int]:
    """A condition's measures (MEASURES and stale_not_retrieved, `grading.rates`) and the BY_KIND rates: `found` its
    CaseGrades, `checks` whether its staleness check fired on each case (None without a critic)."""
    kinds = [item.kind for item in found]
    out = {measure: value for measure, value in rates(found).items() if measure in (*MEASURES, "stale_not_retrieved")}
    out["stale_verdict_version_chain"] = by_kind(kinds, [item.stale_verdict for item in found])[VERSION_CHAIN]
    if checks is not None:
        fired = by_kind(kinds, checks)
        out |= {f"staleness_check_{kind}": fired[kind] for kind in (VERSION_CHAIN, DISPUTE, CONTROL)}
    return out


def tables(conditions: dict[str, dict[str, object]]) -> str:
    """The conditions' rates as two plain-text tables (the JSON report's `conditions`, each rate with its 95 % Wilson
    interval): the four measures of the issue, then the catch by verdict and the staleness check by kind of case."""
    def table(columns: tuple[tuple[str, str], ...]) -> list[str]:
        rows = [["condition", *(heading for _, heading in columns)]]
        rows += [[CONDITIONS.get(name, name), *(str(found.get(key, "n/a (no critic)")) for key, _ in columns)]
                 for name, found in conditions.items()]
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        lines = [" | ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows]
        return [lines[0], "-+-".join("-" * width for width in widths), *lines[1:]]

    measures = tuple((measure, measure.replace("_", " ")) for measure in MEASURES)
    return "\n".join([*table(measures), "", *table(BY_KIND)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--as-of", type=date.fromisoformat, default=date(2026, 12, 1))
    parser.add_argument("--per-round", type=int, default=8)
    parser.add_argument("--unscoped", action="store_true", help="ask each question without its scope, as `recon ask` without --dataset")
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
    grades, checks, rows = defaultdict(list), defaultdict(list), []
    with duckdb.connect(args.db, read_only=True) as con:
        (publications,) = con.execute("SELECT count(*) FROM publications").fetchone()
        datasets = [DatasetRow(*row) for row in con.execute(load_sql("question_datasets")).fetchall()]
        names = {row.dataset_id: row.short_name for row in datasets}
        for case in read_question_cases().cases:
            started = time.perf_counter()
            if args.unscoped:
                named = datasets_named_in(case.question, datasets)
                scope = resolve_scope(Scope(datasets=named), datasets)
                pool = load_pool(con, scope.dataset_ids)  # None when nothing is named: every dataset, as question_plans leaves it
                terms = scope_terms([names.get(dataset_id) for dataset_id in scope.dataset_ids or ()])
            else:
                named, scope = None, resolve_scope(case.scope, datasets)
                pool = load_pool(con, scope.dataset_ids or [])
                terms = list(case.scope.datasets)
            plan = offline_plan(case.question, terms, args.as_of)
            rounds = answer_rounds(case.question, plan.subquestions, terms, pool, similarity, args.as_of, case.decay,
                                   rules, scope.problem, args.per_round)
            first, last = rounds[0], rounds[-1]
            brief = extractive_brief(case.question, last.evidence, last.judgement, last.debates, rules)
            seconds = time.perf_counter() - started
            cited = {paper.doi or paper.title: paper for paper in pool.papers.values()}
            comment_keys = [key for key in (c.doi or c.title for c in (case.dispute.comments if case.dispute else ())) if key in cited]
            mapping = {item.paper.key: item.paper.citation for item in last.evidence} | case_comment_citations(comment_keys, cited, pool, last.evidence)
            first_brief = extractive_brief(case.question, first.evidence, first.judgement, first.debates, rules)
            plain = [Evidence(item.paper) for item in first.evidence]
            plain_brief = extractive_brief(case.question, plain, judge_question(plain, debates_in(plain, [], []), rules, args.as_of),
                                           debates_in(plain, [], []), rules)
            first_mapping = {item.paper.key: item.paper.citation for item in first.evidence} | case_comment_citations(comment_keys, cited, pool, first.evidence)
            conditions = {}
            for name, (on_last, _) in VARIANTS.items():
                verdict, unresolved, check = variant_reading(name, first.judgement, last.judgement)
                conditions[name] = grade(case, brief if on_last else first_brief, verdict, unresolved, mapping if on_last else first_mapping)
                checks[name].append(check.flagged)
            conditions[NO_CRITIC] = grade(case, plain_brief, None, None, first_mapping)
            for name, result in conditions.items():
                grades[name].append(result)
            rows.append({"id": case.id, "kind": case.kind, **({"named": list(named)} if args.unscoped else {}),
                         "verdict": last.judgement.verdict, "unresolved": last.judgement.unresolved,
                         "rounds": len(rounds) - 1, "first_round": first.judgement.verdict,
                         "age_rule_first_round": first.judgement.age_rule_verdict,
                         "version_rule_first_round": first.judgement.version_rule_verdict,
                         "staleness_check_fires_first_round": {"scores": first.judgement.staleness.flagged,
                                                               "age_rule": first.judgement.age_rule.flagged,
                                                               "version_rule": first.judgement.version_rule.flagged},
                         "papers": len(last.evidence), "seconds": round(seconds, 3), "critic": conditions["critic"].why,
                         "version_rule": conditions["version_rule_first_round"].why})
    found = {name: condition_rates(grades[name], checks.get(name)) for name in CONDITIONS}
    report = {
        "db": args.db, "as_of": args.as_of.isoformat(), "per_round": args.per_round, "unscoped": args.unscoped, "publications": publications,
        "embed_seconds": round(embed_seconds, 2),
        "seconds_per_brief": {"mean": round(float(np.mean([row["seconds"] for row in rows])), 3), "max": max(row["seconds"] for row in rows)},
        "conditions": {name: {measure: str(value) for measure, value in rates_.items()} for name, rates_ in found.items()},
        "questions": rows,
    }
    print(json.dumps(report, indent=1))
    print(tables(found), file=sys.stderr)


if __name__ == "__main__":
    main()
