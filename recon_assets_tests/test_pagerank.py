"""Tests for PageRank on the Neo4j GDS scale and its normalisation to a [0, 1] centrality on the citation scale.

compute_pagerank is checked against `_gds_pagerank`, a direct transcription of the GDS iteration
y_v = (1 - d) + d * sum over in-neighbours u of y_u / outdeg_u, where dangling nodes pass nothing on.
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import pandas as pd
import pytest

from recon_assets.centrality import pagerank
from recon_assets.centrality.pagerank import (
    DAMPING,
    ISOLATED_FLOOR,
    PageRankNotConverged,
    PageRankReference,
    compute_pagerank,
    pagerank_centrality,
    pagerank_reference,
    publication_centrality,
)


def _gds_pagerank(nodes: list[str], edges: list[tuple[str, str]]) -> dict[str, float]:
    """GDS-style power iteration to a fixed point (max change below 1e-13)."""
    out_degree = {node: sum(source == node for source, _ in edges) for node in nodes}
    ranks = dict.fromkeys(nodes, 1.0)
    for _ in range(10_000):
        updated = {
            node: (1.0 - DAMPING)
            + DAMPING * sum(ranks[source] / out_degree[source] for source, target in edges if target == node)
            for node in nodes
        }
        if max(abs(updated[node] - ranks[node]) for node in nodes) < 1e-13:
            return updated
        ranks = updated
    raise AssertionError("reference iteration did not converge")


CHAIN = (["a", "b", "c"], [("a", "b"), ("b", "c")])
STAR_IN = (["hub", "l1", "l2", "l3", "l4"], [(leaf, "hub") for leaf in ("l1", "l2", "l3", "l4")])
STAR_OUT = (["hub", "l1", "l2", "l3"], [("hub", leaf) for leaf in ("l1", "l2", "l3")])
WITH_ISOLATED = (["p1", "p2", "d1", "lonely"], [("p1", "d1"), ("p2", "d1"), ("p2", "p1")])
CYCLE = (["a", "b", "c"], [("a", "b"), ("b", "c"), ("c", "a")])
CYCLE_WITH_TAIL = (
    ["a", "b", "c", "d", "e"],
    [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("e", "a"), ("e", "d")],
)


# ---------------------------------------------------------------- pagerank_centrality

# A typical citing publication with 2 outgoing relationships passes on 0.85 * 0.15 / 2 = 0.06375.
REFERENCE = PageRankReference(floor=ISOLATED_FLOOR, mean_out_degree=2.0)


@pytest.mark.parametrize(
    ("pagerank", "citations_equivalent"),
    [(0.15, 0), (0.15 + 0.06375, 1), (0.15 + 5 * 0.06375, 5), (0.15 + 10_000 * 0.06375, 10_000), (0.15 + 1e6 * 0.06375, 1e6)],
)
def test_pagerank_reads_as_citations_on_the_citation_scale(pagerank, citations_equivalent):
    expected = min(1.0, np.log1p(citations_equivalent) / np.log1p(10_000))
    assert pagerank_centrality(np.array([pagerank]), REFERENCE)[0] == pytest.approx(expected)


def test_a_small_graph_cannot_make_its_best_connected_paper_central():
    """issue 11: the snapshot's own 99.9th percentile made a 49-publication graph's best paper FOUNDATIONAL."""
    nodes = [f"p{i}" for i in range(49)]
    edges = [(f"p{i}", "p0") for i in range(1, 6)] + [(f"p{i}", f"p{i + 1}") for i in range(6, 48)]
    ranks = compute_pagerank(nodes, edges)
    citations = pd.DataFrame(edges, columns=["citing_publication_id", "cited_publication_id"])
    reference = pagerank_reference(pd.Series(nodes), pd.DataFrame({"publication_id": []}), citations)
    best = pagerank_centrality(np.array([max(ranks.values())]), reference)[0]
    assert best < 0.6
    assert reference.mean_out_degree == 1.0 and reference.floor == pytest.approx(0.15)


def test_the_reference_is_the_mean_out_degree_of_citing_publications():
    edges = pd.DataFrame({"publication_id": ["p1", "p1", "p2"], "dataset_id": ["d1", "d2", "d1"]})
    citations = pd.DataFrame({"citing_publication_id": ["p1", "p3"], "cited_publication_id": ["p2", "p2"]})
    reference = pagerank_reference(pd.Series(["p1", "p2", "p3", "p4"]), edges, citations)
    assert reference.mean_out_degree == pytest.approx(5 / 3)  # p1: 3, p2: 1, p3: 1; p4 cites nothing
    assert reference.per_citation == pytest.approx(0.85 * 0.15 / (5 / 3))
    assert pagerank_reference(pd.Series(["p1"]), edges.iloc[:0], citations.iloc[:0]).mean_out_degree == 1.0


def test_pagerank_centrality_is_monotone_and_bounded():
    values = 0.15 * (1.0 + np.random.default_rng(0).pareto(1.2, size=5_000))
    result = pagerank_centrality(values, REFERENCE)
    assert result.min() >= 0.0 and result.max() <= 1.0
    order = np.argsort(values, kind="stable")
    assert (np.diff(result[order]) >= 0).all()


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf, 0.0, -0.15])
def test_pagerank_centrality_rejects_non_finite_or_non_positive(bad):
    with pytest.raises(ValueError, match="finite and positive"):
        pagerank_centrality(np.array([0.15, bad, 2.0]), REFERENCE)


# ---------------------------------------------------------------- compute_pagerank

@pytest.mark.parametrize(
    "graph", [CHAIN, STAR_IN, STAR_OUT, WITH_ISOLATED, CYCLE, CYCLE_WITH_TAIL],
    ids=["chain", "star-in", "star-out", "isolated", "cycle", "cycle-with-tail"],
)
def test_compute_pagerank_matches_gds_iteration(graph):
    nodes, edges = graph
    result = compute_pagerank(nodes, edges)
    expected = _gds_pagerank(nodes, edges)
    assert set(result) == set(nodes)
    for node in nodes:
        assert result[node] == pytest.approx(expected[node], abs=1e-6), node


@pytest.mark.parametrize(
    ("graph", "node", "expected"),
    [
        (CHAIN, "c", 0.15 + 0.85 * (0.15 + 0.85 * 0.15)),
        (STAR_IN, "hub", 0.15 + 0.85 * 4 * 0.15),
        (STAR_OUT, "l1", 0.15 + 0.85 * 0.15 / 3),
        (CYCLE, "b", 1.0),
    ],
)
def test_compute_pagerank_closed_forms(graph, node, expected):
    assert compute_pagerank(*graph)[node] == pytest.approx(expected, abs=1e-6)


# The KG sample (nasa/edgraph test fixtures) stores this exact value for isolated nodes.
KG_FLOOR = 0.15000000000000002


@pytest.mark.parametrize(
    ("graph", "node"),
    [(WITH_ISOLATED, "lonely"), (WITH_ISOLATED, "p2"), (CHAIN, "a"), (STAR_IN, "l3"), (STAR_OUT, "hub")],
)
def test_compute_pagerank_nodes_without_incoming_edges_are_exactly_the_floor(graph, node):
    assert compute_pagerank(*graph)[node] == KG_FLOOR == 1.0 - DAMPING


def test_compute_pagerank_floor_is_exact_on_a_larger_graph():
    """On 2,000 nodes networkx's tolerance alone left isolated nodes at 0.1500005 (a bug: ties with the KG broke)."""
    graph = nx.gnp_random_graph(2000, 1 / 2000, seed=1, directed=True)
    result = compute_pagerank([str(node) for node in graph], [(str(u), str(v)) for u, v in graph.edges()])
    floor = {result[str(node)] for node in graph if graph.in_degree(node) == 0}
    assert floor == {KG_FLOOR}


