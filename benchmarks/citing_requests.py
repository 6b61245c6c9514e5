"""How many OpenAlex requests a full citing-works refresh makes, against a loopback stand-in at v1.2.0 size.

    python -m benchmarks.citing_requests [--scale 1.0] [--per-work 25]        (from the repository root)

The stand-in serves the generator's citations (`generate_kg.build_topology`, preset v1: 138,704 publications,
208,616 CITES, cited ~ Zipf(0.9), old papers gathering most): each publication is an OpenAlex work whose
`cited_by_count` is its in-degree and whose `referenced_works` are the works it cites; one citing work in 500 is
titled "Comment on ...". `recon_assets_tests.fake_openalex` answers the `cites:` queries on 127.0.0.1 (OR filter,
sort, cursor paging, title search), so the real pyalex client and `citing_plan` run as in production.

Prints: the citation distribution, the plan (queries by kind, list calls), requests and list calls per 1,000
publications for a full refresh (target: at most 70, so the 138,704 publications fit one free OpenAlex day of
10,000 list calls), citing works kept per cited work, throughput, and the works due on a re-run within the TTL
(target 0: a re-run asks nothing). Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from datetime import datetime, timedelta, timezone

import numpy as np

from benchmarks.generate_kg import Layout, build_topology, load_material, plan_counts, science_keyword_names
from recon_assets.enrichment.citing_plan import CitedWork, plan_citing_queries, planned_list_calls
from recon_assets.enrichment.citing_works import fetch_citing, refresh_due
from recon_assets.enrichment.openalex_client import ListCallBudget, OpenAlexClient
from recon_assets.enrichment.retries import RetryPolicy
from recon_assets_tests.fake_openalex import FakeOpenAlex, serve_on_loopback

COMMENT_EVERY = 500
DAILY_LIST_CALLS = 10_000


def stand_in_works(scale: float, seed: int = 0) -> list[dict]:
    """The generated publications as OpenAlex works (module docstring)."""
    plan = plan_counts("v1", scale)
    layout = Layout(plan.nodes)
    keyword_names = science_keyword_names(load_material(), plan.nodes["ScienceKeyword"])
    edges, arrays = build_topology(plan, layout, keyword_names, np.random.default_rng(seed), 0.0)
    offset = layout.offsets["Publication"]
    citing, cited = edges["CITES"].start - offset, edges["CITES"].end - offset
    pubs = plan.nodes["Publication"]
    in_degree = np.bincount(cited, minlength=pubs)
    references: list[list[str]] = [[] for _ in range(pubs)]
    for source, target in zip(citing.tolist(), cited.tolist()):
        references[source].append(f"https://openalex.org/W{target + 1}")
    return [
        {
            "id": f"https://openalex.org/W{index + 1}", "doi": f"https://doi.org/10.9999/stand-in.{index}",
            "title": ("Comment on " if index % COMMENT_EVERY == 0 else "") + f"Generated publication {index}",
            "type": "article", "publication_year": int(year), "publication_date": f"{int(year)}-06-{1 + index % 28:02d}",
            "cited_by_count": int(in_degree[index]), "counts_by_year": [], "is_retracted": False,
            "referenced_works": references[index], "abstract_inverted_index": None, "authorships": [],
        }
        for index, year in enumerate(arrays["year"])
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scale", type=float, default=1.0, help="share of the v1.2.0 size (1.0: 138,704 publications)")
    parser.add_argument("--per-work", type=int, default=25, help="citing works wanted per cited work (CitingWorksConfig.per_work)")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    works = stand_in_works(args.scale)
    counts = np.array([work["cited_by_count"] for work in works])
    print(f"stand-in: {len(works):,} publications, {int(counts.sum()):,} citations, built in {time.perf_counter() - started:.1f} s")
    print(f"citations per publication: none {np.mean(counts == 0):.1%}, 1-{args.per_work} {np.mean((counts > 0) & (counts <= args.per_work)):.1%}, "
          f"more {np.mean(counts > args.per_work):.1%}; median {int(np.median(counts))}, max {int(counts.max()):,}")

    cited = [CitedWork(work["doi"], work["id"].rsplit("/", 1)[-1], work["cited_by_count"]) for work in works]
    queries = plan_citing_queries(cited, per_work=args.per_work)
    print(f"plan: {len(queries):,} queries {dict(Counter(q.selection for q in queries))}, {planned_list_calls(queries):,} list calls if one page each")

    fake = FakeOpenAlex(works)
    budget = ListCallBudget(10**9, "benchmark: no limit")
    with serve_on_loopback(fake) as base:
        client = OpenAlexClient(api_key="benchmark", base_url=base, timeout=30, retry=RetryPolicy(retries=0), budget=budget)
        started = time.perf_counter()
        fetch = fetch_citing(queries, client.citing_works)
        seconds = time.perf_counter() - started
    per_1000 = 1000 * len(fake.requests) / len(works)
    calls_per_1000 = 1000 * budget.spent / len(works)
    full_size = 138_704
    print(f"full refresh: {len(fake.requests):,} requests, {budget.spent:,} list calls for {len(works):,} publications")
    print(f"requests per 1,000 publications: {per_1000:.1f} (target <= 70); list calls per 1,000: {calls_per_1000:.1f}")
    print(f"a full refresh of {full_size:,} publications: about {calls_per_1000 * full_size / 1000:,.0f} list calls "
          f"({calls_per_1000 * full_size / 1000 / DAILY_LIST_CALLS:.0%} of one free day's {DAILY_LIST_CALLS:,})")
    kept = np.array([len(found) for found in fetch.works.values()]) if fetch.works else np.zeros(1)
    heavy = [len(fetch.works.get(w.openalex_id, {})) for w in cited if w.cited_by_count > args.per_work]
    print(f"citing works kept per cited work: mean {kept.mean():.1f}, max {int(kept.max()):,}; for works cited more than "
          f"{args.per_work} times: mean {np.mean(heavy) if heavy else 0:.1f}, fewest {min(heavy) if heavy else 0}; "
          f"comment-titled kept: {sum(1 for found in fetch.works.values() for w in found.values() if 'comment_titles' in w['selections']):,}")
    print(f"throughput (loopback): {len(fake.requests) / seconds:,.0f} requests/s, {len(works) / seconds:,.0f} publications/s; failed works: {len(fetch.failed)}")

    fetched_at = datetime.now(timezone.utc)
    due = [w for w in cited if refresh_due(w.openalex_id, fetched_at, now=fetched_at + timedelta(days=1), ttl=timedelta(days=30), spread=0.5)]
    print(f"re-run within the TTL (a day later): {len(due)} cited works due, {len(plan_citing_queries(due, per_work=args.per_work))} requests (target 0)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
