"""Score Dataset→Publication edges as DOMAIN.md defines it ("The score", "Labels are findings"):

    reliability = w1 * centrality + w2 * recency + w3 * coherence - lifecycle penalty   (default w = 0.4, 0.3, 0.3)

in three steps, each in its own module: `signals.edge_signals` (centrality, recency, citation record, retraction,
dataset lifecycle as of as_of: what the weights do not change), `labels.label_edges` (reliability, label, evidence,
negative signals, dominant signal) and `reasons.explain_edges` (one checkable line per edge). The ablation weighs
one `edge_signals` under many weights.

The lifecycle penalty (`settings.ScoringSettings.lifecycle_penalty`, default 0.15) is subtracted from the
reliability of an edge whose dataset version was superseded on or before as_of (or on an unknown date: the
successor exists); the reason names the successor and since when. A FOUNDATIONAL paper stays FOUNDATIONAL
(DOMAIN.md worked case 4).
"""

from __future__ import annotations

from datetime import date

import pandas as pd

from recon_assets.reliability.labels import label_edges
from recon_assets.reliability.reasons import explain_edges
from recon_assets.reliability.settings import ScoringSettings
from recon_assets.reliability.signals import edge_signals


def score_edges(edges: pd.DataFrame, *, as_of: date, settings: ScoringSettings | None = None, explain: bool = True) -> pd.DataFrame:
    """Score, label and explain every edge.

    Args:
        edges: as `signals.edge_signals` takes them, with coherence, coherence_status, coherence_evidence (text naming
            the newer work that drove coherence, or what was read when no pair states a stance; NA allowed),
            coherence_judges (`edge_scores.coherence_judges`, NA allowed; read by the reason), dispute_status (commented / debated / corrected / NA)
            and dispute_evidence (text, NA allowed), citation ('[Author et al., 2019]'), dataset_id,
            dataset_short_name, dataset_doi, dataset_version, successor_version, dataset_collection_progress and
            succession_basis.
        as_of: the date ages and every evidence window are measured against; nothing dated after it is used.
        settings: the scoring settings (default ScoringSettings()).
        explain: False leaves out the reason (its per-edge loop is most of the cost), for callers that need only
            reliabilities and labels.

    Returns:
        `edges` plus the columns of `edge_signals` and `label_edges`, and with `explain` the reason (same row order).
    """
    settings = settings or ScoringSettings()
    scored = label_edges(edge_signals(edges, as_of=as_of, settings=settings))
    if explain:
        scored["reason"] = explain_edges(scored, as_of=as_of, settings=settings)
    return scored