def test_compute_pagerank_empty_graph():
    assert compute_pagerank([], []) == {}


@pytest.fixture
def pagerank_calls(monkeypatch):
    """The max_iter of every networkx.pagerank call, the real function still running."""
    calls: list[int] = []
    real = nx.pagerank

    def spy(*args, **kwargs):
        calls.append(kwargs["max_iter"])
        return real(*args, **kwargs)

    monkeypatch.setattr(nx, "pagerank", spy)
    return calls


def test_compute_pagerank_retries_with_more_iterations(pagerank_calls):
    nodes, edges = CHAIN
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nx.pagerank(nx.DiGraph(edges), alpha=DAMPING, tol=1e-10, max_iter=1)
    pagerank_calls.clear()
    result = compute_pagerank(nodes, edges, tol=1e-10, max_iter=1, retry_factor=1000)
    assert pagerank_calls == [1, 1000]
    expected = _gds_pagerank(nodes, edges)
    assert result == {node: pytest.approx(expected[node], abs=1e-6) for node in nodes}


def test_compute_pagerank_raises_when_retry_fails_too(pagerank_calls):
    with pytest.raises(PageRankNotConverged, match=r"within 2 iterations .*3 nodes / 2 edges"):
        compute_pagerank(*CHAIN, tol=1e-12, max_iter=1, retry_factor=2)
    assert pagerank_calls == [1, 2]


