"""Score Dataset→Publication edges, exactly as DOMAIN.md ("The score") defines.

    reliability = w1 * centrality + w2 * recency + w3 * coherence      (default w = 0.4, 0.3, 0.3)

Labels, first match wins: FOUNDATIONAL (centrality >= 0.6 and coherence >= 0.65, or centrality >= 0.6
alone when coherence is UNVERIFIED), CURRENT (recency >= 0.7 and reliability >= 0.6), DECLINING
(reliability >= 0.35), SUPERSEDED (otherwise).

OpenAlex and Crossref add three signals (`score_edges`):
- centrality combines the PageRank centrality with citation centrality min(1, log1p(n)/log1p(10000))
  by a `CentralityRule` (default max);
- a retracted publication (OpenAlex `is_retracted` or a Crossref retraction notice; a notice itself is never
  retracted) is SUPERSEDED whatever its score (DOMAIN.md "Labels");
- the citation trend (`enrichment.openalex_records.citation_trend`) moves labels by `TrendRules`: a steep
  decline turns CURRENT into DECLINING; an old paper whose citations grow is FOUNDATIONAL at a lower
  centrality bar (the method's open question: "old but growing citations should override age").
OpenAlex `publication_year` stands in for a missing KG year, and the reason says so.

Dataset lifecycle (`lifecycle.lineage`): an edge to a superseded dataset version loses `lifecycle_penalty`
(default 0.15) from its weighted reliability, and its reason names the successor and since when ("uses
AIRS2RET V006; superseded by V7.0 since 2019-11-27"). The label rules are unchanged, so a FOUNDATIONAL
paper stays FOUNDATIONAL; the penalty moves ordinary edges towards DECLINING and SUPERSEDED. 0.15 is this
project's choice (half of a signal weight at the default 0.3): enough to keep a fresh paper on a replaced
version out of CURRENT (0.6 needs 0.75 before the penalty), not enough on its own to make a sound paper SUPERSEDED.

`score_edges` is two halves: `edge_signals` (centrality, recency, retraction, lifecycle penalty: what the weights,
thresholds and trend rules do not change, with all the per-edge Python work) and `label_edges` (reliability and
label, vectorised), so that the ablation weighs one set of signals under every weight triple.
"""

from __future__ import annotations

import json
import math
import numbers
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, fields
from datetime import date
from typing import Literal

import numpy as np
import pandas as pd

from recon_assets.lifecycle.cmr import RETIRED_PROGRESS

FOUNDATIONAL, CURRENT, DECLINING, SUPERSEDED = "FOUNDATIONAL", "CURRENT", "DECLINING", "SUPERSEDED"
LABELS = (FOUNDATIONAL, CURRENT, DECLINING, SUPERSEDED)
UNVERIFIED = "UNVERIFIED"
SIGNALS = ("centrality", "recency", "coherence")
# dominant_signal values when a rule, not the weighted signals, set the label.
RETRACTION, CITATION_TREND = "retraction", "citation_trend"
# dominant_signal when the lifecycle penalty was the largest shortfall.
LIFECYCLE = "lifecycle"
DEFAULT_LIFECYCLE_PENALTY = 0.15
CentralityRule = Literal["max", "mean", "pagerank", "citations"]
CENTRALITY_RULES: tuple[CentralityRule, ...] = ("max", "mean", "pagerank", "citations")
Decay = Literal["none", "linear", "log"]
DECAYS: tuple[Decay, ...] = ("none", "linear", "log")
# Decimals reliability is rounded to: summation noise (0.3999999999999999) must not decide a threshold.
RELIABILITY_DECIMALS = 10
# Age at which linear recency reaches 0 and the log decay's normaliser log(1 + 20) (DOMAIN.md "recency").
DECAY_HORIZON_YEARS = 20
# OpenAlex citation count at which citation centrality saturates at 1 (DOMAIN.md "centrality").
CITATION_SATURATION = 10_000


