"""The four rates of issue 4 and the grid of settings the ablation runs.

- staleness catch rate: known-superseded edges labelled DECLINING or SUPERSEDED / known-superseded edges;
- foundational false-flag rate: known-foundational edges labelled DECLINING or SUPERSEDED / known-foundational edges;
- contradiction catch rate: known-contradicted pairs judged CONTRADICTED / known-contradicted pairs judged;
- edge reliability precision: KG edges labelled SUPERSEDED that are known-superseded / KG edges labelled
  SUPERSEDED (the worked cases are synthetic, built to be SUPERSEDED or not: they would only flatter it; they
  count in the staleness catch and foundational false-flag rates);
- beside them, the base rate of the staleness catch rate: KG edges labelled DECLINING or SUPERSEDED / KG edges
  scored (`flagged_rate` over every edge), so a catch rate is read against how often any edge is flagged.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from recon_assets.reliability.scoring import DECAYS, DECLINING, SUPERSEDED, Decay, Weights

STALE_LABELS = frozenset({DECLINING, SUPERSEDED})  # the labels that flag an edge as stale
CONTRADICTED = "CONTRADICTED"
GRID_STEP_TENTHS = 1  # the grid step of 0.1, in tenths, so that the weights sum to exactly 1
DEFAULT_SETTING = (Weights(), "linear")  # DOMAIN.md: w = 0.4, 0.3, 0.3, linear decay
# The earlier age-only method (recency alone), reproduced with the default decay.
AGE_ONLY_SETTING = (Weights(0.0, 1.0, 0.0), "linear")
# What the earlier age-only method reached on its own benchmark (DOMAIN.md, "Verdicts over an evidence set").
EARLIER_BASELINE = {"staleness_catch_rate": 0.52, "contradiction_catch_rate": 0.0}


@dataclass(frozen=True)
class Rate:
    """numerator / denominator; `value` is NaN when the denominator is 0 (no case to measure), never 0 or 1."""

    numerator: int
    denominator: int

    def __post_init__(self) -> None:
        if not 0 <= self.numerator <= self.denominator:
            raise ValueError(f"a rate needs 0 <= numerator <= denominator, got {self.numerator}/{self.denominator}")

    @property
    def value(self) -> float:
        return self.numerator / self.denominator if self.denominator else math.nan

    def __str__(self) -> str:
        return f"{self.value:.0%} ({self.numerator}/{self.denominator})" if self.denominator else "n/a (0 cases)"


def flagged_rate(labels: Iterable[str]) -> Rate:
    """Share of labels that flag the edge as stale (DECLINING or SUPERSEDED): the staleness catch rate over
    known-superseded edges, the foundational false-flag rate over known-foundational edges, the base rate over
    every KG edge."""
    # A Series is matched as it is: iterating a column of pandas' Arrow strings in Python was a fifth of the
    # ablation's time (198 settings x every KG edge).
    flagged = (labels if isinstance(labels, pd.Series) else pd.Series(list(labels), dtype=object)).isin(STALE_LABELS)
    return Rate(int(flagged.sum()), len(flagged))


def contradiction_rate(verdicts: Iterable[str]) -> Rate:
    """Share of the judged known-contradicted pairs whose verdict is CONTRADICTED."""
    verdicts = list(verdicts)
    return Rate(sum(verdict == CONTRADICTED for verdict in verdicts), len(verdicts))


def superseded_precision(labels: Iterable[str], known_superseded: Iterable[bool]) -> Rate:
    """Of all scored KG edges labelled SUPERSEDED, the share that are known-superseded.

    Args:
        labels, known_superseded: one entry per scored KG edge (no worked case), same length; an edge not labelled known-superseded
            counts against precision, so with incomplete labels the value is a lower bound.

    Raises:
        ValueError: lengths differ.
    """
    labelled = pd.Series(labels).eq(SUPERSEDED).to_numpy(dtype=bool)
    known = np.asarray(known_superseded, dtype=bool)
    if labelled.shape != known.shape:
        raise ValueError("labels and known_superseded must have the same length")
    return Rate(int((labelled & known).sum()), int(labelled.sum()))


def weight_grid(step_tenths: int = GRID_STEP_TENTHS) -> list[Weights]:
    """Every (w1, w2, w3) on a grid of `step_tenths`/10 with each weight in [0, 1] and w1 + w2 + w3 = 1
    (66 triples at the issue's 0.1 step), w1 descending then w2 descending; built in integer tenths so each
    triple sums to 1 exactly (`math.fsum` of its weights is 1.0).

    Raises:
        ValueError: step_tenths does not divide 10.
    """
    if step_tenths < 1 or 10 % step_tenths:
        raise ValueError(f"step_tenths must divide 10, got {step_tenths}")
    tenths = range(10, -1, -step_tenths)
    return [Weights(a / 10, b / 10, (10 - a - b) / 10) for a in tenths for b in tenths if a + b <= 10]


def settings_grid() -> list[tuple[Weights, Decay]]:
    """The ablation's settings: every weight triple of `weight_grid` with each decay ('none', 'linear', 'log'): 198."""
    return [(weights, decay) for weights in weight_grid() for decay in DECAYS]