# ---------------------------------------------------------------- publication_centrality

def _frames(publication_ranks, dataset_ranks):
    publications = pd.DataFrame({"publication_id": ["p1", "p2", "p3"], "pagerank": publication_ranks})
    datasets = pd.DataFrame({"dataset_id": ["d1"], "pagerank": dataset_ranks})
    edges = pd.DataFrame({"dataset_id": ["d1", "d1"], "publication_id": ["p2", "p3"]})
    citations = pd.DataFrame({"citing_publication_id": ["p3", "p3"], "cited_publication_id": ["p1", "p2"]})
    return publications, datasets, edges, citations


GRAPH_NODES = ["p1", "p2", "p3", "d1"]
GRAPH_EDGES = [("p2", "d1"), ("p3", "d1"), ("p3", "p1"), ("p3", "p2")]


def _refuse_compute(*_args, **_kwargs):
    raise AssertionError("PageRank computed although every node has the KG property")


def test_publication_centrality_uses_kg_property_without_computing(monkeypatch):
    monkeypatch.setattr(pagerank, "compute_pagerank", _refuse_compute)
    ranks = [2.5, 0.15, 0.9]
    result, reference = publication_centrality(*_frames(ranks, [4.0]))
    assert result.columns.tolist() == ["publication_id", "pagerank", "pagerank_source", "centrality"]
    assert result["publication_id"].tolist() == ["p1", "p2", "p3"]
    assert result["pagerank"].tolist() == ranks
    assert result["pagerank_source"].tolist() == ["kg_property"] * 3
    # p2 cites d1, p3 cites d1, p1 and p2: 4 relationships from 2 citing publications
    assert reference.mean_out_degree == 2.0
    np.testing.assert_allclose(result["centrality"], pagerank_centrality(np.array(ranks), reference))


@pytest.mark.parametrize(
    "publication_ranks",
    [[7.0, np.nan, np.nan], [np.nan, 7.0, np.nan], [np.nan, np.nan, np.nan]],
)
def test_publication_centrality_fills_exactly_the_missing_values(publication_ranks):
    result, reference = publication_centrality(*_frames(publication_ranks, [1.0]))
    expected = _gds_pagerank(GRAPH_NODES, GRAPH_EDGES)
    missing = np.isnan(publication_ranks)
    for row, is_missing, kg_value in zip(result.itertuples(), missing, publication_ranks):
        if is_missing:
            assert row.pagerank_source == "computed"
            assert row.pagerank == pytest.approx(expected[row.publication_id], abs=1e-6)
        else:
            assert row.pagerank_source == "kg_property"
            assert row.pagerank == kg_value
    assert not result["pagerank"].isna().any()
    np.testing.assert_array_equal(result["centrality"], pagerank_centrality(result["pagerank"].to_numpy(), reference))


def test_publication_centrality_computed_floor_ties_with_kg_floor():
    """p1 (KG floor) and p3 (computed, cited by nobody) are both isolated-floor nodes: centrality exactly 0."""
    result = publication_centrality(*_frames([KG_FLOOR, 9.0, np.nan], [1.0]))[0].set_index("publication_id")
    assert result.loc["p3", "pagerank_source"] == "computed"
    assert result.loc["p3", "pagerank"] == result.loc["p1", "pagerank"]
    assert result.loc["p3", "centrality"] == result.loc["p1", "centrality"] == 0.0
