"""The most similar newer publications of each older one: the same-dataset search of the offline judge.

For the publications using one dataset, each older publication p is paired with its `top_k` most similar newer
ones: a strictly later publication year than p's, cosine similarity (a dot product of unit vectors) at or above
`min_similarity`, most similar first, similarity rounded to 4 decimals and exact ties to the smaller position (the
publications are numbered in id order, so the smaller id). `offline_judge.judge_edges` judges those pairs.

Two searches give these pairs:
- `exact_top_pairs` compares every older publication with every newer one (older x newer dot products, in blocks
  of `BLOCK_ENTRIES`) and keeps each row's top_k by a partial sort. Quadratic: at one dataset used by 200,000
  publications (47,802 of them in the evidence window) it is 9.6 billion products.
- `indexed_top_pairs` puts the newer publications of each year in a FAISS inverted-file index (Jegou, Douze &
  Schmid 2011, "Product quantization for nearest neighbor search", IEEE TPAMI 33(1), section IV; Johnson, Douze &
  Jegou 2019, "Billion-scale similarity search with GPUs", IEEE TBD, for the library): k-means cells over the
  year's n distinct vectors, about sqrt(n) of them, and a query reads only the `PROBES` cells nearest to it, about
  PROBES x sqrt(n) vectors instead of n: older x sqrt(newer) work in all, not older x newer. Each older publication
  queries only the indexes of later years, so the "strictly newer" rule stays exact. The `CANDIDATES_PER_TOP_K` x
  top_k best vectors the index finds in each year are then scored exactly as `exact_top_pairs` scores them and the
  top_k kept by the same rule, so a pair it returns has the exact method's similarity and order; what it may miss is
  a pair whose newer vector lies in a cell not read (the share of cells read falls as a year grows). Identical
  vectors (the same text, e.g. a title with an 'N/A' abstract) are indexed once: all of them have the same
  similarity, so the exact tie rule only needs the first top_k of them by position.
`top_pairs` chooses: the exact search up to `EXACT_SEARCH_LIMIT` older x newer products, else the index, whose
recall against the exact search is measured on a sample of `RECALL_SAMPLE` older publications and reported.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

# Float64 products per block of the exact search: 32 MB a block, whatever the number of newer publications.
BLOCK_ENTRIES = 1 << 22
# Above this many older x newer products a dataset's search goes through the index (`top_pairs`). At the KG's
# v1.2.0 size the most used dataset has ~5,500 publications, ~1,300 of them in the window: 7 million, exact.
EXACT_SEARCH_LIMIT = 25_000_000
# Distinct vectors per year read from the index per wanted pair before the exact re-scoring: enough that a
# near-tie at the top_k-th place is among them (benchmarks/README.md gives the recall measured with it).
CANDIDATES_PER_TOP_K = 4
# Cells of a year's index: k-means wants at least FAISS's 39 training vectors a cell; fewer distinct vectors
# than MIN_CELLS x 39 are searched without cells (a flat index: every vector read, still exact scoring).
MIN_CELLS = 16
# Cells read per query: 16 of the ~100 cells of a year of 10,000 distinct vectors (recall 1.0 on 2,000 sampled
# older publications at 200,000 publications: benchmarks/README.md, judge_scale.py).
PROBES = 16
# Older publications per round of index queries (each round reports progress at most every PROGRESS_SECONDS).
QUERY_ROWS = 2048
PROGRESS_SECONDS = 10.0
# Older publications whose indexed top_k is compared with the exact search's (`top_pairs`).
RECALL_SAMPLE = 256
_TRAINING_POINTS_PER_CELL = 39  # faiss.ClusteringParameters().min_points_per_centroid


@dataclass(frozen=True)
class TopPairs:
    """Pairs found by a search: positions of the older and newer publication and their similarity (float64 in
    [-1, 1], rounded to 4 decimals), one entry per pair, grouped by older position in the order of the query,
    most similar first and ties to the smaller newer position."""

    older: np.ndarray
    newer: np.ndarray
    similarity: np.ndarray

    @staticmethod
    def concatenate(parts: list[TopPairs]) -> TopPairs:
        """The pairs of every part, in order."""
        return TopPairs(
            np.concatenate([np.empty(0, dtype=np.intp), *(p.older for p in parts)]),
            np.concatenate([np.empty(0, dtype=np.intp), *(p.newer for p in parts)]),
            np.concatenate([np.empty(0), *(p.similarity for p in parts)]),
        )


def _similarity(older: np.ndarray, newer: np.ndarray) -> np.ndarray:
    """Dot products of float32 unit vectors computed in float64 and rounded to 4 decimals: float32 sums in another
    order (BLAS blocks, an index's kernels) differ in the 7th digit and could round the other way; float64 ones differ
    in the 16th, so both searches give the same value."""
    return np.round(older.astype(np.float64) @ newer.astype(np.float64).T, 4)


def _first_k(rows: np.ndarray, newer: np.ndarray, similarity: np.ndarray, top_k: int, min_similarity: float) -> np.ndarray:
    """Indexes of the flat candidate entries (row, newer position, similarity) that are their row's top_k: at or
    above min_similarity, most similar first, ties to the smaller newer position; in row, rank order."""
    keep = np.flatnonzero(similarity >= min_similarity)
    keep = keep[np.lexsort((newer[keep], -similarity[keep], rows[keep]))]
    sorted_rows = rows[keep]
    starts = np.flatnonzero(np.r_[True, sorted_rows[1:] != sorted_rows[:-1]]) if keep.size else keep
    rank = np.arange(keep.size) - np.repeat(starts, np.diff(np.r_[starts, keep.size]))
    return keep[rank < top_k]


def exact_top_pairs(
    vectors: np.ndarray, year: np.ndarray, older: np.ndarray, newer: np.ndarray, *, top_k: int, min_similarity: float
) -> TopPairs:
    """Each older publication's top_k strictly newer publications at or above min_similarity, by comparing it with
    every newer one (module docstring).

    Args:
        vectors: (publications x dimensions) float32 unit vectors (zero for no text).
        year: publication year per position (float, NaN for none: such a publication is never newer).
        older: positions to find pairs for; newer: candidate positions, ascending (ties go to the smaller).
        top_k: pairs per older publication at most (>= 1); min_similarity: the gate.

    Returns:
        TopPairs, older positions in the order of `older`.
    """
    parts = []
    newer_vectors = vectors[newer]
    rows_per_block = max(1, BLOCK_ENTRIES // max(newer.size, 1))
    for start in range(0, older.size if newer.size else 0, rows_per_block):
        block = older[start : start + rows_per_block]
        similarity = _similarity(vectors[block], newer_vectors)
        similarity[~(year[newer][None, :] > year[block][:, None]) | (similarity < min_similarity)] = -np.inf
        # The top_k-th largest of each row: every entry at or above it is a candidate (ties at it included).
        k = min(top_k, newer.size)
        kth = -np.partition(-similarity, k - 1, axis=1)[:, k - 1]
        rows, cols = np.nonzero((similarity >= kth[:, None]) & (similarity > -np.inf))
        chosen = _first_k(rows, newer[cols], similarity[rows, cols], top_k, min_similarity)
        parts.append(TopPairs(block[rows[chosen]], newer[cols[chosen]], similarity[rows[chosen], cols[chosen]]))
    return TopPairs.concatenate(parts)


@dataclass(frozen=True)
class _YearIndex:
    """The newer publications of one year: an index over their distinct vectors, and the first top_k positions
    holding each distinct vector (-1 past the last)."""

    year: float
    index: object  # faiss.Index
    distinct: np.ndarray  # (distinct vectors x dimensions) float32
    distinct64: np.ndarray  # the same in float64, for the exact re-scoring (converted once, not per query)
    members: np.ndarray  # (distinct vectors x top_k) positions, ascending, -1 padded
    probes: int


def _year_index(vectors: np.ndarray, positions: np.ndarray, year: float, top_k: int) -> _YearIndex:
    import faiss  # only datasets above EXACT_SEARCH_LIMIT need it

    distinct, first, inverse = np.unique(vectors[positions], axis=0, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    # Positions of each distinct vector, ascending (positions ascend, the stable sort keeps that order).
    order = np.argsort(inverse, kind="stable")
    starts = np.searchsorted(inverse[order], np.arange(distinct.shape[0]))
    rank = np.arange(order.size) - starts[inverse[order]]
    members = np.full((distinct.shape[0], top_k), -1, dtype=np.intp)
    kept = rank < top_k
    members[inverse[order][kept], rank[kept]] = positions[order][kept]
    distinct = np.ascontiguousarray(distinct, dtype=np.float32)
    dimensions = distinct.shape[1]
    cells = int(np.sqrt(distinct.shape[0]))
    if cells < MIN_CELLS or distinct.shape[0] < cells * _TRAINING_POINTS_PER_CELL:
        index, probes = faiss.IndexFlatIP(dimensions), 0
    else:
        index = faiss.IndexIVFFlat(faiss.IndexFlatIP(dimensions), dimensions, cells, faiss.METRIC_INNER_PRODUCT)
        # k-means with FAISS's fixed seed: the same vectors give the same cells.
        index.train(distinct)
        probes = min(PROBES, cells)
        index.nprobe = probes
    index.add(distinct)
    return _YearIndex(year, index, distinct, distinct.astype(np.float64), members, probes)


def _candidates(
    entry: _YearIndex, vectors: np.ndarray, queries: np.ndarray, rows: np.ndarray, top_k: int, min_similarity: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The newer positions one year's index offers for the query positions `queries` (their rows in the caller's
    block: `rows`), scored as `_similarity` scores them: flat (row, newer position, similarity) at or above the gate."""
    wanted = min(entry.distinct.shape[0], CANDIDATES_PER_TOP_K * top_k)
    query_vectors = np.ascontiguousarray(vectors[queries])
    # Publications with the same text (a title whose abstract is 'N/A', the same paper twice) ask the index once: its
    # answer depends on the vector alone. Rows compared as raw bytes (a sort of memcmp keys, ~1 ms a block).
    _, first, inverse = np.unique(
        query_vectors.view(np.dtype((np.void, query_vectors.strides[0]))).reshape(-1), return_index=True, return_inverse=True
    )
    scores, found = entry.index.search(query_vectors[first], wanted)
    scores, found = scores[inverse.reshape(-1)], found[inverse.reshape(-1)]
    valid = found >= 0
    found = np.where(valid, found, 0)
    # Only the vectors the index's own float32 scores leave in reach of the gate and of the top_k are scored again
    # (`_in_reach`); their float64 products, as `_similarity`, decide.
    near, rank = np.nonzero(_in_reach(np.where(valid, scores, -np.inf), top_k, min_similarity))
    similarity = np.full(found.shape, -np.inf)
    similarity[near, rank] = np.round(
        np.einsum("nd,nd->n", entry.distinct64[found[near, rank]], query_vectors[near].astype(np.float64)), 4
    )
    similarity[similarity < min_similarity] = -np.inf
    # A vector below a query's top_k-th best of this year has top_k better positions before it: never among the top_k.
    k = min(top_k, wanted)
    kth = -np.partition(-similarity, k - 1, axis=1)[:, k - 1]
    members = entry.members[found]  # (queries x wanted x top_k) positions holding each found vector
    present = ((similarity >= kth[:, None]) & (similarity > -np.inf))[:, :, None] & (members >= 0)
    return (
        np.broadcast_to(rows[:, None, None], members.shape)[present],
        members[present],
        np.broadcast_to(similarity[:, :, None], members.shape)[present],
    )


# Bound on |float32 score of the index - float64 product rounded to 4 decimals| for unit vectors of a few hundred
# dimensions: float32 sums of 300 products err by ~1e-5 at most (300 x 2^-24 x the sum of |products| <= 1), the rounding
# by 5e-5; 1e-3 leaves a margin twenty times that.
SCORE_MARGIN = 1e-3


def _in_reach(scores: np.ndarray, top_k: int, min_similarity: float) -> np.ndarray:
    """(queries x wanted) mask of the index's candidates that can pass the gate and be among a row's top_k once
    scored exactly: float32 `scores` (-inf for none) at least min_similarity - SCORE_MARGIN, and, when a row has top_k
    or more scores at least min_similarity + SCORE_MARGIN (certain to pass), at least the top_k-th of those minus
    2 x SCORE_MARGIN (each of those top_k scores at least that minus a margin exactly, so the row's exact top_k-th
    does too, and anything kept is within a margin of it)."""
    certain = np.where(scores >= min_similarity + SCORE_MARGIN, scores, -np.inf)
    k = min(top_k, scores.shape[1])
    kth = -np.partition(-certain, k - 1, axis=1)[:, k - 1] if scores.size else np.empty(0)
    return (scores >= min_similarity - SCORE_MARGIN) & (scores >= kth[:, None] - 2 * SCORE_MARGIN)


def indexed_top_pairs(
    vectors: np.ndarray,
    year: np.ndarray,
    older: np.ndarray,
    newer: np.ndarray,
    *,
    top_k: int,
    min_similarity: float,
    progress: Callable[[str], None] | None = None,
) -> TopPairs:
    """`exact_top_pairs` through one inverted-file index per newer year (module docstring): sub-quadratic, and
    approximate only in the pairs it may miss; the pairs it returns carry the exact similarity and order.

    Args:
        as `exact_top_pairs`; progress: called with a line about every PROGRESS_SECONDS while querying.

    Returns:
        TopPairs, older positions in the order of `older`.
    """
    started = time.monotonic()
    years = np.unique(year[newer][~np.isnan(year[newer])])
    indexes = [_year_index(vectors, newer[year[newer] == y], y, top_k) for y in years]
    if progress:
        years_read = "; ".join(
            f"{int(i.year)}: {i.distinct.shape[0]:,} distinct vectors, "
            + (f"{i.probes} of {i.index.nlist} cells read a query" if i.probes else "every one read") for i in indexes
        )
        progress(f"indexed {newer.size:,} newer publications in {time.monotonic() - started:.1f} s ({years_read})")
    parts, reported = [], time.monotonic()
    for start in range(0, older.size, QUERY_ROWS):
        block = older[start : start + QUERY_ROWS]
        found = [_candidates(entry, vectors, block[asking], asking, top_k, min_similarity)
                 for entry in indexes if (asking := np.flatnonzero(year[block] < entry.year)).size]
        rows, candidates, similarity = (np.concatenate(part) for part in zip(*found)) if found else (np.empty(0, dtype=np.intp),) * 3
        chosen = _first_k(rows, candidates, similarity, top_k, min_similarity)
        parts.append(TopPairs(block[rows[chosen]], candidates[chosen], similarity[chosen]))
        if progress and time.monotonic() - reported >= PROGRESS_SECONDS:
            reported = time.monotonic()
            done = start + block.size
            progress(f"searched {done:,} of {older.size:,} older publications ({done / older.size:.0%}) in "
                     f"{reported - started:.0f} s")
    return TopPairs.concatenate(parts)


def recall(found: TopPairs, exact: TopPairs) -> float:
    """Share of the exact search's pairs (older, newer) that `found` holds (1.0 when the exact search has none)."""
    if not exact.older.size:
        return 1.0
    key = lambda pairs: set(zip(pairs.older.tolist(), pairs.newer.tolist()))  # noqa: E731
    return len(key(found) & key(exact)) / exact.older.size


def top_pairs(
    vectors: np.ndarray,
    year: np.ndarray,
    older: np.ndarray,
    newer: np.ndarray,
    *,
    top_k: int,
    min_similarity: float,
    exact_up_to: int = EXACT_SEARCH_LIMIT,
    progress: Callable[[str], None] | None = None,
) -> TopPairs:
    """`exact_top_pairs` up to `exact_up_to` older x newer products, else `indexed_top_pairs`, whose recall against
    the exact search on RECALL_SAMPLE older publications (evenly spaced) is reported through `progress`.

    Args and returns: as `indexed_top_pairs`; exact_up_to: 0 always uses the index.
    """
    if older.size * newer.size <= exact_up_to:
        return exact_top_pairs(vectors, year, older, newer, top_k=top_k, min_similarity=min_similarity)
    started = time.monotonic()
    found = indexed_top_pairs(vectors, year, older, newer, top_k=top_k, min_similarity=min_similarity, progress=progress)
    if progress:
        sample = np.unique(older[np.linspace(0, older.size - 1, min(RECALL_SAMPLE, older.size)).astype(np.intp)])
        exact = exact_top_pairs(vectors, year, sample, newer, top_k=top_k, min_similarity=min_similarity)
        in_sample = np.isin(found.older, sample)
        sampled = TopPairs(found.older[in_sample], found.newer[in_sample], found.similarity[in_sample])
        progress(f"{older.size:,} older x {newer.size:,} newer publications searched through the index in "
                 f"{time.monotonic() - started:.1f} s: {found.older.size:,} pairs; top-{top_k} recall against the exact "
                 f"search {recall(sampled, exact):.4f} ({exact.older.size:,} exact pairs of {sample.size:,} sampled older "
                 "publications)")
    return found
