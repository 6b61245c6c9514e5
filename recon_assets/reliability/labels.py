"""Reliability and labels: DOMAIN.md "Labels are findings", vectorised.

    reliability = w1 * centrality + w2 * recency + w3 * coherence - lifecycle penalty      (clipped to [0, 1])

A label is concluded from the evidence observed for the edge, first match wins:
1. SUPERSEDED: retracted; or reliability < 0.35 with a judged contradiction, judged supersession or standing dispute
   (a recorded comment its authors have not answered on record up to as_of; a debated one, comment and reply, is a
   negative signal only: DECLINING at most);
2. FOUNDATIONAL: not contradicted, and centrality >= 0.6 on evidence (a citation record or KG citations), or a
   field-and-year citation percentile >= 0.99, or >= 10 years old with citations growing (trend >= +0.25); a
   superseded dataset version does not remove it;
3. DECLINING: any other negative signal (NEGATIVE_SIGNALS);
4. CURRENT: no negative signal, and recent (recency >= 0.7) or cited in the last 3 years before as_of;
5. UNVERIFIED: nothing above can be concluded.
Age alone is never a negative signal, and a PageRank without KG citations is no evidence, not low centrality. A
standing dispute blocks FOUNDATIONAL as a judged contradiction does; a debated one does not.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from recon_assets.judgement import verdict_scale
from recon_assets.judgement.dispute_status import NEGATIVE_STATUSES, STANDING
from recon_assets.reliability.settings import ScoringSettings, Weights
from recon_assets.reliability.signals import EdgeSignals

FOUNDATIONAL, CURRENT, DECLINING, SUPERSEDED, UNVERIFIED = "FOUNDATIONAL", "CURRENT", "DECLINING", "SUPERSEDED", "UNVERIFIED"
# Every edge label, in DOMAIN.md's precedence order.
LABELS = (SUPERSEDED, FOUNDATIONAL, DECLINING, CURRENT, UNVERIFIED)
# Labels that flag an edge as stale (UNVERIFIED is not a flag: it says nothing can be concluded).
FLAGGED_LABELS = (DECLINING, SUPERSEDED)
# Decimals reliability is rounded to: summation noise (0.3499999999999999) must not decide a threshold.
RELIABILITY_DECIMALS = 10

# Negative signals (DOMAIN.md "Negative signals"), each with what the reason says of it; the order is how the
# reason lists them and which one a DECLINING label names as its dominant signal.
NEGATIVE_SIGNALS = {
    "retraction": "retracted",
    "contradiction": "a judged contradiction",
    "dispute": "a recorded comment on it",
    "supersession": "a judged supersession",
    "superseded_version": "its dataset version superseded",
    "citation_decline": "a steep citation decline",
    "peripheral": "old and measurably peripheral",
}
# The negative signals that make a reliability below the bar SUPERSEDED (rule 1), with what a reason says of each, in
# NEGATIVE_SIGNALS order: a dispute only while it stands (`judged_against`).
JUDGED_AGAINST = {"contradiction": "a judged contradiction", "dispute": "a standing dispute", "supersession": "a judged supersession"}
# dominant_signal of the rules that name one signal (the others name their first negative signal).
DOMINANT_OF_RULE = {
    "retraction": "retraction", "centrality": "centrality", "field_percentile": "field_percentile",
    "citation_growth": "citation_trend", "recent": "recency", "cited_recently": "citations", "nothing_to_conclude": "none",
}
# Evidence a label may rest on (the `evidence` column), in the order the column lists it.
EVIDENCE = (
    "retraction", "citation_record", "kg_citations", "field_percentile", "citation_trend", "cited_recently", "recent",
    "judged_pairs", "recorded_dispute", "superseded_version",
)


def reliability(centrality: np.ndarray, recency_: np.ndarray, coherence: np.ndarray, weights: Weights, penalty: np.ndarray | float = 0.0) -> np.ndarray:
    """w1 * centrality + w2 * recency + w3 * coherence - penalty, clipped to [0, 1] and rounded to 10 decimals;
    inputs shape (n,) or scalar. penalty: the lifecycle penalty of each edge (0 for a current dataset version)."""
    score = weights.centrality * np.asarray(centrality) + weights.recency * np.asarray(recency_) + weights.coherence * np.asarray(coherence)
    return np.round(np.clip(score - np.asarray(penalty), 0.0, 1.0), RELIABILITY_DECIMALS)


def negative_signals(frame: pd.DataFrame, settings: ScoringSettings) -> dict[str, np.ndarray]:
    """{negative signal: bool array of shape (n,)} over the rows of an `EdgeSignals.frame` with coherence_status
    and dispute_status (NEGATIVE_SIGNALS, DOMAIN.md "Negative signals")."""
    thresholds, trend = settings.thresholds, frame["citation_trend"].to_numpy(dtype=float)
    status, dispute = frame["coherence_status"].to_numpy(dtype=object), frame["dispute_status"].to_numpy(dtype=object)
    old = frame["age"].to_numpy(dtype=float) >= thresholds.old_age
    bottom_half = frame["field_percentile_high"].to_numpy(dtype=float) < thresholds.peripheral_percentile
    uncited = frame["recent_citations"].to_numpy(dtype=float) == 0  # NaN (unknown) is not 0
    return {
        "retraction": frame["is_retracted"].to_numpy(dtype=bool),
        "contradiction": status == verdict_scale.CONTRADICTED,
        "dispute": np.isin(dispute, NEGATIVE_STATUSES),
        "supersession": status == verdict_scale.SUPERSEDED,
        "superseded_version": frame["superseded_as_of"].to_numpy(dtype=bool),
        "citation_decline": trend <= settings.trend_rules.decline,
        "peripheral": old & (bottom_half | uncited),
    }


def judged_against(negatives: dict[str, np.ndarray], dispute_status: np.ndarray) -> dict[str, np.ndarray]:
    """{JUDGED_AGAINST name: bool array of shape (n,)}: the negative signals (`negative_signals`) that rule 1 weighs,
    a recorded dispute only when it stands (dispute_status STANDING: a comment not answered on record up to as_of)."""
    standing = np.asarray(dispute_status, dtype=object) == STANDING
    return {name: negatives[name] & standing if name == "dispute" else negatives[name] for name in JUDGED_AGAINST}


def judged_against_names(negative_names: list[str], dispute_status: object) -> list[str]:
    """The JUDGED_AGAINST names among one edge's negative signals (`label_edges`' negative_signals), a dispute only
    when it stands: what a SUPERSEDED below the bar rests on, or what a reliability at or above the bar was despite."""
    return [name for name in JUDGED_AGAINST if name in negative_names and (name != "dispute" or dispute_status == STANDING)]


def observed_evidence(frame: pd.DataFrame) -> dict[str, np.ndarray]:
    """{evidence: bool array of shape (n,)}: the signals actually observed for each edge (EVIDENCE)."""
    return {
        "retraction": frame["is_retracted"].to_numpy(dtype=bool),
        "citation_record": frame["citation_record"].to_numpy(dtype=bool),
        "kg_citations": frame["kg_citations"].fillna(0).to_numpy(dtype=float) > 0,
        "field_percentile": frame["field_percentile_low"].notna().to_numpy(),
        "citation_trend": frame["citation_trend"].notna().to_numpy(),
        "cited_recently": frame["cited_recently"].to_numpy(dtype=bool),
        "recent": frame["recent"].to_numpy(dtype=bool),
        "judged_pairs": (frame["coherence_status"] != verdict_scale.UNVERIFIED).to_numpy(),
        "recorded_dispute": frame["dispute_status"].notna().to_numpy(),
        "superseded_version": frame["superseded_as_of"].to_numpy(dtype=bool),
    }


def label_edges(signals: EdgeSignals, *, weights: Weights | None = None, details: bool = True) -> pd.DataFrame:
    """Weigh the signals and label every edge (vectorised).

    Args:
        signals: `signals.edge_signals` of the edges (its frame needs coherence, coherence_status, dispute_status).
        weights: the weights to use instead of the settings' own (the ablation weighs one set of signals many ways).
        details: False leaves out negative_signals, evidence and dominant_signal (per-row lists: most of the cost
            at full scale), for callers that need only reliabilities and labels.

    Returns:
        a copy of `signals.frame` plus reliability, label, label_rule (which rule of the module docstring concluded
        it: retraction, judged_evidence, centrality, field_percentile, citation_growth, negative_signal, recent,
        cited_recently or nothing_to_conclude), negative_signals and evidence (lists of names, NEGATIVE_SIGNALS and
        EVIDENCE order) and dominant_signal (what drove the label: the rule's signal; for the judged-evidence rule the
        first signal it weighed (`judged_against_names`: a debated dispute beside a judged supersession names the
        supersession), for the negative-signal rule the first negative signal observed; 'none' for UNVERIFIED).
    """
    settings = signals.settings
    thresholds = settings.thresholds
    scored = signals.frame.copy()
    scored["reliability"] = reliability(
        scored["centrality"], scored["recency"], scored["coherence"], weights or settings.weights, scored["lifecycle_penalty"]
    )
    negatives = negative_signals(scored, settings)
    against = judged_against(negatives, scored["dispute_status"].to_numpy(dtype=object))
    contradicted = against["contradiction"] | against["dispute"]
    centrality = scored["centrality"].to_numpy(dtype=float)
    growing = (scored["age"].to_numpy(dtype=float) >= settings.trend_rules.growth_min_age) & (
        scored["citation_trend"].to_numpy(dtype=float) >= settings.trend_rules.growth
    )
    rules = {
        "retraction": negatives["retraction"],
        "judged_evidence": (scored["reliability"].to_numpy() < thresholds.superseded_reliability) & np.logical_or.reduce(list(against.values())),
        "centrality": ~contradicted & scored["centrality_evidence"].to_numpy(dtype=bool) & (centrality >= thresholds.foundational_centrality),
        "field_percentile": ~contradicted & (scored["field_percentile_low"].to_numpy(dtype=float) >= thresholds.foundational_percentile),
        "citation_growth": ~contradicted & growing,
        "negative_signal": np.logical_or.reduce(list(negatives.values())),
        "recent": scored["recent"].to_numpy(dtype=bool),
        "cited_recently": scored["cited_recently"].to_numpy(dtype=bool),
    }
    label_of_rule = {
        "retraction": SUPERSEDED, "judged_evidence": SUPERSEDED, "centrality": FOUNDATIONAL, "field_percentile": FOUNDATIONAL,
        "citation_growth": FOUNDATIONAL, "negative_signal": DECLINING, "recent": CURRENT, "cited_recently": CURRENT,
    }
    scored["label_rule"] = np.select(list(rules.values()), list(rules), "nothing_to_conclude").astype(object)
    scored["label"] = scored["label_rule"].map(label_of_rule).fillna(UNVERIFIED)
    if not details:
        return scored
    scored["negative_signals"] = _names(negatives)
    scored["evidence"] = _names(observed_evidence(scored))
    scored["dominant_signal"] = [
        judged_against_names(negative, status)[0] if rule == "judged_evidence"
        else (negative[0] if negative else "none") if rule == "negative_signal" else DOMINANT_OF_RULE[rule]
        for rule, negative, status in zip(scored["label_rule"], scored["negative_signals"], scored["dispute_status"])
    ]
    return scored


def _names(flags: dict[str, np.ndarray]) -> list[list[str]]:
    """Per row, the names whose flag is set, in the dict's order. The flags of a row are read as the bits of one
    integer and each combination's names are listed once: rows with the same flags share one list (read-only)."""
    if not flags:
        return []
    codes = np.zeros(len(next(iter(flags.values()))), dtype=np.int64)
    for bit, flag in enumerate(flags.values()):
        codes |= np.asarray(flag, dtype=np.int64) << bit
    names = {code: [name for bit, name in enumerate(flags) if code >> bit & 1] for code in set(codes.tolist())}
    return [names[code] for code in codes.tolist()]
