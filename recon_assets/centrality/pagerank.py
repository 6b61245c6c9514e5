"""PageRank over the Publication+Dataset projection, and its normalisation to a [0, 1] centrality."""

from __future__ import annotations

from collections.abc import Iterable

import networkx as nx
import numpy as np
import pandas as pd

# Damping factor used by Neo4j GDS (and the KG builder) and by networkx by default.
DAMPING = 0.85
# PageRank quantile that maps to centrality 1 (see log_scaled_centrality for why 99.9 %).
REFERENCE_QUANTILE = 0.999


class PageRankNotConverged(RuntimeError):
    """PageRank did not converge even after the retry with more iterations; nothing may be written."""


def log_scaled_centrality(pagerank: np.ndarray, reference_quantile: float = REFERENCE_QUANTILE) -> np.ndarray:
    """Normalise PageRank values to a [0, 1] centrality on a log scale anchored at the floor and a high quantile.

        centrality_i = clip(log(pr_i / floor) / log(reference / floor), 0, 1)

    with floor = the smallest PageRank (every isolated node sits there: 0.15 on the GDS scale) and reference =
    the `reference_quantile` (default 99.9th) percentile. The log tames PageRank's heavy tail (the real KG spans
    0.15 to over 100) and the quantile keeps one extreme hub from squashing everyone else; publications above the
    reference saturate at 1. For a power-law tail the share of publications at or above centrality t is about
    (1 - reference_quantile) ** t whatever the exponent: with the default, 1.6 % reach 0.6 (the FOUNDATIONAL
    threshold) and 13 % reach 0.3, so "central" stays rare, as on the citation scale
    log1p(n)/log1p(10000) it must be combined with. Scale-free: only ratios of PageRank values matter, so
    `pagerank_global` and `pagerank_publication_dataset` normalise alike. When reference == floor (all values
    equal, or a single value) nobody stands out and every centrality is 0, never 0/0.

    Args:
        pagerank: shape (n,), finite floats > 0.
        reference_quantile: in (0, 1].

    Returns:
        shape (n,) float64 in [0, 1], rounded to 12 decimals.

    Raises:
        ValueError: a value is NaN, infinite or not positive (compute missing PageRank first).
    """
    values = np.asarray(pagerank, dtype=float)
    if not (np.isfinite(values) & (values > 0)).all():
        raise ValueError("PageRank values must be finite and positive; compute missing values before normalising")
    if values.size == 0:
        return values.copy()
    floor = values.min()
    reference = np.quantile(values, reference_quantile)
    if reference <= floor:
        return np.zeros_like(values)
    # Rounded: an isolated node stored as 0.15000000000000002 is at the floor (0), not 1e-16 above it.
    return np.round(np.clip(np.log(values / floor) / np.log(reference / floor), 0.0, 1.0), 12)


def compute_pagerank(
    nodes: Iterable[str],
    edges: Iterable[tuple[str, str]],
    *,
    tol: float = 1.0e-8,
    max_iter: int = 100,
    retry_factor: int = 10,
) -> dict[str, float]:
    """PageRank of a directed graph, on the Neo4j GDS scale that the KG's `pagerank_publication_dataset` uses.

    GDS iterates y = (1 - d) + d * M y and lets the rank of dangling nodes leak away (an isolated node gets
    1 - d = 0.15). networkx returns a distribution x (sums to 1) that spreads the dangling mass D = sum of x
    over dangling nodes uniformly: x = d * M x + ((1 - d) + d * D) / N. Both are linear in their constant
    term, so y = x * N * (1 - d) / ((1 - d) + d * D) exactly; that rescaling is applied here, and a node
    without incoming edges gets exactly 1 - d, bit for bit the KG's value for such nodes.
    A run that does not converge in `max_iter` is retried once with `max_iter * retry_factor` iterations.

    Args:
        nodes: node ids (every edge endpoint must be among them).
        edges: (source, target) pairs: Publication-USES_DATASET->Dataset and citing-CITES->cited.

    Returns:
        {node id: PageRank on the GDS scale}.

    Raises:
        PageRankNotConverged: still not converged after the retry.
    """
    graph = nx.DiGraph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from(edges)
    if graph.number_of_nodes() == 0:
        return {}
    for iterations in (max_iter, max_iter * retry_factor):
        try:
            ranks = nx.pagerank(graph, alpha=DAMPING, tol=tol, max_iter=iterations)
        except nx.PowerIterationFailedConvergence:
            continue
        dangling_mass = sum(ranks[node] for node, degree in graph.out_degree() if degree == 0)
        teleport = 1.0 - DAMPING
        scale = graph.number_of_nodes() * teleport / (teleport + DAMPING * dangling_mass)
        # A node nothing points to is exactly 1 - d in GDS; the rescaled estimate is only within `tol` of it,
        # and would break its tie with the KG's floor nodes when computed and KG values are ranked together.
        return {node: teleport if graph.in_degree(node) == 0 else rank * scale for node, rank in ranks.items()}
    raise PageRankNotConverged(
        f"PageRank did not converge within {max_iter * retry_factor} iterations (tol {tol}) "
        f"on {graph.number_of_nodes():,} nodes / {graph.number_of_edges():,} edges"
    )


def publication_centrality(
    publications: pd.DataFrame, datasets: pd.DataFrame, edges: pd.DataFrame, citations: pd.DataFrame
) -> pd.DataFrame:
    """PageRank and centrality of every publication.

    The KG's PageRank property is used where present. When some publication lacks it, PageRank is computed
    with networkx over the Publication+Dataset projection (USES_DATASET publication→dataset and CITES
    citing→cited, as the KG builder's GDS projection) and fills exactly the missing values.

    Args:
        publications: columns publication_id, pagerank (NaN when the property is missing).
        datasets: column dataset_id (the projection's Dataset nodes).
        edges: columns dataset_id, publication_id.  citations: columns citing_publication_id, cited_publication_id.

    Returns:
        columns publication_id, pagerank (GDS scale), pagerank_source ('kg_property' | 'computed'),
        centrality (in [0, 1], see `log_scaled_centrality`), in `publications` order.

    Raises:
        PageRankNotConverged: the computation did not converge (nothing is returned half-done).
    """
    frame = publications[["publication_id", "pagerank"]].copy()
    frame["pagerank_source"] = np.where(frame["pagerank"].notna(), "kg_property", "computed")
    missing = frame["pagerank"].isna()
    if missing.any():
        computed = compute_pagerank(
            [*publications["publication_id"], *datasets["dataset_id"]],
            [
                *zip(edges["publication_id"], edges["dataset_id"]),
                *zip(citations["citing_publication_id"], citations["cited_publication_id"]),
            ],
        )
        frame.loc[missing, "pagerank"] = frame.loc[missing, "publication_id"].map(computed)
    frame["centrality"] = log_scaled_centrality(frame["pagerank"].to_numpy())
    return frame
