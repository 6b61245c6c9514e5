"""The offline judge's same-dataset stage at scale: one dataset used by N publications (issue 24, "Scale").

    .venv/bin/python -m benchmarks.judge_scale [--publications 200000] [--exact-publications 20000] [--seed 0]
        [--as-of 2026-11-29] [--recall-sample 2000] [--exact-up-to 25000000] [--workdir DIR]

Publications are made as `generate_kg.py` makes them (real titles, abstracts recombined from the sample's real
sentences, 30% 'N/A', years 1980-2025 growing 9% a year, `generate_kg.publication_years`), all using one dataset.
Each step runs in a forked child, whose peak RSS is its `ru_maxrss` from `os.wait4`:

- `embedding`: `text_embedding.embed` over the distinct texts, as the first run of `coherence_judgements` computes
  them through `embed_cached` (later runs read them from `text_embeddings`); the vectors are kept in WORKDIR and
  reused while the texts are the same.
- `judge`: `offline_judge.judge_edges` on the whole graph with those vectors (the search, through the index above
  `--exact-up-to` older x newer products, default `newer_neighbours.EXACT_SEARCH_LIMIT`; the cue reading and the
  judging): seconds, pairs, peak RSS; its progress lines go to stderr.
- `recall`: the judge's pairs of `--recall-sample` older publications (evenly spaced) against the exact search's
  (`newer_neighbours.exact_top_pairs`) for them: pairs found / exact pairs, and whether the similarities agree.
- `exact_small` and `indexed_small`: `judge_edges` on the first `--exact-publications` publications, once with the
  exact search forced and once through the index (`exact_up_to=0`); `small_identical` says whether the two frames (pairs,
  similarities, verdicts, rationales) are equal.

The report (JSON on stdout) gives `judge_over_exact_small` (the whole graph's judge wall and CPU time over the small
graph's exact judge's, measured in the same run) and `exact_search_extrapolated` (the exact search of the recall sample, every
newer publication read, times older publications / sampled ones: what the exact search alone would take on the whole
graph, an extrapolation, not a measurement), with the load average before and after each step (2 cores: above 2, other
processes shared them). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path

import numpy as np
import pandas as pd

from benchmarks.generate_kg import NodeFactory, Plan, load_material, publication_years
from recon_assets.judgement.newer_neighbours import EXACT_SEARCH_LIMIT, TopPairs, exact_top_pairs, recall
from recon_assets.judgement.offline_judge import DEFAULT_MIN_SIMILARITY, DEFAULT_TOP_K, DEFAULT_WINDOW_YEARS, judge_edges
from recon_assets.judgement.text_embedding import embed, is_missing_text

DATASET = "D-scale"


def publications(count: int, seed: int) -> pd.DataFrame:
    """`count` generated publications: publication_id (ids sort like positions), year (Int64), title, abstract,
    centrality (uniform in [0, 1]), as `judge_edges` takes them."""
    rng = np.random.default_rng(seed)
    year = publication_years(rng, count)
    arrays = {"year": year, "year_quirk": np.zeros(count, dtype=int), "twin": np.zeros(count, dtype=bool),
              "pagerank": np.full(count + 1, np.nan)}
    factory = NodeFactory(Plan("v1", 1.0, {"Publication": count, "Dataset": 1}, {}), load_material(), [], arrays, seed)
    rows = [factory.properties("Publication", i) for i in range(count)]
    return pd.DataFrame({
        "publication_id": [f"P{i:09d}" for i in range(count)],
        "year": pd.array(year, dtype="Int64"),
        "title": [row["title"] for row in rows],
        "abstract": [row["abstract"] for row in rows],
        "centrality": rng.random(count),
    })


def text(title: object, abstract: object) -> str | None:
    """Title + abstract as `judge_edges` joins them."""
    return ". ".join(str(part) for part in (title, abstract) if not is_missing_text(part)) or None


def _in_child(work: Callable[[], dict]) -> dict:
    """Run `work` in a forked child; its figures plus wall_s, the child's cpu_s (user + system, every thread) and
    peak_rss_mb. On a shared machine cpu_s is what the step needs, wall_s what it got (the load average says why)."""
    with tempfile.NamedTemporaryFile(suffix=".pickle") as result:
        load = os.getloadavg()[0]
        started = time.monotonic()
        pid = os.fork()
        if pid == 0:
            try:
                figures = work()
                with open(result.name, "wb") as handle:
                    pickle.dump(figures, handle)
            finally:
                os._exit(0)
        _, status, usage = os.wait4(pid, 0)
        wall = time.monotonic() - started
        figures = pickle.loads(Path(result.name).read_bytes()) if os.path.getsize(result.name) else {"error": f"status {status}"}
    return {"wall_s": round(wall, 2), "cpu_s": round(usage.ru_utime + usage.ru_stime, 2), "peak_rss_mb": round(usage.ru_maxrss / 1024),
            "load_avg": [round(load, 1), round(os.getloadavg()[0], 1)], **figures}


def _log(line: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {line}", file=sys.stderr, flush=True)


def _vectors(workdir: Path, texts: list[str], seed: int) -> tuple[dict, dict[str, np.ndarray]]:
    """The embedding step's figures and {text: vector} of the distinct texts (kept in workdir for re-runs)."""
    distinct = sorted(set(texts))
    cache, figures_file = workdir / f"vectors_{len(texts)}_{seed}.npy", workdir / f"vectors_{len(texts)}_{seed}.json"
    if not (figures_file.exists() and json.loads(figures_file.read_text())["distinct_texts"] == len(distinct)):

        def work() -> dict:
            started = time.monotonic()
            vectors = embed(distinct)
            seconds = time.monotonic() - started
            np.save(cache, vectors)
            return {"texts": len(texts), "distinct_texts": len(distinct), "embed_s": round(seconds, 2),
                    "texts_per_s": round(len(distinct) / seconds)}

        figures_file.write_text(json.dumps(_in_child(work)))
    else:
        _log(f"reusing the vectors of {cache}")
    return json.loads(figures_file.read_text()), dict(zip(distinct, np.load(cache)))


