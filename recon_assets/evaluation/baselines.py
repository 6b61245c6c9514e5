"""The rules a user would otherwise apply, measured beside the score on the same cases in the same run (issue 20,
DOMAIN.md "Verdicts over an evidence set": "beside every rate stand the simple rules a user would otherwise apply").

Each rule flags an edge (the score's flag is DECLINING or SUPERSEDED) and orders edges by a score, higher meaning
more reliable, for the ROC AUC:

- lifecycle_only: flag the edge when its dataset version was superseded on or before as_of, or the publication is
  retracted; read from the same signals the score reads (`signals.edge_signals`: superseded_as_of, is_retracted).
  Order: 0 flagged, 1 not;
- age_only: the earlier age-only method's rule (DOMAIN.md: "mean age over 24 months"), applied per edge: flag a
  paper older than 2 years at as_of (`signals.age_years`, whole years). Order: minus the age (an unknown year is
  neither flagged nor aged: age 0);
- flag_everything: flag every edge. Order: one constant, so its ROC AUC is 1/2.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

LIFECYCLE_ONLY, AGE_ONLY, FLAG_EVERYTHING = "lifecycle_only", "age_only", "flag_everything"
BASELINES = {
    LIFECYCLE_ONLY: "flag a replaced dataset version (superseded on or before as_of) or a retraction",
    AGE_ONLY: "flag a paper older than 2 years at as_of (the earlier age-only method's rule, per edge)",
    FLAG_EVERYTHING: "flag every edge",
}
# The earlier method's age bar: mean age over 24 months (DOMAIN.md), applied per edge.
AGE_ONLY_YEARS = 2


def baseline_rules(signals: pd.DataFrame) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """{rule: (flagged, score)} for every rule of BASELINES over the edges of an `edge_signals` frame.

    Args:
        signals: `signals.edge_signals(...).frame` rows: superseded_as_of and is_retracted (bool), age (years,
            NaN when the year is unknown).

    Returns:
        flagged: bool, shape (n,); score: float, shape (n,), higher = more reliable, in the frame's row order.
    """
    replaced = signals["superseded_as_of"].to_numpy(dtype=bool) | signals["is_retracted"].to_numpy(dtype=bool)
    age = signals["age"].to_numpy(dtype=float)
    known_age = np.nan_to_num(age, nan=0.0)
    return {
        LIFECYCLE_ONLY: (replaced, 1.0 - replaced),
        AGE_ONLY: (known_age > AGE_ONLY_YEARS, -known_age),
        FLAG_EVERYTHING: (np.ones(len(signals), dtype=bool), np.zeros(len(signals))),
    }
