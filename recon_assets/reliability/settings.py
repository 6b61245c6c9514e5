"""The scoring settings: one pydantic model per group, stored, as its JSON, on every row `edge_reliability` scores
(`edge_reliability.scoring_settings`) and, through their `dagster.Config` twins (`reliability.run_config`), its Dagster
run config.

Plain pydantic models with no Dagster import, so the scoring functions and `recon explain`, which reads the stored
settings back, run without Dagster. Field bounds and the weights' sum are checked whenever a model is built: by
`recon run` before it launches a run, by Dagster when a step reads its config, and when a stored row is read back
(`ScoringSettings.model_validate_json`).

Defaults are DOMAIN.md's ("The score", "Labels are findings"); where DOMAIN.md leaves a number open the field's
description says whose choice it is and why.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from recon_assets.centrality.centrality_rule import CentralityRule

Decay = Literal["none", "linear", "log"]
DECAYS: tuple[Decay, ...] = ("none", "linear", "log")
UNIT = dict(ge=0.0, le=1.0)


class _FrozenModel(BaseModel):
    """Immutable, as `dagster.Config` is: a checked model is a value (hashable, never changed)."""

    model_config = ConfigDict(frozen=True)


class Weights(_FrozenModel):
    """w1, w2, w3 of reliability = w1 * centrality + w2 * recency + w3 * coherence (DOMAIN.md: 0.4, 0.3, 0.3);
    each in [0, 1], summing to 1 (tolerance 1e-9).

    Raises:
        pydantic.ValidationError: a weight outside [0, 1] or not a number, or a sum other than 1.
    """

    centrality: float = Field(default=0.4, **UNIT, description="w1: weight of centrality.")
    recency: float = Field(default=0.3, **UNIT, description="w2: weight of recency.")
    coherence: float = Field(default=0.3, **UNIT, description="w3: weight of coherence.")

    @model_validator(mode="after")
    def _sum_to_one(self) -> Weights:
        total = self.centrality + self.recency + self.coherence
        if not math.isclose(total, 1.0, abs_tol=1e-9):
            raise ValueError(f"weights must sum to 1, got {total:.6f} (centrality {self.centrality}, recency "
                             f"{self.recency}, coherence {self.coherence})")
        return self


class LabelThresholds(_FrozenModel):
    """The bars of DOMAIN.md's label rules ("Labels are findings"; first match wins)."""

    superseded_reliability: float = Field(
        default=0.35, **UNIT,
        description="SUPERSEDED below this reliability when a judged contradiction, judged supersession or standing "
        "dispute is observed (DOMAIN.md rule 1, worked case 2).",
    )
    foundational_centrality: float = Field(
        default=0.6, **UNIT, description="FOUNDATIONAL from this centrality, when centrality has evidence (DOMAIN.md rule 2).",
    )
    foundational_percentile: float = Field(
        default=0.99, **UNIT,
        description="FOUNDATIONAL from this OpenAlex field-and-year citation percentile (citation_normalized_percentile): "
        "0.99 is OpenAlex's own top-1% mark (is_in_top_1_percent). This project's choice: DOMAIN.md makes the "
        "percentile evidence for the gate without a number.",
    )
    current_recency: float = Field(default=0.7, **UNIT, description="A publication is recent from this recency (DOMAIN.md rule 4).")
    recent_citation_years: int = Field(
        default=3, ge=1, le=10,
        description="'Cited in the last 3 years before as_of' (DOMAIN.md rules 3 and 4): years of citations that count as recent.",
    )
    old_age: int = Field(
        default=10, ge=0, le=200,
        description="Age (years) from which a measurably peripheral paper is a negative signal (DOMAIN.md: >= 10 years).",
    )
    peripheral_percentile: float = Field(
        default=0.5, **UNIT,
        description="Below this field-and-year citation percentile an old paper is measurably peripheral (DOMAIN.md: "
        "the bottom half).",
    )


class TrendRules(_FrozenModel):
    """How the citation trend (in [-1, 1]: yearly citations of the last 3 complete years against the 3 before,
    `reliability.citations.citation_trend`) enters the labels (DOMAIN.md "Labels are findings")."""

    decline: float = Field(
        default=-0.5, ge=-1.0, le=0.0,
        description="A trend at or below this is a steep citation decline, a negative signal (DOMAIN.md: <= -0.5, the "
        "yearly rate at least halved).",
    )
    growth: float = Field(
        default=0.25, **UNIT,
        description="A trend at or above this is growing citations: an old paper growing is FOUNDATIONAL (DOMAIN.md: >= +0.25).",
    )
    growth_min_age: int = Field(
        default=10, ge=0, le=200, description="Age (years) from which a paper with growing citations is FOUNDATIONAL (DOMAIN.md: 10).",
    )


class ScoringSettings(_FrozenModel):
    """Every setting `edge_reliability` scores with (its run config; stored on each row as JSON).

    Raises:
        pydantic.ValidationError: any field out of range, an unknown decay or centrality rule, weights not summing to 1.
    """

    weights: Weights = Weights()
    decay: Decay = Field(default="linear", description="Recency decay: none, linear (max(0, 1 - age/20)) or log (DOMAIN.md).")
    centrality_rule: CentralityRule = Field(
        default="max",
        description="How PageRank centrality and citation centrality combine: max (either evidence of being central "
        "suffices), mean, or one alone. Without a citation count every rule uses PageRank.",
    )
    lifecycle_penalty: float = Field(
        default=0.15, **UNIT,
        description="Subtracted from the reliability of an edge to a dataset version superseded on or before as_of (0 "
        "turns it off). This project's choice: half a signal weight at the default 0.3, enough to mark the edge "
        "weaker, never on its own enough to make a sound paper SUPERSEDED.",
    )
    thresholds: LabelThresholds = LabelThresholds()
    trend_rules: TrendRules = TrendRules()
