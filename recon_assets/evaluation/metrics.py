"""The measures of the evaluation, each a rate with its Wilson interval (or the ROC AUC), and the settings grid.

Wilson score interval: scipy.stats.binomtest(k, n).proportion_ci(method="wilson") (Wilson 1927, JASA 22:209).
ROC AUC: the Mann-Whitney U of the two groups' scores divided by n1 * n2 (Hanley & McNeil 1982, Radiology 143:29),
scipy.stats.mannwhitneyu: the probability that a sound edge scores a higher reliability than a stale one (ties 1/2).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.stats import binomtest, mannwhitneyu

from recon_assets.reliability.settings import DECAYS, ScoringSettings, Weights

CONFIDENCE = 0.95
GRID_STEP_TENTHS = 1  # the weight grid's step of 0.1, in tenths, so that the weights sum to exactly 1


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
        interval = binomtest(self.numerator, self.denominator).proportion_ci(confidence_level=CONFIDENCE, method="wilson")
        return float(interval.low), float(interval.high)

    def __str__(self) -> str:
        if not self.denominator:
            return "n/a (0 cases)"
        low, high = self.interval
        return f"{self.value:.0%} ({self.numerator}/{self.denominator}; 95% CI {low:.0%}-{high:.0%})"


def roc_auc(sound: np.ndarray, stale: np.ndarray) -> float:
    """P(a sound edge's reliability > a stale edge's), ties counting half; NaN when either group is empty.

    Args:
        sound, stale: reliabilities, shapes (n,) and (m,).
    """
    sound, stale = np.asarray(sound, dtype=float), np.asarray(stale, dtype=float)
    if not (len(sound) and len(stale)):
        return math.nan
    return float(mannwhitneyu(sound, stale).statistic / (len(sound) * len(stale)))


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