def is_number(value: object) -> bool:
    """A finite real number (Python or numpy int or float), not a bool (True would pass as 1), text, NaN, an
    infinity or an int too large for a float."""
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def _outside_unit_interval(values: dict[str, object]) -> dict[str, object]:
    """{name: value} of the values that are not numbers in [0, 1]."""
    return {name: value for name, value in values.items() if not (is_number(value) and 0.0 <= value <= 1.0)}


@dataclass(frozen=True)
class Weights:
    """Weights of the three signals; each in [0, 1], summing to 1 (DOMAIN.md default 0.4 / 0.3 / 0.3).

    Raises:
        ValueError: a weight that is not a number in [0, 1] (a bool is not one), or a sum other than 1
            (tolerance 1e-9).
    """

    centrality: float = 0.4
    recency: float = 0.3
    coherence: float = 0.3

    def __post_init__(self) -> None:
        values = asdict(self)
        outside = _outside_unit_interval(values)
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
        outside = _outside_unit_interval(asdict(self))
        if outside:
            raise ValueError(f"thresholds must be in [0, 1], got {outside}")


@dataclass(frozen=True)
class TrendRules:
    """How the citation trend (in [-1, 1], see `citation_trend`) moves a label.

    decline: a CURRENT edge whose trend is at or below this becomes DECLINING (-0.5: the yearly citation
        rate at most halved over three years).
    growth, growth_min_age: a publication at least `growth_min_age` years old whose trend is at or above
        `growth` (+0.25: the rate up by a third or more) is an old paper still gaining citations...
    growth_foundational_centrality: ...and is FOUNDATIONAL from this centrality on (instead of the usual
        foundational_centrality), with the usual coherence condition.
    The values are this project's choice, not DOMAIN.md's; all are run config of edge_reliability.
    """

    decline: float = -0.5
    growth: float = 0.25
    growth_min_age: int = 10
    growth_foundational_centrality: float = 0.4

    def __post_init__(self) -> None:
        if not (all(is_number(value) for value in asdict(self).values()) and -1.0 <= self.decline <= 0.0
                and 0.0 <= self.growth <= 1.0 and self.growth_min_age >= 0 and 0.0 <= self.growth_foundational_centrality <= 1.0):
            raise ValueError(f"trend rules out of range (decline in [-1, 0], growth and centrality in [0, 1], age >= 0): {self}")


@dataclass(frozen=True)
class ScoringSettings:
    """The `score_edges` settings an edge was scored with, and their JSON codec (edge_reliability.weights).

    The field names are `score_edges`' keyword arguments (`score_kwargs`). The JSON keeps the weights at its
    top level (centrality, recency, coherence) beside decay, centrality_rule and lifecycle_penalty, and the
    thresholds and trend rules as objects of their fields. Rows written before a key existed lack it: reading
    gives that field its default.
    """

    weights: Weights = Weights()
    decay: Decay = "linear"
    centrality_rule: CentralityRule = "max"
    lifecycle_penalty: float = DEFAULT_LIFECYCLE_PENALTY
    thresholds: Thresholds = Thresholds()
    trend_rules: TrendRules = TrendRules()

    def __post_init__(self) -> None:
        penalty = self.lifecycle_penalty
        if self.decay not in DECAYS or self.centrality_rule not in CENTRALITY_RULES or not (is_number(penalty) and 0.0 <= penalty <= 1.0):
            raise ValueError(
                f"decay must be one of {DECAYS}, centrality_rule one of {CENTRALITY_RULES} and lifecycle_penalty a number "
                f"in [0, 1], got {self.decay!r}, {self.centrality_rule!r} and {penalty!r}"
            )

    def to_json(self) -> str:
        return json.dumps({
            **asdict(self.weights), "decay": self.decay, "centrality_rule": self.centrality_rule,
            "lifecycle_penalty": self.lifecycle_penalty, "thresholds": asdict(self.thresholds),
            "trend_rules": asdict(self.trend_rules),
        })

    @classmethod
    def from_json(cls, text: str) -> ScoringSettings:
        """The settings of a `to_json` text; a key it lacks takes the default.

        Raises:
            ValueError: invalid JSON, or a stored value out of range (the dataclasses' own checks).
        """
        return cls(**cls.stored_fields(text))

    @staticmethod
    def stored_fields(text: str) -> dict[str, object]:
        """{field name: value} of the fields a `to_json` text holds (older rows lack some), each checked as
        `ScoringSettings` checks it. Raises ValueError as `from_json`, also for text that is not a JSON object or
        holds a setting of the wrong shape."""
        stored = json.loads(text)
        if not isinstance(stored, dict):
            raise ValueError(f"scoring settings must be a JSON object, got {text!r}")
        found: dict[str, object] = {name: stored[name] for name in ("decay", "centrality_rule", "lifecycle_penalty") if name in stored}
        try:
            if any(name in stored for name in SIGNALS):
                found["weights"] = Weights(**{name: stored[name] for name in SIGNALS if name in stored})
            for name, rules in (("thresholds", Thresholds), ("trend_rules", TrendRules)):
                if name in stored:
                    found[name] = rules(**stored[name])
            ScoringSettings(**found)
        except TypeError as error:
            raise ValueError(f"scoring settings {text!r} hold a value of the wrong shape: {error}") from error
        return found

    def score_kwargs(self) -> dict[str, object]:
        """The settings as `score_edges` keyword arguments."""
        return {field.name: getattr(self, field.name) for field in fields(self)}


