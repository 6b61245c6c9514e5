"""Measure the method on the labelled edges, online and offline, under the default and every setting of the ablation.

The KG's edges are scored again from the inputs the tables hold (recon_assets/reliability/sql/edges_in_research_areas.sql and the judged
pairs), by `scoring`'s own functions, so every rule of the score is measured. Two conditions:

- online: the OpenAlex records as stored; a rate counts only the cases whose publication has a record, and
  says over how many it runs (a case without one is offline-only);
- offline: every OpenAlex input taken away, as a run without a key and without a recording sees the KG.

Each measure is a rate beside its base rate (DOMAIN.md: "every rate is reported with its base rate ... and the
labelled prevalence"); an UNVERIFIED case is not caught. The ablation ranks settings by discrimination (ROC AUC of
reliability, sound against superseded edges), never by a catch rate, which any setting flagging everything wins.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date

import numpy as np
import pandas as pd

from recon_assets.evaluation.cases import (
    CURRENT_VERSION,
    dataset_key,
    DISPUTED,
    FOUNDATIONAL,
    RETRACTED,
    SOUND_CLASSES,
    STALE_CLASSES,
    SUPERSEDED_VERSION,
)
from recon_assets.evaluation.metrics import Rate, roc_auc, settings_grid
from recon_assets.reliability.labels import FLAGGED_LABELS, SUPERSEDED, UNVERIFIED, label_edges
from recon_assets.reliability.reasons import explain_edges
from recon_assets.reliability.settings import DECAYS, ScoringSettings
from recon_assets.reliability.signals import EdgeSignals, edge_signals
from recon_assets.verdicts.critic import CONTRADICTED, STALE, VerdictRules
from recon_assets.verdicts.dataset_judgements import dataset_evidence, judge_datasets

ONLINE, OFFLINE = "online", "offline"
CONDITIONS = (ONLINE, OFFLINE)
ALL, HELD_OUT = "all", "held_out"
EDGE_KEY = ["dataset_id", "publication_id"]
# The measures, in the order they are reported; each is a Rate but roc_auc (a probability without an interval).
MEASURES = {
    "staleness_catch": "superseded-version edges flagged (DECLINING or SUPERSEDED; UNVERIFIED is not caught)",
    "flag_precision": "flagged labelled edges that are stale (superseded version, disputed or retracted)",
    "labelled_prevalence": "labelled edges that are stale: what flag_precision is read against",
    "base_rate": "all scored KG edges flagged: what a catch rate is read against",
    "foundational_false_flag": "foundational (archive reference) papers flagged",
    "current_flagged": "recent papers on current versions flagged",
    "contradiction_catch": "disputed papers flagged with a judged contradiction or a recorded dispute",
    "retraction_catch": "retracted papers labelled SUPERSEDED",
    "unverified_share": "labelled edges UNVERIFIED (nothing concluded)",
    "roc_auc": "P(a foundational or current edge scores a higher reliability than a superseded-version edge)",
    "replaced_datasets_stale": "(research area, dataset) verdicts of replaced versions that are STALE or CONTRADICTED",
    "circular_staleness_catch": "circular cases (labelled from the CMR rows the lifecycle reads) flagged: kept apart",
}
# The targets on the default setting: (condition, measure, bound, at most or at least).
TARGETS = (
    (ONLINE, "foundational_false_flag", 0.05, "max"), (ONLINE, "staleness_catch", 0.85, "min"),
    (ONLINE, "flag_precision", 0.80, "min"), (ONLINE, "current_flagged", 0.20, "max"),
    (ONLINE, "replaced_datasets_stale", 0.60, "min"), (OFFLINE, "foundational_false_flag", 0.20, "max"),
    (OFFLINE, "staleness_catch", 0.60, "min"), (OFFLINE, "unverified_share", 0.40, "max"),
)
_OPENALEX_INPUTS = {
    "openalex_status": "error", "openalex_error": "offline: no OpenAlex record (evaluation without OpenAlex)",
    "cited_by_count": None, "counts_by_year": None, "openalex_fetched_at": None, "openalex_year": None,
    "percentile_low": None, "percentile_high": None, "openalex_retracted": False, "retraction_notice": False,
    "crossref_notice_dois": None,
}


def without_openalex(edges: pd.DataFrame) -> pd.DataFrame:
    """The edges as a run without OpenAlex sees them: every OpenAlex input (and Crossref's) taken away; a DOI-less
    publication stays without a lookup."""
    has_doi = edges["publication_doi"].notna()
    blank = edges.assign(**{column: value for column, value in _OPENALEX_INPUTS.items()})
    blank["openalex_status"] = blank["openalex_status"].where(has_doi, None)
    return blank


def match_cases(cases: pd.DataFrame, edges: pd.DataFrame) -> pd.DataFrame:
    """`cases` with the KG edge each names: dataset_id and publication_id, NA when the KG has no such edge (the case is
    reported as not found, never dropped). A case naming its dataset by DOI meets the edge of that publication and
    dataset DOI; one naming it by short name meets the publication's edge to a dataset of that short name and version
    (`cases.dataset_key`), or of that short name alone when the case or the KG does not know the version."""
    unique = edges.drop_duplicates(EDGE_KEY)
    if unique.empty:
        return cases.assign(**dict.fromkeys(EDGE_KEY, None))
    by_doi = pd.DataFrame({"dataset_key": unique["dataset_doi"], "publication_key": unique["publication_doi"], **{k: unique[k] for k in EDGE_KEY}})
    matched = cases.merge(by_doi.dropna(subset=["dataset_key", "publication_key"]).drop_duplicates(["dataset_key", "publication_key"]), on=["dataset_key", "publication_key"], how="left")
    by_name = unique.assign(
        publication_key=unique["publication_doi"], name_key=unique["dataset_short_name"].str.upper(),
        version_key=[dataset_key(None, name, version) for name, version in zip(unique["dataset_short_name"], unique["dataset_version"])],
    )[["publication_key", "name_key", "version_key", *EDGE_KEY]].dropna(subset=["publication_key", "name_key"])
    named = matched[matched["dataset_id"].isna() & ~matched["dataset_key"].str.startswith("10.")]
    candidates = named.drop(columns=EDGE_KEY).assign(name_key=named["dataset_key"].str.split("|").str[0]).merge(by_name, on=["publication_key", "name_key"])
    # versions must agree where both are known; an unknown one on either side matches on the short name alone
    exact = candidates["version_key"] == candidates["dataset_key"]
    unknown = candidates["dataset_key"].str.endswith("|") | candidates["version_key"].str.endswith("|")
    chosen = candidates[exact | unknown].sort_values("case_id", key=lambda _: ~exact[exact | unknown]).drop_duplicates("case_id")
    found = chosen.set_index("case_id")[EDGE_KEY]
    for key in EDGE_KEY:
        matched[key] = matched[key].astype(object).where(matched[key].notna(), matched["case_id"].map(found[key]))
    return matched


@dataclass(frozen=True)
class Evaluation:
    """measures: one row per (condition, split, setting, measure); cases: one row per case and condition under the
    default setting; targets: one row per target of TARGETS."""

    measures: pd.DataFrame
    cases: pd.DataFrame
    targets: pd.DataFrame


def evaluate(
    edges: pd.DataFrame, cases: pd.DataFrame, pairs: pd.DataFrame, disputes: pd.DataFrame, *, as_of: date,
    default: ScoringSettings, rules: VerdictRules,
) -> Evaluation:
    """The measures of MEASURES for every condition, split and setting of the ablation, and every case's outcome.

    Args:
        edges: every scored KG edge's inputs with its coherence (`reliability.edge_scores.edge_coherence` of
            recon_assets/reliability/sql/edges_in_research_areas.sql rows over every research area), one row per edge and research area.
        cases: `cases.load_cases()`.
        pairs, disputes: recon_assets/verdicts/sql/contradicting_pairs.sql and recon_assets/verdicts/sql/dataset_disputes.sql rows (for the verdicts of the default
            setting).
        default: the settings the pipeline scores with; the ablation varies its weights and decay.
        rules: the verdict rules.
    """
    matched = match_cases(cases, edges)
    if edges.empty:  # nothing to score: every case is reported, not found, and no measure is taken
        outcomes = [
            matched.assign(condition=condition, found=False, has_openalex_record=False, **dict.fromkeys(OUTCOME_COLUMNS))
            for condition in CONDITIONS
        ]
        return Evaluation(pd.DataFrame(columns=MEASURE_COLUMNS), pd.concat(outcomes, ignore_index=True), targets_of(pd.DataFrame(columns=MEASURE_COLUMNS)))
    grid = settings_grid(default)
    rows, outcomes = [], []
    for condition in CONDITIONS:
        inputs = edges if condition == ONLINE else without_openalex(edges)
        unique = inputs.drop_duplicates(EDGE_KEY).reset_index(drop=True)
        labelled = matched.merge(unique[EDGE_KEY + ["openalex_status"]], on=EDGE_KEY, how="left")
        measured = labelled[labelled["dataset_id"].notna()]
        if condition == ONLINE:  # only the cases OpenAlex answered for: the others are offline-only
            measured = measured[measured["openalex_status"] == "found"]
        for decay in DECAYS:
            signals = edge_signals(unique, as_of=as_of, settings=default.model_copy(update={"decay": decay}))
            for settings in (s for s in grid if s.decay == decay):
                is_default = settings == default
                scored = label_edges(signals, weights=settings.weights, details=is_default)
                case_labels = measured.merge(scored[[*EDGE_KEY, "label", "reliability", *(["negative_signals"] if is_default else [])]], on=EDGE_KEY)
                if is_default:
                    outcomes.append(_outcomes(labelled, scored, signals, condition, as_of=as_of))
                for split in (ALL, HELD_OUT):
                    chosen = case_labels if split == ALL else case_labels[case_labels["split"] == HELD_OUT]
                    extra = {"replaced_datasets_stale": _replaced_datasets_stale(inputs, scored, chosen, pairs, disputes, as_of=as_of, rules=rules)} if is_default else {}
                    for measure, value in _measures(chosen, scored["label"], details=is_default, **extra).items():
                        rows.append(_row(condition, split, settings, is_default, measure, value))
    measures = pd.DataFrame(rows)
    measures["auc_rank"] = _auc_ranks(measures)
    return Evaluation(measures, pd.concat(outcomes, ignore_index=True), targets_of(measures))


def _measures(cases: pd.DataFrame, all_labels: pd.Series, *, details: bool, **extra: Rate) -> dict[str, Rate | float]:
    """Every measure of MEASURES over the labelled `cases` (with label, reliability and, with `details`,
    negative_signals) and the labels of every KG edge."""
    flagged = cases["label"].isin(FLAGGED_LABELS)
    independent = cases["grade"] != "C"
    of = {name: cases[independent & (cases["class"] == name)] for name in (*STALE_CLASSES, *SOUND_CLASSES)}
    headline = cases[independent]

    def share(frame: pd.DataFrame, hit: pd.Series) -> Rate:
        return Rate(int(hit.loc[frame.index].sum()), len(frame))

    stale = headline["class"].isin(STALE_CLASSES)
    result: dict[str, Rate | float] = {
        "staleness_catch": share(of[SUPERSEDED_VERSION], flagged),
        "flag_precision": Rate(int((flagged & independent & cases["class"].isin(STALE_CLASSES)).sum()), int((flagged & independent).sum())),
        "labelled_prevalence": Rate(int(stale.sum()), len(headline)),
        "base_rate": Rate(int(all_labels.isin(FLAGGED_LABELS).sum()), len(all_labels)),
        "foundational_false_flag": share(of[FOUNDATIONAL], flagged),
        "current_flagged": share(of[CURRENT_VERSION], flagged),
        "retraction_catch": share(of[RETRACTED], cases["label"] == SUPERSEDED),
        "unverified_share": share(headline, cases["label"] == UNVERIFIED),
        "roc_auc": roc_auc(
            cases.loc[independent & cases["class"].isin(SOUND_CLASSES), "reliability"],
            of[SUPERSEDED_VERSION]["reliability"],
        ),
        "circular_staleness_catch": share(cases[~independent & (cases["class"] == SUPERSEDED_VERSION)], flagged),
    }
    if details:
        disputed = of[DISPUTED]
        named = disputed["negative_signals"].map(lambda names: bool({"contradiction", "dispute"} & set(names)))
        result["contradiction_catch"] = Rate(int(named.sum()), len(disputed))
    return result | extra


def _replaced_datasets_stale(
    edges: pd.DataFrame, scored: pd.DataFrame, case_labels: pd.DataFrame, pairs: pd.DataFrame, disputes: pd.DataFrame, *,
    as_of: date, rules: VerdictRules,
) -> Rate:
    """Of the (research area, dataset) evidence sets holding a superseded-version case, those the critic calls STALE
    or CONTRADICTED, judged on the `scored` edges (one row per edge) put back in every research area of `edges`
    (no expansion: the pipeline's dataset_verdicts table has the verdicts with it)."""
    replaced = case_labels.loc[(case_labels["grade"] != "C") & (case_labels["class"] == SUPERSEDED_VERSION), "dataset_id"].unique()
    if not len(replaced):
        return Rate(0, 0)
    areas = edges.loc[edges["dataset_id"].isin(replaced), ["research_area", *EDGE_KEY]]
    per_area = areas.merge(scored.drop(columns="research_area"), on=EDGE_KEY)
    verdicts = judge_datasets(dataset_evidence(per_area), pairs, disputes, {}, as_of=as_of, rules=rules)
    return Rate(int(verdicts["verdict"].isin([STALE, CONTRADICTED]).sum()), len(verdicts))


# What a case's outcome adds to it (NULL when the case was not found).
OUTCOME_COLUMNS = ("label", "reliability", "dominant_signal", "negative_signals", "evidence", "reason", "flagged", "hit")


def _outcomes(labelled: pd.DataFrame, scored: pd.DataFrame, signals: EdgeSignals, condition: str, *, as_of: date) -> pd.DataFrame:
    """Every case's outcome under the default setting in one condition, with its reason."""
    columns = [*EDGE_KEY, "label", "reliability", "dominant_signal", "negative_signals", "evidence"]
    found = scored[scored.set_index(EDGE_KEY).index.isin(labelled.set_index(EDGE_KEY).index)]
    reasons = found.assign(reason=explain_edges(found, as_of=as_of, settings=signals.settings))
    rows = labelled.merge(reasons[[*columns, "reason"]], on=EDGE_KEY, how="left")
    flagged = rows["label"].isin(FLAGGED_LABELS)
    hit = np.where(rows["class"] == RETRACTED, rows["label"] == SUPERSEDED, np.where(rows["class"].isin(STALE_CLASSES), flagged, ~flagged))
    return rows.assign(
        condition=condition, found=rows["dataset_id"].notna(), has_openalex_record=rows["openalex_status"] == "found",
        flagged=flagged.where(rows["label"].notna()), hit=pd.Series(hit, index=rows.index).where(rows["label"].notna()),
    )


MEASURE_COLUMNS = [
    "condition", "split", "setting", "weight_centrality", "weight_recency", "weight_coherence", "decay", "is_default", "measure",
    "value", "numerator", "denominator", "ci_low", "ci_high", "auc_rank",
]


def _row(condition: str, split: str, settings: ScoringSettings, is_default: bool, measure: str, value: Rate | float) -> dict:
    weights = settings.weights
    rate = value if isinstance(value, Rate) else None
    low, high = rate.interval if rate else (math.nan, math.nan)
    return {
        "condition": condition, "split": split,
        "setting": f"{weights.centrality:.1f}/{weights.recency:.1f}/{weights.coherence:.1f} {settings.decay}",
        "weight_centrality": weights.centrality, "weight_recency": weights.recency, "weight_coherence": weights.coherence,
        "decay": settings.decay, "is_default": is_default, "measure": measure,
        "value": rate.value if rate else value, "numerator": rate.numerator if rate else None,
        "denominator": rate.denominator if rate else None, "ci_low": low, "ci_high": high,
    }


def _auc_ranks(measures: pd.DataFrame) -> pd.Series:
    """Each setting's rank by ROC AUC within its condition and split (1 = discriminates best; ties share a rank),
    on every row of the setting."""
    auc = measures[measures["measure"] == "roc_auc"]
    ranks = auc.groupby(["condition", "split"])["value"].rank(ascending=False, method="min")
    by_setting = dict(zip(map(tuple, auc[["condition", "split", "setting"]].to_numpy()), ranks))
    return pd.Series([by_setting.get(key) for key in map(tuple, measures[["condition", "split", "setting"]].to_numpy())], index=measures.index, dtype="Float64")


def targets_of(measures: pd.DataFrame) -> pd.DataFrame:
    """Each target of TARGETS on the default setting, all cases: the figure, whether it is met (None when not
    measured), and over how many."""
    default = measures[measures["is_default"].astype(bool) & (measures["split"] == ALL)].set_index(["condition", "measure"])
    rows = []
    for condition, measure, bound, kind in TARGETS:
        row = default.loc[(condition, measure)] if (condition, measure) in default.index else pd.Series({"value": None, "numerator": None, "denominator": None})
        value = row["value"]
        met = (value <= bound if kind == "max" else value >= bound) if not pd.isna(value) else None
        rows.append({
            "condition": condition, "measure": measure, "target": f"{'<=' if kind == 'max' else '>='} {bound:.0%}",
            "value": value, "numerator": row["numerator"], "denominator": row["denominator"], "met": met,
        })
    return pd.DataFrame(rows)


def iter_headline(measures: pd.DataFrame) -> Iterator[tuple[str, str, pd.Series]]:
    """(condition, measure, row) of the default setting over all cases, in MEASURES order."""
    default = measures[measures["is_default"] & (measures["split"] == ALL)]
    for condition in CONDITIONS:
        for measure in MEASURES:
            found = default[(default["condition"] == condition) & (default["measure"] == measure)]
            if len(found):
                yield condition, measure, found.iloc[0]
