"""Score Dataset→Publication edges, exactly as DOMAIN.md ("The score") defines.

    reliability = w1 * centrality + w2 * recency + w3 * coherence      (default w = 0.4, 0.3, 0.3)

Labels, first match wins: FOUNDATIONAL (centrality >= 0.6 and coherence >= 0.65, or centrality >= 0.6
alone when coherence is UNVERIFIED), CURRENT (recency >= 0.7 and reliability >= 0.6), DECLINING
(reliability >= 0.35), SUPERSEDED (otherwise). Retraction (always SUPERSEDED) needs OpenAlex and is not
wired yet.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from datetime import date
from typing import Literal

import numpy as np
import pandas as pd

FOUNDATIONAL, CURRENT, DECLINING, SUPERSEDED = "FOUNDATIONAL", "CURRENT", "DECLINING", "SUPERSEDED"
LABELS = (FOUNDATIONAL, CURRENT, DECLINING, SUPERSEDED)
UNVERIFIED = "UNVERIFIED"
SIGNALS = ("centrality", "recency", "coherence")
Decay = Literal["none", "linear", "log"]
DECAYS: tuple[Decay, ...] = ("none", "linear", "log")
# Age at which linear recency reaches 0 and the log decay's normaliser log(1 + 20) (DOMAIN.md "recency").
DECAY_HORIZON_YEARS = 20
# OpenAlex citation count at which citation centrality saturates at 1 (DOMAIN.md "centrality").
CITATION_SATURATION = 10_000


@dataclass(frozen=True)
class Weights:
    """Weights of the three signals; each in [0, 1], summing to 1 (DOMAIN.md default 0.4 / 0.3 / 0.3).

    Raises:
        ValueError: a weight outside [0, 1], or a sum other than 1 (tolerance 1e-9).
    """

    centrality: float = 0.4
    recency: float = 0.3
    coherence: float = 0.3

    def __post_init__(self) -> None:
        values = asdict(self)
        outside = {name: value for name, value in values.items() if not 0.0 <= value <= 1.0}
        if outside:
            raise ValueError(f"weights must be in [0, 1], got {outside}")
        if not math.isclose(sum(values.values()), 1.0, abs_tol=1e-9):
            raise ValueError(f"weights must sum to 1, got {sum(values.values()):.6f} from {values}")


@dataclass(frozen=True)
class Thresholds:
    """Label thresholds (DOMAIN.md "Labels"); all in [0, 1]."""

    foundational_centrality: float = 0.6
    foundational_coherence: float = 0.65
    current_recency: float = 0.7
    current_reliability: float = 0.6
    declining_reliability: float = 0.35

    def __post_init__(self) -> None:
        outside = {name: value for name, value in asdict(self).items() if not 0.0 <= value <= 1.0}
        if outside:
            raise ValueError(f"thresholds must be in [0, 1], got {outside}")


def age_years(year: float | None, as_of: date) -> float:
    """Whole years between publication and `as_of` (never negative: in-press papers have age 0); NaN when year is unknown."""
    if year is None or pd.isna(year):
        return math.nan
    return float(max(0, as_of.year - int(year)))


def recency(age: np.ndarray | float, decay: Decay) -> np.ndarray:
    """Age decay in [0, 1] (DOMAIN.md): none -> 1; linear -> max(0, 1 - age/20); log -> max(0, 1 - log(1+age)/log(21)).

    Args:
        age: years, shape (n,) or scalar; a negative age counts as 0 (as in `age_years`). Under linear and log
            decay NaN (unknown year) gives 0, the conservative value: a paper whose age we cannot tell earns
            no recency credit (the reason says so). Under 'none' age plays no part, so every edge gets 1.
        decay: 'none', 'linear' or 'log'.

    Raises:
        ValueError: unknown decay.
    """
    age = np.maximum(np.asarray(age, dtype=float), 0.0)
    if decay == "none":
        return np.ones_like(age)
    if decay == "linear":
        values = np.maximum(0.0, 1.0 - age / DECAY_HORIZON_YEARS)
    elif decay == "log":
        values = np.maximum(0.0, 1.0 - np.log1p(age) / np.log1p(DECAY_HORIZON_YEARS))
    else:
        raise ValueError(f"decay must be one of {DECAYS}, got {decay!r}")
    return np.where(np.isnan(age), 0.0, values)


def citation_centrality(cited_by_count: np.ndarray | float) -> np.ndarray:
    """min(1, log1p(n) / log1p(10000)) for OpenAlex `cited_by_count` n (DOMAIN.md "centrality")."""
    counts = np.maximum(np.asarray(cited_by_count, dtype=float), 0.0)
    return np.minimum(1.0, np.log1p(counts) / np.log1p(CITATION_SATURATION))


def reliability(centrality: np.ndarray, recency_: np.ndarray, coherence: np.ndarray, weights: Weights) -> np.ndarray:
    """w1 * centrality + w2 * recency + w3 * coherence, clipped to [0, 1] against rounding; inputs shape (n,)."""
    score = weights.centrality * np.asarray(centrality) + weights.recency * np.asarray(recency_) + weights.coherence * np.asarray(coherence)
    return np.clip(score, 0.0, 1.0)


def label(
    centrality: float,
    recency_: float,
    coherence: float,
    reliability_: float,
    *,
    coherence_verified: bool,
    thresholds: Thresholds = Thresholds(),
) -> str:
    """The lifecycle label of one edge; first match wins (see module docstring)."""
    if centrality >= thresholds.foundational_centrality and (
        coherence >= thresholds.foundational_coherence or not coherence_verified
    ):
        return FOUNDATIONAL
    if recency_ >= thresholds.current_recency and reliability_ >= thresholds.current_reliability:
        return CURRENT
    if reliability_ >= thresholds.declining_reliability:
        return DECLINING
    return SUPERSEDED


def dominant_signal(contributions: dict[str, float], shortfalls: dict[str, float], label_: str) -> str:
    """The signal that drove the label: the largest weighted contribution w*s for FOUNDATIONAL / CURRENT,
    the largest weighted shortfall w*(1-s) for DECLINING / SUPERSEDED (what pulled the edge down)."""
    pool = contributions if label_ in (FOUNDATIONAL, CURRENT) else shortfalls
    return max(SIGNALS, key=lambda name: (pool[name], -SIGNALS.index(name)))


def score_edges(
    edges: pd.DataFrame,
    *,
    as_of: date,
    weights: Weights = Weights(),
    decay: Decay = "linear",
    thresholds: Thresholds = Thresholds(),
) -> pd.DataFrame:
    """Score every edge and explain it.

    Args:
        edges: one row per Dataset→Publication edge with columns publication_year (Int64, may be NA),
            year_issue (why the year is NA, may be NA), centrality and coherence (float in [0, 1]),
            coherence_status ('UNVERIFIED' when no newer evidence was judged), citation (short
            '[Author et al., 2019]' tag), dataset_short_name, evidence (text naming the newer work that drove
            coherence, may be NA).
        as_of: the date ages are measured against.

    Returns:
        `edges` plus columns recency, reliability, label, dominant_signal, reason (same row order).
    """
    ages = np.array([age_years(year, as_of) for year in edges["publication_year"]], dtype=float)
    scored = edges.copy()
    scored["recency"] = recency(ages, decay)
    scored["reliability"] = reliability(scored["centrality"], scored["recency"], scored["coherence"], weights)
    labels, dominants, reasons = [], [], []
    for row, age in zip(scored.itertuples(index=False), ages):
        verified = row.coherence_status != UNVERIFIED
        label_ = label(
            row.centrality, row.recency, row.coherence, row.reliability,
            coherence_verified=verified, thresholds=thresholds,
        )
        values = {"centrality": row.centrality, "recency": row.recency, "coherence": row.coherence}
        contributions = {name: getattr(weights, name) * value for name, value in values.items()}
        shortfalls = {name: getattr(weights, name) * (1.0 - value) for name, value in values.items()}
        dominant = dominant_signal(contributions, shortfalls, label_)
        labels.append(label_)
        dominants.append(dominant)
        reasons.append(_reason(row, age, label_, verified, decay, as_of))
    scored["label"] = labels
    scored["dominant_signal"] = dominants
    scored["reason"] = reasons
    return scored


def _reason(row, age: float, label_: str, verified: bool, decay: Decay, as_of: date) -> str:
    """'[Smith et al., 2019] reliability 0.29 SUPERSEDED: centrality 0.12 (low); ...' - every signal, with its evidence."""
    head = f"{row.citation} reliability {row.reliability:.2f} {label_}"
    parts = [f"centrality {row.centrality:.2f} ({_level(row.centrality)})"]
    if math.isnan(age):
        parts.append(f"publication year unknown ({row.year_issue}): recency {row.recency:.2f} ({decay} decay)")
    else:
        parts.append(f"age {age:.0f} y as of {as_of.isoformat()}: recency {row.recency:.2f} ({decay} decay)")
    if verified:
        evidence = f" {row.evidence}" if isinstance(row.evidence, str) and row.evidence else ""
        parts.append(f"coherence {row.coherence:.2f} {row.coherence_status}{evidence}")
    else:
        parts.append(
            f"coherence UNVERIFIED (neutral {row.coherence:.2f}): no newer publication using "
            f"{row.dataset_short_name} in {as_of.year - 3}-{as_of.year} judged"
        )
    if label_ == FOUNDATIONAL and not verified:
        parts.append("FOUNDATIONAL on centrality alone: no newer evidence was judged")
    return f"{head}: " + "; ".join(parts)


def _level(value: float) -> str:
    return "high" if value >= 0.6 else "low" if value < 0.3 else "moderate"
