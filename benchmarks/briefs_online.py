"""Requests and tokens per research brief online (issue 21: "online, the requests and tokens per brief printed"),
against the tests' stand-in for Groq (`recon_assets_tests.briefs_groq_fakes.BriefsModel`: Groq's recorded envelope,
answers built from the prompt, usage about 4 bytes of prompt and 4 characters of answer a token), faked at the HTTP
transport with respx under the real `groq` SDK. Nothing leaves the machine; no key is needed or read.

    .venv/bin/python -m benchmarks.briefs_online --db /tmp/x/recon.duckdb [--as-of 2026-12-01] [--questions 10]

`--db` is a database `recon run` scored (the sample); it is copied to a temporary folder, whose llm_answers receives
the answers. For each of the first `--questions` labelled questions (briefs/question_cases.yaml) the brief is made as
the assets make it: the planner online (`briefs.online.plan_question`), retrieval and the critic's rounds
(`answering.answer_rounds`), the synthesizer online (`briefs.online.write_brief`); then every brief once more, when
the stored answers are used (target: 0 requests). Prints one JSON report on stdout and a plain table on stderr:
per brief the planner's and synthesizer's requests, prompt and completion tokens, the plan's source and whether the
brief is extractive; the mean and maximum per brief. Real figures depend on Groq's tokenizer and the model's answers:
these count the prompts as sent (the prompt tokens are about a quarter of the prompt's bytes, as Llama 3 reads English)
and are not Groq's bill.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

import duckdb
import numpy as np

from recon_assets.briefs.answering import answer_rounds, cosine_similarity, load_pool
from recon_assets.briefs.online import plan_question, write_brief
from recon_assets.briefs.question_cases import read_question_cases
from recon_assets.briefs.questions import DatasetRow, resolve_scope
from recon_assets.judgement.groq_client import GroqJudgeSettings
from recon_assets.judgement.resources import GroqJudgeResource
from recon_assets.judgement.text_embedding import embed
from recon_assets.shared.sql_files import load_sql
from recon_assets.verdicts.critic import VerdictRules
from recon_assets_tests.briefs_groq_fakes import BriefsModel, serving
from recon_assets_tests.groq_fakes import BASE_URL, FakeClock

# Pacing out of the way (the fake answers at once); budgets as the defaults would allow a day.
UNHURRIED = GroqJudgeSettings(requests_per_minute=10**6, tokens_per_minute=10**8)


class _Quiet:
    def info(self, line: str) -> None:
        pass

    warning = info


def briefs(con, cases, groq: GroqJudgeResource, as_of: date, embed_texts) -> list[dict]:
    """One row per case: the planner's and the synthesizer's requests and tokens, the plan's source, extractive or not."""
    rules, log, clock = VerdictRules(), _Quiet(), FakeClock()
    datasets = [DatasetRow(*row) for row in con.execute(load_sql("question_datasets")).fetchall()]
    found = []
    for case in cases:
        started = time.perf_counter()
        scope = resolve_scope(case.scope, datasets)
        plan, planned = plan_question(con, groq, case.question, list(case.scope.datasets), [], as_of, log, clock=clock, sleep=clock.sleep)
        pool = load_pool(con, scope.dataset_ids or [])
        rounds = answer_rounds(case.question, plan.subquestions, case.scope.datasets, pool, cosine_similarity(embed_texts), as_of,
                               case.decay, rules, scope.problem)
        last = rounds[-1]
        brief, written = write_brief(con, groq, case.question, last.evidence, last.judgement, last.debates, rules, log, clock=clock, sleep=clock.sleep)
        found.append({
            "id": case.id, "plan_source": plan.source, "extractive": brief.extractive, "papers": len(last.evidence),
            "planner": {"status": planned.status, "requests": planned.requests, "prompt_tokens": planned.prompt_tokens,
                        "completion_tokens": planned.completion_tokens},
            "synthesizer": {"status": written.status, "requests": written.requests, "prompt_tokens": written.prompt_tokens,
                            "completion_tokens": written.completion_tokens},
            "requests": planned.requests + written.requests, "tokens": planned.tokens + written.tokens,
            "seconds": round(time.perf_counter() - started, 3),
        })
    return found


def summary(rows: list[dict]) -> dict:
    """Mean and maximum requests and tokens per brief."""
    return {measure: {"mean": round(float(np.mean([row[measure] for row in rows])), 1), "max": max(row[measure] for row in rows)}
            for measure in ("requests", "tokens")}


def table(rows: list[dict]) -> str:
    """Per brief: planner and synthesizer requests / prompt / completion tokens, as plain text."""
    lines = ["question | plan | brief | planner req/prompt/completion | synthesizer req/prompt/completion | tokens"]
    for row in rows:
        p, s = row["planner"], row["synthesizer"]
        lines.append(f"{row['id']} | {row['plan_source']} | {'extractive' if row['extractive'] else 'llm'} | "
                     f"{p['requests']}/{p['prompt_tokens']}/{p['completion_tokens']} | {s['requests']}/{s['prompt_tokens']}/{s['completion_tokens']} | {row['tokens']}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--as-of", type=date.fromisoformat, default=date(2026, 12, 1))
    parser.add_argument("--questions", type=int, default=10)
    args = parser.parse_args()
    vectors: dict[str, np.ndarray] = {}

    def embed_texts(texts):
        new = sorted({text for text in texts if text not in vectors})
        if new:
            vectors.update(zip(new, embed(new)))
        return np.stack([vectors[text] for text in texts])

    cases = read_question_cases().cases[: args.questions]
    groq = GroqJudgeResource(api_key="gsk_benchmark_not_a_key", base_url=BASE_URL, settings=UNHURRIED)
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "recon.duckdb"
        shutil.copyfile(args.db, copy)
        with serving(BriefsModel()) as fake, duckdb.connect(str(copy)) as con:
            first = briefs(con, cases, groq, args.as_of, embed_texts)
            again = briefs(con, cases, groq, args.as_of, embed_texts)
    report = {"db": args.db, "as_of": args.as_of.isoformat(), "questions": len(cases), "http_requests_seen": len(fake.requests),
              "per_brief": summary(first), "per_brief_again": summary(again), "briefs": first,
              "again": [{"id": row["id"], "requests": row["requests"], "tokens": row["tokens"]} for row in again]}
    print(json.dumps(report, indent=1))
    print(table(first), file=sys.stderr)


if __name__ == "__main__":
    main()
