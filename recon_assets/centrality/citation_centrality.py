"""Citation centrality: a publication's OpenAlex citation count up to as_of on the [0, 1] scale of DOMAIN.md
"centrality", the scale PageRank centrality (`pagerank.pagerank_centrality`) is put on too."""

from __future__ import annotations

import numpy as np

# Citations at which centrality saturates at 1: min(1, log1p(n)/log1p(10000)) (DOMAIN.md "centrality").
CITATION_SATURATION = 10_000


def citation_centrality(cited_by_count: np.ndarray | float) -> np.ndarray:
    """min(1, log1p(n) / log1p(10000)) for a citation count n (DOMAIN.md "centrality"); NaN stays NaN."""
    counts = np.maximum(np.asarray(cited_by_count, dtype=float), 0.0)
    return np.minimum(1.0, np.log1p(counts) / np.log1p(CITATION_SATURATION))
