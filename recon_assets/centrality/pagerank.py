"""PageRank over the Publication+Dataset projection, and its normalisation to a [0, 1] centrality."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from recon_assets.centrality.citation_centrality import CITATION_SATURATION

# Damping factor used by Neo4j GDS (and the KG builder) and by networkx by default.
DAMPING = 0.85
# PageRank of a node nothing points to on the GDS scale the KG's property uses: 1 - d (the builder's "isolated
# nodes get 0.15"; DOMAIN.md "Labels are findings").
ISOLATED_FLOOR = 1.0 - DAMPING


class PageRankNotConverged(RuntimeError):
    """PageRank did not converge even after the retry with more iterations; nothing may be written."""


@dataclass(frozen=True)
class PageRankReference:
    """What a PageRank is measured against, recorded with the snapshot (table `centrality_reference`).

    floor: the PageRank of a node nothing points to (ISOLATED_FLOOR on the GDS scale).
    mean_out_degree: projection edges (USES_DATASET + CITES) per publication that has any: how many ways a
        typical citing publication splits its rank.
    per_citation: the PageRank one citation from a typical publication at the floor adds, d * floor / mean_out_degree.
    """

    floor: float
    mean_out_degree: float

    @property
    def per_citation(self) -> float:
        return DAMPING * self.floor / self.mean_out_degree


def pagerank_reference(publication_ids: pd.Series, edges: pd.DataFrame, citations: pd.DataFrame) -> PageRankReference:
    """The reference of a snapshot's projection: the GDS floor and the mean out-degree of citing publications.

    Chosen so that a PageRank reads as a number of citations, on the same scale as the OpenAlex citation count:
    one citation from a typical publication at the floor lifts a PageRank by d * floor / k (the first term of
    the PageRank sum, GDS scale), so pr - floor is worth (pr - floor) / (d * floor / k) such citations. Unlike
    the snapshot's own extremes (the 99.9th percentile used before), this does not grow or shrink with the
    snapshot: a 49-publication sample's best-connected paper reads as the few citations it has, never as central.
    A snapshot without any projection edge gets k = 1.

    Args:
        publication_ids: every publication of the snapshot.
        edges: columns publication_id (USES_DATASET, publication -> dataset). citations: column citing_publication_id.
    """
    sources = pd.concat([edges["publication_id"], citations["citing_publication_id"]], ignore_index=True)
    citing = sources[sources.isin(publication_ids)]
    mean_out_degree = len(citing) / citing.nunique() if len(citing) else 1.0
    return PageRankReference(floor=ISOLATED_FLOOR, mean_out_degree=float(mean_out_degree))


def pagerank_centrality(pagerank: np.ndarray, reference: PageRankReference) -> np.ndarray:
    """PageRank as a centrality in [0, 1] on the citation scale of DOMAIN.md:

        citations_equivalent = max(0, pr - floor) / per_citation
        centrality           = min(1, log1p(citations_equivalent) / log1p(10000))

    so a PageRank carrying the weight of n direct citations from typical publications scores as n OpenAlex
    citations would (`PageRankReference`); a node at the floor scores 0.

    Args:
        pagerank: shape (n,), finite floats > 0 on the GDS scale.

    Returns:
        shape (n,) float64 in [0, 1], rounded to 12 decimals (a node stored as 0.15000000000000002 is at the floor).

    Raises:
        ValueError: a value is NaN, infinite or not positive (compute missing PageRank first).
    """
    values = np.asarray(pagerank, dtype=float)
    if not (np.isfinite(values) & (values > 0)).all():
        raise ValueError("PageRank values must be finite and positive; compute missing values before normalising")
    equivalent = np.maximum(values - reference.floor, 0.0) / reference.per_citation
    return np.round(np.minimum(1.0, np.log1p(equivalent) / np.log1p(CITATION_SATURATION)), 12)


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
    import networkx as nx  # here: the scoring modules read this module's scale, `recon explain` among them

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
) -> tuple[pd.DataFrame, PageRankReference]:
    """PageRank and centrality of every publication.

    The KG's PageRank property is used where present. When some publication lacks it, PageRank is computed
    with networkx over the Publication+Dataset projection (USES_DATASET publication→dataset and CITES
    citing→cited, as the KG builder's GDS projection) and fills exactly the missing values.

    Args:
        publications: columns publication_id, pagerank (NaN when the property is missing).
        datasets: column dataset_id (the projection's Dataset nodes).
        edges: columns dataset_id, publication_id.  citations: columns citing_publication_id, cited_publication_id.

    Returns:
        (columns publication_id, pagerank (GDS scale), pagerank_source ('kg_property' | 'computed'),
        centrality (in [0, 1], `pagerank_centrality`), in `publications` order; the snapshot's `pagerank_reference`).

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
    reference = pagerank_reference(publications["publication_id"], edges, citations)
    frame["centrality"] = pagerank_centrality(frame["pagerank"].to_numpy(), reference)
    return frame, reference
