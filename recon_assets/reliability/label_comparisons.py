"""Why a stored edge got its label: the label rules of `labels.label_edges` (DOMAIN.md "Labels are findings", first
match wins) re-run on the edge's stored signals with the thresholds it was scored with, each rule's comparison in
words ("centrality 0.64 >= 0.6 on evidence -> FOUNDATIONAL", "reliability 0.31 < 0.35 with a judged contradiction
-> SUPERSEDED"), so a reader sees why 0.58 is DECLINING for one edge and FOUNDATIONAL for another.

The rules are not restated here: `label_edges` decides which rule concluded the label; this module only words the
comparisons of the rules up to that one.
"""

from __future__ import annotations

import math
from datetime import date

import numpy as np
import pandas as pd
from pydantic import ValidationError

from recon_assets.judgement.dispute_status import DEBATED
from recon_assets.reliability.labels import (
    CURRENT,
    DECLINING,
    FOUNDATIONAL,
    SUPERSEDED,
    UNVERIFIED,
    JUDGED_AGAINST,
    RELIABILITY_DECIMALS,
    judged_against_names,
    label_edges,
)
from recon_assets.reliability.reasons import beside_bar, shown_reliability
from recon_assets.reliability.settings import ScoringSettings
from recon_assets.reliability.signals import EdgeSignals, age_years


def stored_settings(settings_json: str) -> tuple[ScoringSettings, bool]:
    """The ScoringSettings a row was scored with (`edge_reliability.scoring_settings`), and whether they were read
    from it (False: not readable, e.g. written by another version; DOMAIN.md's defaults are returned instead)."""
    try:
        return ScoringSettings.model_validate_json(settings_json), True
    except ValidationError:
        return ScoringSettings(), False


def label_comparisons(rows: pd.DataFrame) -> list[str]:
    """For each stored edge row, the label rules' comparisons that decided its label, with the thresholds it was scored
    with (its scoring_settings), one line each:
    'not SUPERSEDED: reliability 0.58 >= 0.35 despite a judged contradiction | not FOUNDATIONAL: centrality 0.58 < 0.6
    on evidence, no field percentile, age 14 >= 10 but citation trend unknown | negative signal superseded_version ->
    DECLINING'.

    Args:
        rows: edge_reliability rows (centrality, recency, coherence, lifecycle_penalty, coherence_status,
            dispute_status, citation_trend, publication_year, field_percentile_low / _high, recent_citations,
            is_retracted, retraction_source, centrality_evidence, reliability, label, negative_signals, evidence,
            scoring_settings, as_of: ages are counted to its year), shape (n, ...).

    Returns:
        n lines, in the rows' order; a line ends with a warning when the rules give another label than the stored one
        (the row was scored by another version of the rules).
    """
    lines = pd.Series("", index=rows.index, dtype=object)
    for (settings_json, as_of), group in rows.groupby(["scoring_settings", "as_of"], sort=False):
        settings, read = stored_settings(settings_json)
        as_of = pd.Timestamp(as_of).date()
        decided = label_edges(EdgeSignals(_signal_frame(group, as_of), as_of, settings), details=False)
        for index, row in decided.iterrows():
            line = _words(row, settings)
            if row["label"] != group.at[index, "label"]:
                line += f" (these rules give {row['label']}, not the stored {group.at[index, 'label']}: re-run `recon run`)"
            if not read:
                line += " (default thresholds: the stored scoring settings are not readable)"
            lines[index] = line
    return lines.tolist()


def _signal_frame(rows: pd.DataFrame, as_of: date) -> pd.DataFrame:
    """The signals `label_edges` reads, from the stored row: what it stores as evidence flags back as booleans."""
    evidence = rows["evidence"].map(set)
    return rows.assign(
        age=age_years(rows["publication_year"].to_numpy(dtype=object), as_of),
        recent=evidence.map(lambda observed: "recent" in observed).to_numpy(dtype=bool),
        cited_recently=evidence.map(lambda observed: "cited_recently" in observed).to_numpy(dtype=bool),
        superseded_as_of=evidence.map(lambda observed: "superseded_version" in observed).to_numpy(dtype=bool),
    )


