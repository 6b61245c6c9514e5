"""The measures of the evaluation, each a rate with its Wilson interval (or the ROC AUC), the cluster bootstrap over
dataset nodes, and the settings grid.

Wilson score interval: scipy.stats.binomtest(k, n).proportion_ci(method="wilson") (Wilson 1927, JASA 22:209).
ROC AUC: the Mann-Whitney U of the two groups' scores divided by n1 * n2 (Hanley & McNeil 1982, Radiology 143:29),
scipy.stats.mannwhitneyu's U taken from scipy.stats.rankdata: the probability that a sound edge scores a higher
reliability than a stale one (ties 1/2).
Cluster bootstrap: the cases of one dataset node are not independent trials (the lifecycle decides per node), so an
interval resamples whole nodes with replacement, every case of a drawn node with it, and takes the 2.5th and 97.5th
percentiles of the statistic over the resamples (Davison & Hinkley 1997, "Bootstrap Methods and their
Application", section 3.8, case resampling of clustered data; percentile interval, section 5.2). A paired difference
of two rules is taken on the same resamples.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from recon_assets.reliability.settings import DECAYS, ScoringSettings, Weights

CONFIDENCE = 0.95
GRID_STEP_TENTHS = 1  # the weight grid's step of 0.1, in tenths, so that the weights sum to exactly 1
# The cluster bootstrap: 2,000 resamples put a 95 % percentile interval's ends within about +-0.01 of their limit on
# samples of this size (Davison & Hinkley 1997, section 5.2.3: B of 1,000 or more for percentile intervals); the seed
# is fixed so a run is reproducible (the number).
RESAMPLES = 2000
SEED = 20


@dataclass(frozen=True)
class Rate:
    """numerator / denominator with its Wilson interval; `value` and the interval are NaN when the denominator is 0
    (nothing to measure), never 0 or 1.

    Raises:
        ValueError: not 0 <= numerator <= denominator.
    """

    numerator: int
    denominator: int

    def __post_init__(self) -> None:
        if not 0 <= self.numerator <= self.denominator:
            raise ValueError(f"a rate needs 0 <= numerator <= denominator, got {self.numerator}/{self.denominator}")

    @property
    def value(self) -> float:
        return self.numerator / self.denominator if self.denominator else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        """The 95 % Wilson score interval of the rate, (NaN, NaN) without cases."""
        if not self.denominator:
            return math.nan, math.nan
        return _wilson_interval(self.numerator, self.denominator)

    def __str__(self) -> str:
        if not self.denominator:
            return "n/a (0 cases)"
        low, high = self.interval
        return f"{self.value:.0%} ({self.numerator}/{self.denominator}; 95% CI {low:.0%}-{high:.0%})"


@functools.cache
def _wilson_interval(numerator: int, denominator: int) -> tuple[float, float]:
    """`Rate.interval` of numerator/denominator (denominator > 0), kept per pair: the ablation asks for the same few
    hundred pairs about 26,000 times, and scipy's binomtest also runs a two-sided test whose p-value is not used
    (issue 23: about 3 CPU-s of each evaluation)."""
    from scipy.stats import binomtest  # deferred: scipy.stats takes about 1 s to import, and loading the definitions needs none of it

    interval = binomtest(numerator, denominator).proportion_ci(confidence_level=CONFIDENCE, method="wilson")
    return float(interval.low), float(interval.high)


def roc_auc(sound: np.ndarray, stale: np.ndarray) -> float:
    """P(a sound edge's reliability > a stale edge's), ties counting half; NaN when either group is empty.

    Args:
        sound, stale: reliabilities, shapes (n,) and (m,).
    """
    sound, stale = np.asarray(sound, dtype=float), np.asarray(stale, dtype=float)
    if not (len(sound) and len(stale)):
        return math.nan
    if np.isnan(sound).any() or np.isnan(stale).any():
        return math.nan  # as mannwhitneyu's statistic (nan_policy "propagate")
    from scipy.stats import rankdata  # deferred, as in Rate.interval

    # mannwhitneyu's U1 (R1 - n1 (n1 + 1) / 2 over the average ranks, its "method 2") without its p-value, which the
    # ablation's 2,424 calls did not use (issue 23); ranks are halves, so the sum is exact and U the same float.
    ranks = rankdata(np.concatenate([sound, stale]), method="average")
    u = ranks[: len(sound)].sum() - len(sound) * (len(sound) + 1) / 2
    return float(u / (len(sound) * len(stale)))


def cluster_draws(clusters: np.ndarray, *, resamples: int = RESAMPLES, seed: int = SEED) -> ClusterResamples:
    """The cluster bootstrap's draws, kept per cluster: each resample draws as many clusters as there are, uniformly
    with replacement (one multinomial draw per resample from `np.random.default_rng(seed)`).

    Args:
        clusters: the cluster (dataset node) of each unit, shape (n,); any hashable values, NA not allowed.

    Raises:
        ValueError: a cluster is NA.
    """
    codes, uniques = pd.factorize(pd.Series(clusters, dtype=object), use_na_sentinel=True)
    if (codes < 0).any():
        raise ValueError("every unit needs a cluster (dataset node); got NA")
    if not len(uniques):
        return ClusterResamples(np.zeros((resamples, 0), dtype=int), codes)
    return ClusterResamples(_multinomial_draws(len(uniques), resamples, seed), codes)


@functools.lru_cache(maxsize=8)
def _multinomial_draws(clusters: int, resamples: int, seed: int) -> np.ndarray:
    """`resamples` draws of `clusters` clusters uniformly with replacement, shape (resamples, clusters), read-only. The
    draws depend on the number of clusters alone, and an evaluation resamples the same edges' nodes once per condition,
    split and case set: made once (issue 23: 2000 x 6,000 multinomial draws each time were half its resampling time)."""
    drawn = np.random.default_rng(seed).multinomial(clusters, np.full(clusters, 1 / clusters), size=resamples)
    drawn.setflags(write=False)
    return drawn


def cluster_weights(clusters: np.ndarray, *, resamples: int = RESAMPLES, seed: int = SEED) -> np.ndarray:
    """How often each unit is drawn in each resample of whole clusters: shape (resamples, n) of ints; a unit counts as
    often as its cluster was drawn (`cluster_draws` spread over the units).

    Args:
        clusters: the cluster (dataset node) of each unit, shape (n,); any hashable values, NA not allowed.

    Raises:
        ValueError: a cluster is NA.
    """
    return cluster_draws(clusters, resamples=resamples, seed=seed).weights()


@dataclass(frozen=True)
class ClusterResamples:
    """The resamples of a cluster bootstrap, per cluster: `drawn` (resamples, k) ints, how often each of the k
    clusters was drawn; `codes` (n,) each unit's cluster (0..k-1).

    `rates` and `roc_auc` equal `weighted_rates` and `weighted_roc_auc` over `weights()` to the last digit, at a
    fraction of the cost (issue 23, suite time): a unit's weight is its cluster's draw count, so the units are summed
    per cluster first and each resample multiplies k numbers, not n. Every sum is of integers (rates) or of halves
    (ROC AUC) far below 2**52, exact in float64 in any order, so the quotients are the same floats.
    """

    drawn: np.ndarray
    codes: np.ndarray

    @functools.cached_property
    def _drawn(self) -> np.ndarray:
        """`drawn` as floats, converted once (a matrix product with an int matrix converts it on every call)."""
        return self.drawn.astype(float)

    def weights(self) -> np.ndarray:
        """Each unit's draw count per resample: shape (resamples, n) of ints."""
        return self.drawn[:, self.codes]

    def _per_cluster(self, mask: np.ndarray) -> np.ndarray:
        """How many units of each cluster `mask` (bool, shape (n,)) holds: shape (k,) floats."""
        return np.bincount(self.codes, weights=np.asarray(mask, dtype=float), minlength=self.drawn.shape[1])

    def rates(self, in_set: np.ndarray, hit: np.ndarray) -> np.ndarray:
        """`weighted_rates(self.weights(), in_set, hit)`: shape (resamples,), NaN where a resample holds no unit of
        the set.

        Args:
            in_set, hit: bool, shape (n,).
        """
        in_set = np.asarray(in_set, dtype=bool)
        counted = self._drawn @ self._per_cluster(in_set)
        hits = self._drawn @ self._per_cluster(in_set & np.asarray(hit, dtype=bool))
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(counted > 0, hits / counted, np.nan)

    def roc_auc(self, scores: np.ndarray, sound: np.ndarray, stale: np.ndarray) -> np.ndarray:
        """`weighted_roc_auc(self.weights(), scores, sound, stale)`: shape (resamples,), NaN where a resample lacks
        either group. The pairs' 1, 1/2, 0 are summed per (sound unit's cluster, stale unit's cluster), then weighted
        by both clusters' draw counts.

        Args:
            scores: (n,) floats. sound, stale: bool masks, shape (n,).
        """
        scores = np.asarray(scores, dtype=float)
        sound, stale = np.asarray(sound, dtype=bool), np.asarray(stale, dtype=bool)
        a, b = scores[sound], scores[stale]
        above = (a[:, None] > b[None, :]) + 0.5 * (a[:, None] == b[None, :])
        k = self.drawn.shape[1]
        by_cluster = np.zeros((k, len(b)))
        np.add.at(by_cluster, self.codes[sound], above)
        pairs_by_cluster = np.zeros((k, k))
        np.add.at(pairs_by_cluster.T, self.codes[stale], by_cluster.T)
        numerator = ((self._drawn @ pairs_by_cluster) * self._drawn).sum(axis=1)
        pairs = (self._drawn @ self._per_cluster(sound)) * (self._drawn @ self._per_cluster(stale))
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(pairs > 0, numerator / pairs, np.nan)

    def node_rate(self, in_set: np.ndarray, hit: np.ndarray) -> Rate:
        """`node_rate(clusters, in_set, hit)` over the clusters these draws were made from, counted per cluster
        (more than half of a node's units in the set are hits: 2 * hits > units, exact in integers).

        Args:
            in_set, hit: bool, shape (n,).
        """
        in_set = np.asarray(in_set, dtype=bool)
        units = self._per_cluster(in_set)
        hits = self._per_cluster(in_set & np.asarray(hit, dtype=bool))
        return Rate(int((2 * hits > units).sum()), int((units > 0).sum()))