def age_years(year: object, as_of: date) -> float | np.ndarray:
    """Whole years between publication and `as_of` (never negative: in-press papers have age 0); NaN when the year
    is unknown (None, NA, NaN). `year` is a scalar (a float is returned) or array-like of shape (n,) (an array)."""
    years = pd.array(np.atleast_1d(np.asarray(year, dtype=object)), dtype="Float64").to_numpy(dtype=float, na_value=np.nan)
    ages = np.maximum(0.0, as_of.year - np.floor(years))
    return ages if np.ndim(year) else float(ages[0])


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


def combine_centrality(
    pagerank: np.ndarray, citations: np.ndarray, rule: CentralityRule
) -> tuple[np.ndarray, np.ndarray]:
    """Centrality from the PageRank centrality and citation centrality (NaN: no OpenAlex citation count).

    Rules: 'max' (default: either evidence of being central suffices; a paper cited 10,000 times is central
    even when the KG sample links it to little), 'mean' (both count equally), 'pagerank' or 'citations'
    (one alone). Where citations are NaN every rule falls back to PageRank.

    Returns:
        (centrality, source) arrays of shape (n,); source is 'pagerank', 'citations' or 'mean', the input
        that set the value ('max' picks PageRank on a tie).

    Raises:
        ValueError: unknown rule.
    """
    if rule not in CENTRALITY_RULES:
        raise ValueError(f"centrality rule must be one of {CENTRALITY_RULES}, got {rule!r}")
    pagerank, citations = np.asarray(pagerank, dtype=float), np.asarray(citations, dtype=float)
    known = ~np.isnan(citations)
    if rule == "mean":
        return np.where(known, (pagerank + np.where(known, citations, 0.0)) / 2, pagerank), np.where(known, "mean", "pagerank").astype(object)
    by_citations = known & {"max": citations > pagerank, "citations": True, "pagerank": False}[rule]
    return np.where(by_citations, citations, pagerank), np.where(by_citations, "citations", "pagerank").astype(object)


def label_bars(thresholds: Thresholds) -> tuple[float, float]:
    """The reliabilities at which a label changes (CURRENT from current_reliability, DECLINING below
    declining_reliability): what a shown reliability must never appear to reach when it does not."""
    return thresholds.current_reliability, thresholds.declining_reliability


