"""The centrality rule: how PageRank centrality (`pagerank`) and citation centrality (`citation_centrality`) combine
into the centrality the score weighs (DOMAIN.md "centrality"; the rule is a scoring setting,
`reliability.settings.ScoringSettings.centrality_rule`)."""

from __future__ import annotations

from typing import Literal

import numpy as np

CentralityRule = Literal["max", "mean", "pagerank", "citations"]
CENTRALITY_RULES: tuple[CentralityRule, ...] = ("max", "mean", "pagerank", "citations")


def combine_centrality(pagerank: np.ndarray, citations: np.ndarray, rule: CentralityRule) -> tuple[np.ndarray, np.ndarray]:
    """Centrality from the PageRank centrality and citation centrality, each NaN when it is no evidence (a PageRank
    without KG citations up to as_of, DOMAIN.md "Labels are findings"; no citation record).

    Rules: 'max' (default: either evidence of being central suffices), 'mean' (both count equally), 'pagerank' or
    'citations' (one alone). Where one input is NaN every rule takes the other; where both are, the centrality is
    0.0, the value of the isolated-node floor (DOMAIN.md worked case 6): no evidence adds nothing to the score.

    Returns:
        (centrality, source) arrays of shape (n,); source is 'pagerank', 'citations', 'mean' or 'none', the input
        that set the value ('max' picks PageRank on a tie; 'none': neither is evidence).

    Raises:
        ValueError: unknown rule.
    """
    if rule not in CENTRALITY_RULES:
        raise ValueError(f"centrality rule must be one of {CENTRALITY_RULES}, got {rule!r}")
    pagerank, citations = np.asarray(pagerank, dtype=float), np.asarray(citations, dtype=float)
    has_pagerank, has_citations = ~np.isnan(pagerank), ~np.isnan(citations)
    if rule == "mean":
        combined, combined_source = (pagerank + citations) / 2, np.full(pagerank.shape, "mean", dtype=object)
    else:
        citations_win = np.broadcast_to({"max": citations > pagerank, "citations": True, "pagerank": False}[rule], pagerank.shape)
        combined, combined_source = np.where(citations_win, citations, pagerank), np.where(citations_win, "citations", "pagerank")
    alone = np.where(has_citations, citations, np.where(has_pagerank, pagerank, 0.0))
    alone_source = np.where(has_citations, "citations", np.where(has_pagerank, "pagerank", "none"))
    both = has_pagerank & has_citations
    return np.where(both, combined, alone), np.where(both, combined_source, alone_source).astype(object)
