"""The same-dataset search (recon_assets/judgement/newer_neighbours.py): the index gives the exact search's pairs,
similarities and order, ties and the strictly-newer rule included. Vectors are generated: topics (cluster centres)
with publications scattered around them, repeated vectors (one text used twice) and years over a window."""

from __future__ import annotations

import numpy as np
import pytest

from recon_assets.judgement import newer_neighbours
from recon_assets.judgement.newer_neighbours import TopPairs, exact_top_pairs, indexed_top_pairs, recall, top_pairs

DIMENSIONS = 256


def _unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def _generated(publications: int, newer_share: float, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(vectors, year, older, newer): 40 topics, each publication its topic's centre plus noise (cosine ~0.5-0.8 within
    a topic), one in five a copy of an earlier publication's vector (a repeated text: exact ties), years 1990-2025
    with the newer candidates in 2023-2025, and a few publications without text (zero vectors)."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(40, DIMENSIONS))
    topic = rng.integers(0, 40, publications)
    vectors = _unit(centres[topic] / np.sqrt(DIMENSIONS) * rng.uniform(0.8, 1.6, (publications, 1)) + rng.normal(size=(publications, DIMENSIONS)) / np.sqrt(DIMENSIONS))
    copies = np.flatnonzero(rng.random(publications) < 0.2)
    copies = copies[copies > 0]
    vectors[copies] = vectors[rng.integers(0, copies)]
    vectors[rng.random(publications) < 0.01] = 0.0
    year = np.where(rng.random(publications) < newer_share, rng.integers(2023, 2026, publications), rng.integers(1990, 2023, publications)).astype(float)
    year[rng.random(publications) < 0.005] = np.nan
    positions = np.arange(publications)
    return vectors, year, positions[~np.isnan(year)], positions[year >= 2023]


def _as_tuples(pairs: TopPairs) -> list[tuple[int, int, float]]:
    return list(zip(pairs.older.tolist(), pairs.newer.tolist(), pairs.similarity.tolist()))


@pytest.mark.parametrize(("publications", "newer_share", "top_k", "min_similarity"), [
    (800, 0.3, 5, 0.5),  # few newer vectors a year: flat indexes
    (9_000, 0.6, 5, 0.5),  # ~1,800 distinct vectors a year: inverted-file indexes with cells
    (9_000, 0.6, 3, 0.3),
])
def test_indexed_search_gives_the_exact_pairs_in_the_exact_order(publications, newer_share, top_k, min_similarity):
    vectors, year, older, newer = _generated(publications, newer_share, seed=publications + top_k)
    exact = exact_top_pairs(vectors, year, older, newer, top_k=top_k, min_similarity=min_similarity)
    indexed = indexed_top_pairs(vectors, year, older, newer, top_k=top_k, min_similarity=min_similarity)
    assert exact.older.size > older.size  # most older publications have several pairs: the comparison is not empty
    assert _as_tuples(indexed) == _as_tuples(exact)


def test_the_generated_vectors_exercise_cells_ties_and_both_year_rules():
    vectors, year, older, newer = _generated(9_000, 0.6, seed=9_005)
    entry = newer_neighbours._year_index(vectors, newer[year[newer] == 2024], 2024.0, 5)
    assert entry.probes and entry.index.nlist >= newer_neighbours.MIN_CELLS  # cells, not a flat index
    exact = exact_top_pairs(vectors, year, older, newer, top_k=5, min_similarity=0.5)
    similarity = exact.similarity
    assert (similarity[:-1] == similarity[1:])[exact.older[:-1] == exact.older[1:]].any()  # ties within an older's pairs
    assert (year[exact.newer] > year[exact.older]).all()
    assert (year[exact.older] == 2024).any() and (year[exact.newer] == 2024).any()  # a newer year is also an older one