def reliability_text(reliability: float, bars: Iterable[float]) -> str:
    """`reliability` with two decimals; cut (not rounded) to three when two would round it up onto a bar of
    `bars` that it is below: 0.3995 beside a 0.40 bar shows as "0.399", never as "0.40"."""
    two = f"{reliability:.2f}"
    value = round(reliability, RELIABILITY_DECIMALS)  # summation noise must not put it below a bar it is on
    if any(float(two) >= bar > value for bar in bars):
        return f"{math.floor(value * 1000) / 1000:.3f}"
    return two


def superseded_before(since: object, as_of: date) -> bool:
    """Whether a dataset superseded `since` ('YYYY-MM-DD' or 'YYYY' text; None/NA: unknown) was already
    superseded on `as_of`. An unknown date counts as superseded: the successor exists, only its date is missing.

    Raises:
        ValueError: `since` is text in neither form.
    """
    if not isinstance(since, str):
        return True
    if len(since) == 4 and since.isdigit():
        return int(since) <= as_of.year
    return date.fromisoformat(since) <= as_of


def retraction(openalex_retracted: bool, crossref_notices: Sequence[str], is_notice: bool) -> str | None:
    """Why the publication counts as retracted ('OpenAlex is_retracted', 'Crossref notice <doi>', or both
    joined by '; '), or None. A retraction notice is never a retracted finding, whatever the flags say."""
    if is_notice:
        return None
    sources = (["OpenAlex is_retracted"] if openalex_retracted else []) + [f"Crossref notice {doi}" for doi in crossref_notices]
    return "; ".join(sources) or None


def reliability(
    centrality: np.ndarray, recency_: np.ndarray, coherence: np.ndarray, weights: Weights, penalty: np.ndarray | float = 0.0
) -> np.ndarray:
    """w1 * centrality + w2 * recency + w3 * coherence - penalty, clipped to [0, 1] and rounded to 10 decimals;
    inputs shape (n,) or scalar.

    penalty: the lifecycle penalty of each edge (0 for a current dataset version; module docstring).
    The rounding keeps summation noise (0.3999999999999999) from falling below a threshold the exact sum meets.
    """
    score = weights.centrality * np.asarray(centrality) + weights.recency * np.asarray(recency_) + weights.coherence * np.asarray(coherence)
    return np.round(np.clip(score - np.asarray(penalty), 0.0, 1.0), RELIABILITY_DECIMALS)


def _coherent_enough(coherence: np.ndarray, coherence_verified: np.ndarray, thresholds: Thresholds) -> np.ndarray:
    """The FOUNDATIONAL coherence condition: coherence at the bar, or coherence UNVERIFIED (no evidence against)."""
    return (coherence >= thresholds.foundational_coherence) | ~np.asarray(coherence_verified, dtype=bool)


def labels(
    centrality: np.ndarray,
    recency_: np.ndarray,
    coherence: np.ndarray,
    reliability_: np.ndarray,
    *,
    coherence_verified: np.ndarray,
    thresholds: Thresholds = Thresholds(),
) -> np.ndarray:
    """The lifecycle label of each edge; first match wins (see module docstring). Inputs shape (n,) or scalars;
    returns an object array of label strings of the broadcast shape."""
    centrality, recency_, coherence, reliability_ = (np.asarray(x, dtype=float) for x in (centrality, recency_, coherence, reliability_))
    coherent = _coherent_enough(coherence, coherence_verified, thresholds)
    return np.select(
        [
            (centrality >= thresholds.foundational_centrality) & coherent,
            (recency_ >= thresholds.current_recency) & (reliability_ >= thresholds.current_reliability),
            reliability_ >= thresholds.declining_reliability,
        ],
        [FOUNDATIONAL, CURRENT, DECLINING],
        SUPERSEDED,
    ).astype(object)