def _embedder(lookup: dict[str, np.ndarray]) -> Callable[[list[object]], np.ndarray]:
    """An embedder for judge_edges reading the vectors of the embedding step (zero for a missing text)."""
    zero = np.zeros_like(next(iter(lookup.values())))
    return lambda texts: np.stack([lookup.get(t, zero) if isinstance(t, str) else zero for t in texts] or [zero])[: len(texts)]


def _judge(pubs: pd.DataFrame, lookup: dict[str, np.ndarray], as_of: date, out: Path, **options) -> Callable[[], dict]:
    """A child's work: judge_edges on `pubs` (one dataset), the pairs written to `out`."""

    def work() -> dict:
        edges = pd.DataFrame({"dataset_id": DATASET, "publication_id": pubs["publication_id"]})
        started = time.monotonic()
        pairs = judge_edges(
            edges, pubs, as_of=as_of, embedder=_embedder(lookup),
            progress=_log, **options,
        )
        seconds = time.monotonic() - started
        pairs.to_parquet(out)
        return {"judge_s": round(seconds, 2), "pairs": len(pairs), "verdicts": pairs["verdict"].value_counts().to_dict()}

    return work


def _search_inputs(pubs: pd.DataFrame, lookup: dict[str, np.ndarray], as_of: date) -> tuple[np.ndarray, ...]:
    """(vectors, year, older, newer) as judge_edges builds them for one dataset without successor-version users."""
    texts = [text(t, a) for t, a in zip(pubs["title"], pubs["abstract"])]
    vectors = np.stack([lookup[t] for t in texts])
    year = pubs["year"].astype("Float64").to_numpy(dtype=float, na_value=np.nan)
    positions = np.arange(len(pubs))
    newer = positions[(year >= as_of.year - DEFAULT_WINDOW_YEARS) & (year <= as_of.year)]
    return vectors, year, positions[~np.isnan(year)], newer