def weighted_rates(weights: np.ndarray, in_set: np.ndarray, hit: np.ndarray) -> np.ndarray:
    """Per resample, the rate of `hit` among the units `in_set`: shape (resamples,), NaN where a resample holds no
    unit of the set.

    Args:
        weights: (resamples, n) from `cluster_weights`. in_set, hit: bool, shape (n,).
    """
    in_set = np.asarray(in_set, dtype=bool)
    counted = weights @ in_set.astype(float)
    hits = weights @ (in_set & np.asarray(hit, dtype=bool)).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(counted > 0, hits / counted, np.nan)


def weighted_roc_auc(weights: np.ndarray, scores: np.ndarray, sound: np.ndarray, stale: np.ndarray) -> np.ndarray:
    """Per resample, `roc_auc` of the `sound` units' scores against the `stale` units', each unit counted as often as
    it was drawn: sum_ij w_i w_j [s_i > t_j] (ties 1/2) / (sum_i w_i * sum_j w_j); shape (resamples,), NaN where a
    resample lacks either group. With every weight 1 it equals `roc_auc`.

    Args:
        weights: (resamples, n). scores: (n,) floats. sound, stale: bool masks, shape (n,).
    """
    scores = np.asarray(scores, dtype=float)
    sound, stale = np.asarray(sound, dtype=bool), np.asarray(stale, dtype=bool)
    a, b = scores[sound], scores[stale]
    above = (a[:, None] > b[None, :]) + 0.5 * (a[:, None] == b[None, :])
    ws, wt = weights[:, sound].astype(float), weights[:, stale].astype(float)
    pairs = ws.sum(axis=1) * wt.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(pairs > 0, np.einsum("ri,ij,rj->r", ws, above, wt) / pairs, np.nan)