def dominant_signal(contributions: dict[str, float], shortfalls: dict[str, float], label_: str) -> str:
    """The signal that drove the label: the largest weighted contribution w*s for FOUNDATIONAL / CURRENT,
    the largest weighted shortfall w*(1-s) for DECLINING / SUPERSEDED (what pulled the edge down; `shortfalls`
    may also hold LIFECYCLE, the penalty). Ties go to the first of SIGNALS, then LIFECYCLE."""
    pool = contributions if label_ in (FOUNDATIONAL, CURRENT) else shortfalls
    order = [*SIGNALS, LIFECYCLE]
    return max(pool, key=lambda name: (pool[name], -order.index(name)))


def trend_labels(
    labels_: np.ndarray,
    *,
    trend: np.ndarray,
    age: np.ndarray,
    centrality: np.ndarray,
    coherence: np.ndarray,
    coherence_verified: np.ndarray,
    thresholds: Thresholds = Thresholds(),
    rules: TrendRules = TrendRules(),
) -> np.ndarray:
    """The labels after the citation-trend rules of `TrendRules`, elementwise (NaN trend or age: label unchanged).
    Inputs shape (n,) or scalars; returns an object array of label strings."""
    labels_ = np.asarray(labels_, dtype=object)
    trend, age, centrality, coherence = (np.asarray(x, dtype=float) for x in (trend, age, centrality, coherence))
    # Comparisons with NaN are False, so a NaN trend or age never moves a label.
    growing_old = (age >= rules.growth_min_age) & (trend >= rules.growth)
    coherent = _coherent_enough(coherence, coherence_verified, thresholds)
    to_foundational = (labels_ != FOUNDATIONAL) & growing_old & coherent & (centrality >= rules.growth_foundational_centrality)
    to_declining = ~to_foundational & (labels_ == CURRENT) & (trend <= rules.decline)
    return np.where(to_foundational, FOUNDATIONAL, np.where(to_declining, DECLINING, labels_)).astype(object)


def score_edges(
    edges: pd.DataFrame,
    *,
    as_of: date,
    weights: Weights = Weights(),
    decay: Decay = "linear",
    thresholds: Thresholds = Thresholds(),
    centrality_rule: CentralityRule = "max",
    trend_rules: TrendRules = TrendRules(),
    lifecycle_penalty: float = DEFAULT_LIFECYCLE_PENALTY,
    explain: bool = True,
) -> pd.DataFrame:
    """Score every edge and explain it: `edge_signals`, then `label_edges`.

    Args:
        edges: one row per Dataset→Publication edge with columns
            kg_year (Int64, may be NA) and year_issue (why it is NA), pagerank_centrality (PageRank
            on its log scale in [0, 1]), coherence (in [0, 1]) and coherence_status ('UNVERIFIED' when no newer
            evidence was judged), citation ('[Author et al., 2019]'), dataset_id, dataset_short_name and dataset_doi
            (NA allowed), evidence (text naming
            the newer work that drove coherence, may be NA), and from OpenAlex / Crossref (NA when not known):
            openalex_status (found / not_found / error, NA without a DOI), openalex_error, cited_by_count,
            openalex_year, citation_trend, openalex_retracted (bool), retraction_notice (bool: the
            publication is itself a retraction notice), crossref_notice_dois (list of DOIs; NA when Crossref was
            not checked, and the reason says so), and from dataset_lineage: dataset_superseded (bool),
            dataset_version, successor_version (text naming the successor, e.g. 'V7.0' or 'M2T1NXSLV V5.12.4'),
            superseded_since (text, NA when unknown) and dataset_collection_progress (CMR, NA when unknown).
        as_of: the date ages are measured against.
        lifecycle_penalty: subtracted from the reliability of an edge to a superseded dataset version, in [0, 1].
        explain: False leaves out dominant_signal and reason (their per-edge loop is most of the cost), for
            callers that need only reliabilities and labels, e.g. the weight ablation.

    Returns:
        `edges` plus publication_year (KG year, else OpenAlex's), year_source ('kg', 'openalex' or NA),
        citation_centrality, centrality, centrality_source, is_retracted, retraction_source, recency,
        lifecycle_penalty, reliability, label, and with `explain` dominant_signal and reason (same row order).

    Raises:
        ValueError: lifecycle_penalty outside [0, 1].
    """
    signals = edge_signals(edges, as_of=as_of, decay=decay, centrality_rule=centrality_rule, lifecycle_penalty=lifecycle_penalty)
    return label_edges(signals, weights=weights, thresholds=thresholds, trend_rules=trend_rules, explain=explain)