def _words(row: pd.Series, settings: ScoringSettings) -> str:
    """The comparisons of the rules up to the row's label_rule (the one that concluded its label, `label_edges`), in
    precedence order."""
    thresholds, trend_rules = settings.thresholds, settings.trend_rules
    rule, reliability, age = row["label_rule"], row["reliability"], row["age"]
    negatives = list(row["negative_signals"])
    if rule == "retraction":
        return f"retracted ({row['retraction_source']}) -> {SUPERSEDED}"
    judged = judged_against_names(negatives, row["dispute_status"])
    against = [JUDGED_AGAINST[name] for name in judged]
    bar = thresholds.superseded_reliability
    if rule == "judged_evidence":
        return f"{_compare('reliability', reliability, bar)} with {' and '.join(against)} -> {SUPERSEDED}"
    # a debated dispute is a negative signal, never SUPERSEDED on its own (DOMAIN.md label rule 1)
    debated = " (the recorded comment was answered by its authors: debated)" if row["dispute_status"] == DEBATED else ""
    parts = [
        f"not {SUPERSEDED}: {_compare('reliability', reliability, bar)} despite {' and '.join(against)}" if against
        else f"not {SUPERSEDED}: no judged contradiction, judged supersession or standing dispute{debated}"
    ]
    centrality = _compare("centrality", row["centrality"], thresholds.foundational_centrality)
    centrality += " on evidence" if row["centrality_evidence"] else " without evidence (no citation record, no KG citation)"
    percentile = row["field_percentile_low"]
    percentile_text = "no field percentile" if _missing(percentile) else _compare(
        "field percentile", percentile, thresholds.foundational_percentile
    )
    trend = row["citation_trend"]
    growth_text = "age unknown" if math.isnan(age) else (
        f"age {age:.0f} < {trend_rules.growth_min_age}" if age < trend_rules.growth_min_age
        else f"age {age:.0f} >= {trend_rules.growth_min_age} but citation trend unknown" if _missing(trend)
        else f"age {age:.0f} >= {trend_rules.growth_min_age} with {_compare('citation trend', trend, trend_rules.growth)}"
    )
    foundational = {"centrality": centrality, "field_percentile": percentile_text, "citation_growth": growth_text}
    if rule in foundational:
        return " | ".join([*parts, f"{foundational[rule]} -> {FOUNDATIONAL}"])
    contradicted = "contradiction" in judged or "dispute" in judged
    parts.append(f"not {FOUNDATIONAL}: contradicted (a judged contradiction or a standing dispute)" if contradicted
                 else f"not {FOUNDATIONAL}: {', '.join(foundational.values())}")
    if rule == "negative_signal":
        return " | ".join([*parts, f"negative signal {', '.join(negatives)} -> {DECLINING}"])
    parts.append(f"not {DECLINING}: no negative signal")
    recency = _compare("recency", row["recency"], thresholds.current_recency)
    if rule == "recent":
        return " | ".join([*parts, f"{recency} -> {CURRENT}"])
    cited = f"cited in the {thresholds.recent_citation_years} years before as_of"
    if rule == "cited_recently":
        return " | ".join([*parts, f"{recency}, {cited} -> {CURRENT}"])
    return " | ".join([*parts, f"not {CURRENT}: {recency}, not {cited} -> {UNVERIFIED}"])


def _missing(value: object) -> bool:
    return value is None or (isinstance(value, float) and np.isnan(value)) or value is pd.NA


def _compare(name: str, value: float, bar: float) -> str:
    """'centrality 0.64 >= 0.6': the value as the reasons print it beside the same bar (a reliability as
    `reasons.shown_reliability`, any other value as `reasons.beside_bar`), the comparison the rules make, the threshold
    as configured."""
    text = shown_reliability(float(value), bar) if name == "reliability" else beside_bar(float(value), bar)
    return f"{name} {text} {'>=' if round(float(value), RELIABILITY_DECIMALS) >= bar else '<'} {bar:g}"