def percentile_interval(values: np.ndarray) -> tuple[float, float]:
    """The central 95 % of the resampled `values` (NaNs, resamples without the measure, left out); (NaN, NaN) when
    none is a number."""
    values = np.asarray(values, dtype=float)
    values = values[~np.isnan(values)]
    if not len(values):
        return math.nan, math.nan
    low, high = np.percentile(values, [100 * (1 - CONFIDENCE) / 2, 100 * (1 + CONFIDENCE) / 2])
    return float(low), float(high)


def node_rate(clusters: np.ndarray, in_set: np.ndarray, hit: np.ndarray) -> Rate:
    """The rate counted per dataset node: of the nodes with a unit in the set, those where more than half of their
    units in the set are hits (a tie is not a hit). The node-level reading of a per-case rate: a node whose cases all
    move together counts once.

    Args:
        clusters: each unit's node, shape (n,). in_set, hit: bool, shape (n,).
    """
    frame = pd.DataFrame({"node": clusters, "hit": np.asarray(hit, dtype=bool)})[np.asarray(in_set, dtype=bool)]
    share = frame.groupby("node", sort=False)["hit"].mean()
    return Rate(int((share > 0.5).sum()), len(share))


def weight_grid(step_tenths: int = GRID_STEP_TENTHS) -> list[Weights]:
    """Every (w1, w2, w3) on a grid of `step_tenths`/10 with each weight in [0, 1] summing to 1 (66 triples at
    0.1), w1 descending then w2 descending; built in integer tenths so each triple sums to exactly 1.

    Raises:
        ValueError: step_tenths does not divide 10.
    """
    if step_tenths < 1 or 10 % step_tenths:
        raise ValueError(f"step_tenths must divide 10, got {step_tenths}")
    tenths = range(10, -1, -step_tenths)
    return [Weights(centrality=a / 10, recency=b / 10, coherence=(10 - a - b) / 10) for a in tenths for b in tenths if a + b <= 10]