@dataclass(frozen=True)
class EdgeSignals:
    """Every edge's signals under one as_of, decay, centrality rule and lifecycle penalty (`edge_signals`):
    all that `label_edges` needs, whatever the weights, thresholds and trend rules. `frame` keeps the row
    order of the edges; `ages` are their publication ages in years (NaN when the year is unknown)."""

    frame: pd.DataFrame
    ages: np.ndarray
    as_of: date
    decay: Decay
    centrality_rule: CentralityRule


def edge_signals(
    edges: pd.DataFrame,
    *,
    as_of: date,
    decay: Decay = "linear",
    centrality_rule: CentralityRule = "max",
    lifecycle_penalty: float = DEFAULT_LIFECYCLE_PENALTY,
) -> EdgeSignals:
    """The part of `score_edges` that weights, thresholds and trend rules do not change, with its per-edge
    Python work (retractions, lifecycle dates): computed once, it serves every weight triple of the ablation.

    Args:
        edges: as `score_edges`.

    Returns:
        EdgeSignals whose frame is `edges` plus publication_year, year_source, citation_centrality, centrality,
        centrality_source, is_retracted, retraction_source, recency and lifecycle_penalty.

    Raises:
        ValueError: lifecycle_penalty outside [0, 1].
    """
    if not 0.0 <= lifecycle_penalty <= 1.0:
        raise ValueError(f"lifecycle_penalty must be in [0, 1], got {lifecycle_penalty}")
    scored = edges.copy()
    kg_year = scored["kg_year"].astype("Int64")
    openalex_year = scored["openalex_year"].astype("Int64")
    scored["publication_year"] = kg_year.fillna(openalex_year)
    scored["year_source"] = np.where(kg_year.notna(), "kg", np.where(openalex_year.notna(), "openalex", None))
    ages = age_years(scored["publication_year"], as_of)
    scored["citation_centrality"] = np.where(
        scored["cited_by_count"].notna(), citation_centrality(scored["cited_by_count"].astype(float).fillna(0)), np.nan
    )
    scored["centrality"], scored["centrality_source"] = combine_centrality(
        scored["pagerank_centrality"], scored["citation_centrality"], centrality_rule
    )
    # Columns as numpy object arrays: iterating pandas' Arrow-backed columns costs ~10x more at 10^5 edges.
    sources = [
        retraction(bool(flag), notices if isinstance(notices, (list, tuple, np.ndarray)) else (), bool(notice))
        for flag, notices, notice in zip(
            scored["openalex_retracted"].to_numpy(dtype=object),
            scored["crossref_notice_dois"].to_numpy(dtype=object),
            scored["retraction_notice"].to_numpy(dtype=object),
        )
    ]
    scored["is_retracted"] = [source is not None for source in sources]
    scored["retraction_source"] = sources
    scored["recency"] = recency(ages, decay)
    superseded_by_as_of = [
        bool(flag) and superseded_before(since, as_of)
        for flag, since in zip(scored["dataset_superseded"].to_numpy(dtype=object), scored["superseded_since"].to_numpy(dtype=object))
    ]
    scored["lifecycle_penalty"] = np.where(superseded_by_as_of, lifecycle_penalty, 0.0)
    return EdgeSignals(scored, np.asarray(ages, dtype=float), as_of, decay, centrality_rule)


