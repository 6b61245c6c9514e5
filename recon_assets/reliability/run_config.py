"""The scoring settings as the Dagster run config of `edge_reliability`.

Dagster builds a run config schema only from its own `dagster.Config` classes, nested ones included (a plain pydantic
model as a field is refused at definition time), so each model of `reliability.settings` has a twin here that adds
the base class and nothing else: the fields, their bounds and descriptions and the validators are the settings
models' own, each twin's docstring is its model's (the launchpad shows it), and a twin is an instance of its model,
so the scoring functions take it as it is and `model_dump_json()` stores the same JSON.
"""

import dagster as dg

from recon_assets.reliability.settings import LabelThresholds, ScoringSettings, TrendRules, Weights


class WeightsConfig(dg.Config, Weights):
    __doc__ = Weights.__doc__


class LabelThresholdsConfig(dg.Config, LabelThresholds):
    __doc__ = LabelThresholds.__doc__


class TrendRulesConfig(dg.Config, TrendRules):
    __doc__ = TrendRules.__doc__


class ScoringConfig(dg.Config, ScoringSettings):
    __doc__ = ScoringSettings.__doc__

    weights: WeightsConfig = WeightsConfig()
    thresholds: LabelThresholdsConfig = LabelThresholdsConfig()
    trend_rules: TrendRulesConfig = TrendRulesConfig()
