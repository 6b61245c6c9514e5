"""How fast the Groq LLM judge's own machinery runs: pairs judged per second against a respx fake of Groq.

    python -m benchmarks.llm_judge [--pairs 2000] [--pairs-per-request 8]      (from the repository root)

Prints, for `--pairs` candidate pairs with abstracts of about 1,200 characters (every one triaged in):
- the client alone (prompt building, the groq SDK over httpx, answer validation): pairs/second, requests;
- `GroqJudgeResource.judge` with a DuckDB file (triage, cache lookup, judging, storing): pairs/second;
- the same again (every answer cached): requests made (target 0) and pairs/second.

The fake answers at once (respx, in process: no network, no model), and pacing is set out of the way
(requests and tokens per minute very high), so the figures measure this code, not Groq: a real run is
bound by Groq's rate limits (free 70B tier: 30 requests and 12,000 tokens a minute, so with the ~6,300
tokens of an 8-pair request about 2 requests, 15 pairs, a minute, and 100,000 tokens a day, about 125 pairs).
Tokens per request are printed from the fake's usage (about 4 bytes of prompt a token).
"""

from __future__ import annotations

import argparse
import logging
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

import duckdb
import pandas as pd
import respx

from recon_assets.judgement.groq_client import GroqJudgeClient, GroqJudgeSettings
from recon_assets.judgement.llm_judge import pair_texts
from recon_assets.judgement.resources import GroqJudgeResource
from recon_assets_tests.groq_fakes import ABSTRACTS, BASE_URL, COMPLETIONS, FakeClock, FakeGroq

UNHURRIED = dict(requests_per_minute=10**6, tokens_per_minute=10**8, max_requests_per_run=10**6,
                 max_tokens_per_run=10**10, daily_requests=10**6, daily_tokens=10**10)


def candidate_frame(count: int) -> pd.DataFrame:
    """`count` candidate pairs with abstracts of about 1,200 characters, all with a recorded dispute."""
    def abstract(index: int) -> str:
        return " ".join(ABSTRACTS[(index + step) % len(ABSTRACTS)] for step in range(9))[:1_200]

    return pd.DataFrame({
        "dataset_id": [f"kg:dataset-{index % 50}" for index in range(count)],
        "older_publication_id": [f"10.5555/older.{index}" for index in range(count)],
        "newer_publication_id": [f"10.5555/newer.{index}" for index in range(count)],
        "dataset_text": "GRCTellus.JPL.200204_202311.GLO.RL06.1M.MSCNv03: JPL GRACE and GRACE-FO mascon ocean, ice and hydrology",
        "older_title": [f"Older study {index} of Greenland mass loss" for index in range(count)],
        "older_abstract": [abstract(2 * index) for index in range(count)],
        "older_year": 2012,
        "newer_title": [f"Newer study {index} of Greenland mass loss" for index in range(count)],
        "newer_abstract": [abstract(2 * index + 1) for index in range(count)],
        "newer_year": 2016,
        "offline_verdict": "SUPPORTED", "offline_similarity": 0.8, "threshold_margin": 0.5, "older_centrality": 0.2,
        "recorded_dispute": True,
    })


def run(pairs: int, pairs_per_request: int) -> dict[str, float]:
    """The figures printed by `main`, as a dict."""
    frame = candidate_frame(pairs)
    settings = dict(UNHURRIED, pairs_per_request=pairs_per_request)
    figures: dict[str, float] = {}
    fake, clock = FakeGroq(), FakeClock()
    with respx.mock(assert_all_called=False) as router:
        router.post(COMPLETIONS).mock(side_effect=fake)
        texts = [pair_texts(row) for _, row in frame.iterrows()]
        client = GroqJudgeClient(GroqJudgeSettings(**settings), api_key="gsk_benchmark", base_url=BASE_URL, clock=clock, sleep=clock.sleep)
        started = time.perf_counter()
        for start in range(0, len(texts), pairs_per_request):
            client.judge(texts[start:start + pairs_per_request])
        elapsed = time.perf_counter() - started
        figures["client_pairs_per_second"] = pairs / elapsed
        figures["client_requests"] = client.totals.http_requests
        figures["tokens_per_request"] = (client.totals.prompt_tokens + client.totals.completion_tokens) / max(client.totals.answered_requests, 1)
        client.close()

        resource = GroqJudgeResource(api_key="gsk_benchmark", base_url=BASE_URL, settings=settings)
        log = logging.getLogger("benchmarks.llm_judge")
        with tempfile.TemporaryDirectory() as folder:
            con = duckdb.connect(str(Path(folder) / "bench.duckdb"))
            for label in ("first", "cached"):
                before = len(fake.requests)
                started = time.perf_counter()
                report = resource.judge(con, frame, log=log, now=lambda: datetime.now(timezone.utc), clock=clock, sleep=clock.sleep)
                elapsed = time.perf_counter() - started
                figures[f"{label}_run_pairs_per_second"] = pairs / elapsed
                figures[f"{label}_run_requests"] = len(fake.requests) - before
                figures[f"{label}_run_judged"] = report.totals["judged"] + report.totals["cached"]
            con.close()
    return figures


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=2_000)
    parser.add_argument("--pairs-per-request", type=int, default=8)
    args = parser.parse_args(argv)
    figures = run(args.pairs, args.pairs_per_request)
    print(f"LLM judge benchmark: {args.pairs:,} pairs, {args.pairs_per_request} per request, respx fake of Groq (no network)")
    print(f"  client alone:        {figures['client_pairs_per_second']:,.0f} pairs/s, {figures['client_requests']:,.0f} requests, "
          f"{figures['tokens_per_request']:,.0f} tokens/request (fake usage)")
    print(f"  resource, first run: {figures['first_run_pairs_per_second']:,.0f} pairs/s, {figures['first_run_requests']:,.0f} requests, "
          f"{figures['first_run_judged']:,.0f} pairs judged")
    print(f"  resource, re-run:    {figures['cached_run_pairs_per_second']:,.0f} pairs/s, {figures['cached_run_requests']:,.0f} requests "
          f"(target 0), {figures['cached_run_judged']:,.0f} pairs from the cache")
    return figures


if __name__ == "__main__":
    main()