def settings_grid(base: ScoringSettings) -> list[ScoringSettings]:
    """The ablation: `base` under every weight triple of `weight_grid` and every decay (198 settings), the other
    settings (thresholds, rules, penalty) held as in `base`."""
    return [base.model_copy(update={"weights": weights, "decay": decay}) for weights in weight_grid() for decay in DECAYS]


def measure_text(row: pd.Series) -> str:
    """A stored measure (value, numerator, denominator, ci_low, ci_high) as '92% (22/24; 95% CI 74%-98%)', the ROC AUC
    (no denominator) with two decimals, 'n/a (0 cases)' when nothing was measured, 'n/a' when there is no value."""
    if pd.isna(row["denominator"]):
        return "n/a" if pd.isna(row["value"]) else f"{row['value']:.2f}"
    if not row["denominator"]:
        return "n/a (0 cases)"
    return f"{row['value']:.0%} ({int(row['numerator'])}/{int(row['denominator'])}; 95% CI {row['ci_low']:.0%}-{row['ci_high']:.0%})"


def comparison_text(row: pd.Series) -> str:
    """A stored comparison row (reliability_evaluation_baselines) as text: the rule's figure with its counts per case
    and per node ('93% (50/54; 25/27 nodes)', an ROC AUC as '0.81'), and on a baseline's row the paired difference
    default minus the baseline with its 95 % node-resampling interval ('; default -5 pp (-12 to +2)', an ROC AUC's in
    decimals); 'n/a (0 cases)' when nothing was measured."""
    if pd.isna(row["value"]):
        return "n/a" if pd.isna(row["denominator"]) else "n/a (0 cases)"
    rate = not pd.isna(row["denominator"])
    text = (
        f"{row['value']:.0%} ({int(row['numerator'])}/{int(row['denominator'])}; {int(row['node_numerator'])}/{int(row['node_denominator'])} nodes)"
        if rate else f"{row['value']:.2f}"
    )
    if pd.isna(row["difference"]):
        return text
    scale, unit, digits = (100, " pp", 0) if rate else (1, "", 2)
    low, high = (row["difference_ci_low"] * scale, row["difference_ci_high"] * scale)
    return f"{text}; default {row['difference'] * scale:+.{digits}f}{unit} ({low:+.{digits}f} to {high:+.{digits}f})"