def test_ties_go_to_the_smaller_position_and_only_strictly_newer_years_count():
    vector = _unit(np.ones((1, DIMENSIONS)))[0]
    vectors = np.tile(vector, (7, 1))
    # position: 0 older 2010; 1..3 2024; 4 2023; 5 2025; 6 2024 (same year as 1..3: never newer than them)
    year = np.array([2010, 2024, 2024, 2024, 2023, 2025, 2024], dtype=float)
    older, newer = np.arange(7), np.arange(1, 7)
    for search in (exact_top_pairs, indexed_top_pairs):
        pairs = search(vectors, year, older, newer, top_k=2, min_similarity=0.5)
        assert _as_tuples(pairs) == [
            (0, 1, 1.0), (0, 2, 1.0),  # six ties: the two smallest positions
            (1, 5, 1.0), (2, 5, 1.0), (3, 5, 1.0),  # 2024 -> only 2025
            (4, 1, 1.0), (4, 2, 1.0),  # 2023 -> 2024 and 2025, smallest positions
            (6, 5, 1.0),
        ], search.__name__


def test_nothing_below_the_gate_and_nothing_without_newer_publications():
    vectors, year, older, newer = _generated(800, 0.3, seed=3)
    for search in (exact_top_pairs, indexed_top_pairs):
        pairs = search(vectors, year, older, newer, top_k=5, min_similarity=0.99)
        assert (pairs.similarity >= 0.99).all()
        assert _as_tuples(search(vectors, year, older, newer[:0], top_k=5, min_similarity=0.5)) == []


@pytest.mark.parametrize(("found", "exact", "expected"), [
    (TopPairs(np.array([0, 0]), np.array([5, 6]), np.array([0.9, 0.8])), TopPairs(np.array([0, 0]), np.array([5, 6]), np.array([0.9, 0.8])), 1.0),
    (TopPairs(np.array([0]), np.array([5]), np.array([0.9])), TopPairs(np.array([0, 0]), np.array([5, 6]), np.array([0.9, 0.8])), 0.5),
    (TopPairs(np.array([0]), np.array([7]), np.array([0.9])), TopPairs(np.array([0]), np.array([5]), np.array([0.9])), 0.0),
    (TopPairs.concatenate([]), TopPairs.concatenate([]), 1.0),  # nothing to find
])
def test_recall(found, exact, expected):
    assert recall(found, exact) == expected


def test_top_pairs_takes_the_index_above_the_limit_and_reports_its_recall():
    vectors, year, older, newer = _generated(800, 0.3, seed=11)
    lines: list[str] = []
    exact = top_pairs(vectors, year, older, newer, top_k=5, min_similarity=0.5, progress=lines.append)
    assert lines == []  # below the limit: the exact search, nothing to report
    indexed = top_pairs(vectors, year, older, newer, top_k=5, min_similarity=0.5, exact_up_to=0, progress=lines.append)
    assert _as_tuples(indexed) == _as_tuples(exact)
    assert lines[0].startswith(f"indexed {newer.size:,} newer publications")
    assert "top-5 recall against the exact search 1.0000" in lines[-1]


def test_the_index_scores_leave_in_reach_every_pair_the_exact_scores_keep():
    """The index's float32 scores choose which candidates are scored again in float64 (`_in_reach`, issue 24's judge
    stage at scale): none that the exact, rounded scores keep (at the gate and among a row's top_k) is left out, with
    scores crowded at the gate and at the top_k-th place and each float32 score off its exact value by up to 3e-5."""
    rng = np.random.default_rng(24)
    exact = rng.choice([0.4999, 0.5, 0.5001, 0.61, 0.6101, 0.61005, 0.7, 0.2], size=(2_000, 20))
    scores = (exact + rng.uniform(-3e-5, 3e-5, exact.shape)).astype(np.float32)
    in_reach = newer_neighbours._in_reach(scores, 5, 0.5)
    passing = exact >= 0.5
    kth = -np.partition(-np.where(passing, exact, -np.inf), 4, axis=1)[:, 4]
    kept = passing & (exact >= kth[:, None])
    assert not (kept & ~in_reach).any()
    assert in_reach.sum() < 0.8 * in_reach.size  # and it does leave some out: the scores are not all re-computed