def _recall(pubs: pd.DataFrame, lookup: dict[str, np.ndarray], as_of: date, pairs: pd.DataFrame, sample_size: int) -> dict:
    """The judge's pairs of `sample_size` evenly spaced older publications against the exact search's."""
    vectors, year, older, newer = _search_inputs(pubs, lookup, as_of)
    sample = np.unique(older[np.linspace(0, older.size - 1, min(sample_size, older.size)).astype(np.intp)])
    started, cpu = time.monotonic(), time.process_time()
    exact = exact_top_pairs(vectors, year, sample, newer, top_k=DEFAULT_TOP_K, min_similarity=DEFAULT_MIN_SIMILARITY)
    seconds, cpu = time.monotonic() - started, time.process_time() - cpu
    position = pd.Index(pubs["publication_id"])
    judged = pairs[pairs["older_publication_id"].isin(pubs["publication_id"].iloc[sample])]
    found = TopPairs(position.get_indexer(judged["older_publication_id"]), position.get_indexer(judged["newer_publication_id"]),
                     judged["similarity"].to_numpy())
    exact_similarity = dict(zip(zip(exact.older.tolist(), exact.newer.tolist()), exact.similarity.tolist()))
    shared = [(o, n, s) for o, n, s in zip(found.older.tolist(), found.newer.tolist(), found.similarity.tolist()) if (o, n) in exact_similarity]
    return {
        "sampled_older": int(sample.size), "exact_pairs": int(exact.older.size), "found_pairs": int(found.older.size),
        "recall": round(recall(found, exact), 5), "similarity_agrees": all(exact_similarity[o, n] == s for o, n, s in shared),
        "exact_sample_s": round(seconds, 2), "exact_sample_cpu_s": round(cpu, 2),
    }


def benchmark(count: int, small: int, seed: int, as_of: date, recall_sample: int, exact_up_to: int, workdir: Path) -> dict:
    """Every step (module docstring); the report."""
    workdir.mkdir(parents=True, exist_ok=True)
    _log(f"generating {count:,} publications")
    started = time.monotonic()
    pubs = publications(count, seed)
    generation_s = time.monotonic() - started
    texts = [t for t in (text(title, abstract) for title, abstract in zip(pubs["title"], pubs["abstract"])) if t]
    _log(f"embedding the distinct texts of {len(texts):,} publications")
    embedding, lookup = _vectors(workdir, texts, seed)
    _log(f"judging {count:,} publications of one dataset")
    judge = _in_child(_judge(pubs, lookup, as_of, workdir / "pairs.parquet", exact_up_to=exact_up_to))
    _log("recall against the exact search on a sample")
    recall_figures = _in_child(lambda: _recall(pubs, lookup, as_of, pd.read_parquet(workdir / "pairs.parquet"), recall_sample))
    head = pubs.iloc[:small].reset_index(drop=True)
    _log(f"exact and indexed search on the first {small:,} publications")
    exact_small = _in_child(_judge(head, lookup, as_of, workdir / "exact_small.parquet", exact_up_to=sys.maxsize))
    indexed_small = _in_child(_judge(head, lookup, as_of, workdir / "indexed_small.parquet", exact_up_to=0))
    exact_frame, indexed_frame = (pd.read_parquet(workdir / f"{name}.parquet") for name in ("exact_small", "indexed_small"))
    _, _, older, newer = _search_inputs(pubs, lookup, as_of)
    products = {"older": int(older.size), "newer": int(newer.size), "older_x_newer": int(older.size * newer.size)}
    return {
        "publications": count, "exact_publications": small, "seed": seed, "as_of": as_of.isoformat(),
        "exact_up_to": exact_up_to, "search": products, "generation_s": round(generation_s, 2),
        "embedding": embedding, "judge": judge, "recall": recall_figures,
        "exact_small": exact_small, "indexed_small": indexed_small,
        "small_identical": exact_frame.equals(indexed_frame),
        "judge_over_exact_small": {unit: round(judge[unit] / exact_small[unit], 2) for unit in ("wall_s", "cpu_s")},
        # the exact search's cost grows with the older publications searched, the newer ones being all of them
        "exact_search_extrapolated": {
            unit: round(recall_figures[f"exact_sample_{unit}"] * products["older"] / recall_figures["sampled_older"], 1)
            for unit in ("s", "cpu_s")
        },
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--publications", type=int, default=200_000)
    parser.add_argument("--exact-publications", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--as-of", type=date.fromisoformat, default=date(2026, 11, 29))
    parser.add_argument("--recall-sample", type=int, default=2_000)
    parser.add_argument("--exact-up-to", type=int, default=EXACT_SEARCH_LIMIT)
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "judge_scale")
    args = parser.parse_args(argv)
    report = benchmark(args.publications, min(args.exact_publications, args.publications), args.seed, args.as_of,
                       args.recall_sample, args.exact_up_to, args.workdir)
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