def label_edges(
    signals: EdgeSignals,
    *,
    weights: Weights = Weights(),
    thresholds: Thresholds = Thresholds(),
    trend_rules: TrendRules = TrendRules(),
    explain: bool = True,
) -> pd.DataFrame:
    """Weigh the signals and label every edge (vectorised, apart from `explain`).

    Returns:
        a copy of `signals.frame` plus reliability and label, and with `explain` dominant_signal and reason.
    """
    scored = signals.frame.copy()
    scored["reliability"] = reliability(
        scored["centrality"], scored["recency"], scored["coherence"], weights, scored["lifecycle_penalty"]
    )
    trends = scored["citation_trend"].astype(float).to_numpy()
    verified = (scored["coherence_status"] != UNVERIFIED).to_numpy()
    base = labels(
        scored["centrality"], scored["recency"], scored["coherence"], scored["reliability"],
        coherence_verified=verified, thresholds=thresholds,
    )
    moved = trend_labels(
        base, trend=trends, age=signals.ages, centrality=scored["centrality"], coherence=scored["coherence"],
        coherence_verified=verified, thresholds=thresholds, rules=trend_rules,
    )
    scored["label"] = np.where(scored["is_retracted"], SUPERSEDED, moved)
    if explain:
        scored["dominant_signal"], scored["reason"] = _explain(
            scored, signals.ages, trends, base, moved, verified, weights, signals.decay, signals.as_of,
            signals.centrality_rule, thresholds, trend_rules,
        )
    return scored


def _explain(
    scored: pd.DataFrame, ages: np.ndarray, trends: np.ndarray, base: np.ndarray, moved: np.ndarray, verified: np.ndarray,
    weights: Weights, decay: Decay, as_of: date, centrality_rule: CentralityRule, thresholds: Thresholds, trend_rules: TrendRules,
) -> tuple[list[str], list[str]]:
    """The dominant signal and the reason of every scored edge (see `score_edges`)."""
    dominants, reasons = [], []
    for row, age, trend, base_, moved_, verified_ in zip(scored.itertuples(index=False), ages, trends, base, moved, verified):
        values = {"centrality": row.centrality, "recency": row.recency, "coherence": row.coherence}
        contributions = {name: getattr(weights, name) * value for name, value in values.items()}
        shortfalls = {name: getattr(weights, name) * (1.0 - value) for name, value in values.items()} | {
            LIFECYCLE: row.lifecycle_penalty
        }
        if row.is_retracted:
            dominant = RETRACTION
        elif moved_ != base_:
            dominant = CITATION_TREND
        else:
            dominant = dominant_signal(contributions, shortfalls, row.label)
        dominants.append(dominant)
        reasons.append(_reason(row, age, trend, base_, row.label, verified_, decay, as_of, centrality_rule, thresholds, trend_rules))
    return dominants, reasons


def _reason(
    row, age: float, trend: float, base: str, label_: str, verified: bool, decay: Decay, as_of: date,
    centrality_rule: CentralityRule, thresholds: Thresholds, rules: TrendRules,
) -> str:
    """'[Smith et al., 2019] reliability 0.29 SUPERSEDED: centrality 0.12 (low); ...' - every signal, with its evidence."""
    head = f"{row.citation} reliability {reliability_text(row.reliability, label_bars(thresholds))} {label_}"
    parts = []
    if row.is_retracted:
        parts.append(f"retracted ({row.retraction_source}): SUPERSEDED whatever the score")
    elif row.retraction_notice:
        parts.append("a retraction notice, not itself a retracted finding")
    parts.append(_centrality_reason(row, centrality_rule))
    if math.isnan(age):
        parts.append(f"publication year unknown ({row.year_issue}): recency {row.recency:.2f} ({decay} decay)")
    else:
        filled = f" (year {row.publication_year} from OpenAlex: KG year {row.year_issue})" if row.year_source == "openalex" else ""
        parts.append(f"age {age:.0f} y as of {as_of.isoformat()}{filled}: recency {row.recency:.2f} ({decay} decay)")
    if verified:
        evidence = f" {row.evidence}" if isinstance(row.evidence, str) and row.evidence else ""
        parts.append(f"coherence {row.coherence:.2f} {row.coherence_status}{evidence}")
    else:
        parts.append(
            f"coherence UNVERIFIED (neutral {row.coherence:.2f}): no newer publication using "
            f"{_dataset_name(row)}{' or its successor version' if row.dataset_superseded else ''} in the evidence window was judged"
        )
    if row.dataset_superseded:
        parts.append(_lifecycle_reason(row, as_of))
    if not math.isnan(trend):
        parts.append(f"citation trend {trend:+.2f} (yearly citations, last 3 years vs the 3 before)")
    if base == CURRENT and label_ == DECLINING:
        parts.append(f"steep citation decline (trend {trend:+.2f} <= {rules.decline:+.2f}) moves CURRENT to DECLINING")
    elif base != FOUNDATIONAL and label_ == FOUNDATIONAL:
        parts.append(
            f"old ({age:.0f} y) but citations growing (trend {trend:+.2f} >= {rules.growth:+.2f}): FOUNDATIONAL "
            f"from centrality {rules.growth_foundational_centrality:.2f}, age does not count against it"
        )
    if label_ == FOUNDATIONAL and not verified:
        parts.append("FOUNDATIONAL on centrality alone")
    if not (row.is_retracted or pd.isna(row.openalex_status) or isinstance(row.crossref_notice_dois, (list, tuple, np.ndarray))):
        parts.append("Crossref not checked for retraction notices")
    return f"{head}: " + "; ".join(parts)


def _lifecycle_reason(row, as_of: date) -> str:
    """'uses AIRS2RET V006; superseded by V7.0 since 2019-11-27 (lifecycle penalty -0.15)'."""
    name = _short_name(row)
    version = f" {row.dataset_version}" if isinstance(row.dataset_version, str) and row.dataset_version not in name else ""
    successor = f" by {row.successor_version}" if isinstance(row.successor_version, str) else ""
    since = f" since {row.superseded_since}" if isinstance(row.superseded_since, str) else " (since unknown)"
    progress = row.dataset_collection_progress
    cmr = f" (CMR CollectionProgress {progress})" if isinstance(progress, str) and progress in RETIRED_PROGRESS else ""
    if not superseded_before(row.superseded_since, as_of):
        return f"uses {name}{version}; superseded{successor} only after as_of ({row.superseded_since}): no lifecycle penalty"
    penalty = f"lifecycle penalty -{row.lifecycle_penalty:.2f}" if row.lifecycle_penalty else "lifecycle penalty off"
    return f"uses {name}{version}; superseded{successor}{since}{cmr} ({penalty})"


def _centrality_reason(row, rule: CentralityRule) -> str:
    level = f"centrality {row.centrality:.2f} ({_level(row.centrality)}"
    if math.isnan(row.citation_centrality):
        why = {"not_found": "not in OpenAlex", "error": f"OpenAlex: {row.openalex_error}"}.get(row.openalex_status, "no DOI")
        return f"{level}; PageRank centrality alone, no citation count: {why})"
    inputs = (
        f"PageRank centrality {row.pagerank_centrality:.2f}, citation centrality {row.citation_centrality:.2f} "
        f"from {int(row.cited_by_count):,} OpenAlex citations"
    )
    drove = {"citations": "citations drove it", "pagerank": "PageRank drove it", "mean": "both count"}[row.centrality_source]
    return f"{level}; {rule} of {inputs}: {drove})"


def _dataset_name(row) -> str:
    """'AST_L1T (10.5067/aster/ast_l1t.003)': the short name alone is ambiguous across dataset versions."""
    short_name = row.dataset_short_name if isinstance(row.dataset_short_name, str) else None
    doi = row.dataset_doi if isinstance(row.dataset_doi, str) else None
    if short_name and doi:
        return f"{short_name} ({doi})"
    return short_name or doi or str(row.dataset_id)


def _short_name(row) -> str:
    return row.dataset_short_name if isinstance(row.dataset_short_name, str) else _dataset_name(row)


def _level(value: float) -> str:
    return "high" if value >= 0.6 else "low" if value < 0.3 else "moderate"
