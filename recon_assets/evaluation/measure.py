"""Measure the method on the labelled edges, online and offline, under the default and every setting of the ablation,
beside the rules a user would otherwise apply (`baselines`).

The KG's edges are scored again from the inputs the tables hold (recon_assets/reliability/sql/edges_in_research_areas.sql and the judged
pairs), by `scoring`'s own functions, so every rule of the score is measured. Two conditions:

- online: the OpenAlex records as stored; a rate counts only the cases whose publication has a citation record as of
  as_of (`record_as_of`), and says over how many it runs (a case without one is offline-only);
- offline: every OpenAlex input taken away, as a run without a key and without a recording sees the KG.

Every measure is taken per case set (CASE_SETS, by the cases' grade): `IF` (grades I and F: the headline), `I`
(independent cases alone: what the score adds) and `C` (labelled from a scorer input: kept apart). Each measure is a
rate beside its base rate (DOMAIN.md: "every rate is reported with its base rate ... and the labelled prevalence");
an UNVERIFIED case is not caught. The default and each baseline are compared on the same cases with the paired
difference and its 95 % interval from resampling dataset nodes (`metrics.cluster_draws`), and counted per node as
well as per case (`metrics.node_rate`). The ablation ranks settings by discrimination on the I cases (ROC AUC of
reliability, sound against superseded edges), never by a catch rate, which any setting flagging everything wins.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import date

import numpy as np
import pandas as pd

from recon_assets.evaluation.baselines import BASELINES, LIFECYCLE_ONLY, baseline_rules
from recon_assets.evaluation.cases import (
    CURRENT,
    CURRENT_VERSION,
    dataset_key,
    DISPUTED,
    FOUNDATIONAL,
    REPLACED,
    RETRACTED,
    SOUND_CLASSES,
    STALE_CLASSES,
    SUPERSEDED_VERSION,
)
from recon_assets.evaluation.metrics import (
    cluster_draws,
    comparison_text,
    percentile_interval,
    Rate,
    RESAMPLES,
    roc_auc,
    SEED,
    settings_grid,
)
from recon_assets.reliability.citations import count_visible, has_year_breakdown
from recon_assets.reliability.labels import FLAGGED_LABELS, SUPERSEDED, UNVERIFIED, label_edges
from recon_assets.reliability.reasons import explain_edges
from recon_assets.reliability.settings import DECAYS, ScoringSettings
from recon_assets.reliability.signals import age_years, EdgeSignals, edge_signals
from recon_assets.verdicts.critic import CONTRADICTED, STALE, VerdictRules
from recon_assets.verdicts.dataset_judgements import dataset_evidence, judge_datasets

ONLINE, OFFLINE = "online", "offline"
CONDITIONS = (ONLINE, OFFLINE)
ALL, HELD_OUT = "all", "held_out"
EDGE_KEY = ["dataset_id", "publication_id"]
# Case sets by grade: the headline (I and F), the independent cases alone, and the C cases kept apart.
HEADLINE, INDEPENDENT, CIRCULAR = "IF", "I", "C"
CASE_SETS = {HEADLINE: ("I", "F"), INDEPENDENT: ("I",), CIRCULAR: ("C",)}
# The default score's rule name beside the baselines'.
DEFAULT = "default"
RULES = (DEFAULT, *BASELINES)
# Ages (whole years at as_of) of the subgroups that separate the signals: an age rule flags the old, a recency rule
# passes the recent (issue 20).
OLD_YEARS, RECENT_YEARS = 10, 3
# The measures, in the order they are reported; each is a Rate but roc_auc (a probability without a Wilson interval).
MEASURES = {
    "staleness_catch": "superseded-version edges flagged (DECLINING or SUPERSEDED; UNVERIFIED is not caught)",
    "flag_precision": "flagged labelled edges that are stale (superseded version, disputed or retracted)",
    "labelled_prevalence": "labelled edges that are stale: what flag_precision is read against",
    "base_rate": "all scored KG edges flagged: what a catch rate is read against",
    "foundational_false_flag": "foundational (archive reference) papers flagged",
    "foundational_replaced_flagged": "foundational papers on replaced versions (version_status replaced) flagged",
    "old_current_flagged": f"sound papers >= {OLD_YEARS} years old on current versions (class current_version or version_status current) flagged",
    "recent_replaced_flagged": f"stale papers <= {RECENT_YEARS} years old on replaced versions (version_status replaced) flagged",
    "current_flagged": "current_version papers flagged",
    "contradiction_catch": "disputed papers flagged with a judged contradiction or a recorded dispute",
    "retraction_catch": "retracted papers labelled SUPERSEDED",
    "unverified_share": "labelled edges UNVERIFIED (nothing concluded)",
    "roc_auc": "P(a foundational or current edge scores a higher reliability than a superseded-version edge)",
    "replaced_datasets_stale": "(research area, dataset) verdicts of replaced versions that are STALE or CONTRADICTED",
}
# The measures the default and every baseline are compared on (a baseline has no label, so no UNVERIFIED share).
COMPARED = (
    "staleness_catch", "flag_precision", "base_rate", "foundational_false_flag", "foundational_replaced_flagged",
    "old_current_flagged", "recent_replaced_flagged", "current_flagged", "roc_auc",
)
# The targets on the default setting, I cases, all splits: (condition, measure, bound, at most or at least);
# a bound naming a baseline is that baseline's figure on the same cases.
TARGET_CASE_SET = INDEPENDENT
TARGETS = (
    (ONLINE, "foundational_false_flag", 0.10, "max"), (ONLINE, "foundational_replaced_flagged", 0.20, "max"),
    (ONLINE, "old_current_flagged", 0.20, "max"), (ONLINE, "staleness_catch", LIFECYCLE_ONLY, "min"),
    (ONLINE, "flag_precision", 0.80, "min"), (ONLINE, "roc_auc", LIFECYCLE_ONLY, "min"),
    (OFFLINE, "foundational_false_flag", 0.30, "max"), (OFFLINE, "staleness_catch", LIFECYCLE_ONLY, "min"),
    (OFFLINE, "roc_auc", LIFECYCLE_ONLY, "min"),
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


def record_as_of(edges: pd.DataFrame, as_of: date) -> np.ndarray:
    """Whether each edge's publication has a citation record as of `as_of`, shape (n,): OpenAlex found it and its count
    can be read then (`reliability.citations.count_visible`: a count composed from a public page, without years, only
    from the day it was seen). The online rates count only these cases; the others are offline-only.

    Args:
        edges: openalex_status, cited_by_count, counts_by_year and openalex_fetched_at per edge (edges_in_research_areas.sql).
    """
    found = (edges["openalex_status"] == "found").fillna(False).to_numpy(dtype=bool)
    counted = pd.to_numeric(edges["cited_by_count"], errors="coerce").notna().to_numpy()
    fetched = pd.to_datetime(edges["openalex_fetched_at"].where(found), utc=True)
    return found & counted & count_visible(has_year_breakdown(edges["counts_by_year"].to_numpy(dtype=object)), fetched, as_of)


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
    """measures: one row per (condition, split, case_set, setting, measure) of the ablation (MEASURE_COLUMNS);
    comparisons: one row per (condition, split, case_set, measure, rule) of the default and each baseline
    (COMPARISON_COLUMNS); cases: one row per case and condition under the default setting; targets: one row per
    target of TARGETS (`targets_of`)."""

    measures: pd.DataFrame
    comparisons: pd.DataFrame
    cases: pd.DataFrame
    targets: pd.DataFrame


def evaluate(
    edges: pd.DataFrame, cases: pd.DataFrame, pairs: pd.DataFrame, disputes: pd.DataFrame, *, as_of: date,
    default: ScoringSettings, rules: VerdictRules,
) -> Evaluation:
    """The measures of MEASURES for every condition, split, case set and setting of the ablation, the default beside
    every baseline, and every case's outcome.

    Args:
        edges: every scored KG edge's inputs with its coherence (`reliability.edge_scores.edge_coherence` of
            recon_assets/reliability/sql/edges_in_research_areas.sql rows over every research area), one row per edge and research area.
        cases: `cases.load_cases()`.
        pairs, disputes: recon_assets/verdicts/sql/contradicting_pairs.sql and recon_assets/verdicts/sql/dataset_disputes.sql rows (for the verdicts of the default
            setting).
        default: the settings the pipeline scores with; the ablation varies its weights and decay.
        rules: the verdict rules.
    """
    matched = match_cases(cases, edges).assign(case_age=age_years(cases["publication_year"].to_numpy(), as_of))
    if edges.empty:  # nothing to score: every case is reported, not found, and no measure is taken
        outcomes = [
            matched.assign(condition=condition, found=False, has_openalex_record=False, **dict.fromkeys(OUTCOME_COLUMNS))
            for condition in CONDITIONS
        ]
        comparisons = pd.DataFrame(columns=COMPARISON_COLUMNS)
        return Evaluation(pd.DataFrame(columns=MEASURE_COLUMNS), comparisons, pd.concat(outcomes, ignore_index=True), targets_of(comparisons))
    grid = settings_grid(default)
    rows, compared, outcomes = [], [], []
    for condition in CONDITIONS:
        inputs = edges if condition == ONLINE else without_openalex(edges)
        unique = inputs.drop_duplicates(EDGE_KEY).reset_index(drop=True)
        records = unique[EDGE_KEY].assign(has_openalex_record=record_as_of(unique, as_of))
        labelled = matched.merge(records, on=EDGE_KEY, how="left")
        measured = labelled[labelled["dataset_id"].notna()]
        if condition == ONLINE:  # only the cases with a citation record as of as_of: the others are offline-only
            measured = measured[measured["has_openalex_record"].fillna(False).astype(bool)]
        # Every setting scores `unique`'s edges in its order (`label_edges` keeps its rows), so each measured case's
        # edge is found once, by its row there, and only labels and reliabilities change from one setting to the next.
        found = measured.merge(unique[EDGE_KEY].assign(row=np.arange(len(unique))), on=EDGE_KEY)
        at = found.pop("row").to_numpy()
        columns = CaseColumns.of(found)
        case_sets = list(_case_sets(found))
        for decay in DECAYS:
            signals = edge_signals(unique, as_of=as_of, settings=default.model_copy(update={"decay": decay}))
            for settings in (s for s in grid if s.decay == decay):
                is_default = settings == default
                scored = label_edges(signals, weights=settings.weights, details=is_default)
                labels = scored["label"].to_numpy(dtype=object)
                base_rate = Rate(int(np.isin(labels, FLAGGED_LABELS).sum()), len(labels))
                scored_cases = columns.scored(labels[at], scored["reliability"].to_numpy(dtype=float)[at],
                                              scored["negative_signals"].to_numpy(dtype=object)[at] if is_default else None)
                if is_default:
                    outcomes.append(_outcomes(labelled, scored, signals, condition, as_of=as_of))
                    by_rule = rule_outcomes(scored)
                    shown = scored[["label", "reliability", "negative_signals"]].iloc[at].set_axis(found.index)
                    case_labels = pd.concat([found, shown], axis=1)
                for split, case_set, chosen in case_sets:
                    extra = {"replaced_datasets_stale": _replaced_datasets_stale(inputs, scored, case_labels[chosen], pairs, disputes, as_of=as_of, rules=rules)} if is_default else {}
                    for measure, value in _measures(scored_cases.subset(chosen), base_rate, **extra).items():
                        rows.append(_row(condition, split, case_set, settings, is_default, measure, value))
                    if is_default:
                        comparison = compare_rules(case_labels[chosen].merge(by_rule, on=EDGE_KEY), by_rule)
                        compared.append(comparison.assign(condition=condition, split=split, case_set=case_set))
    measures = pd.DataFrame(rows)
    measures["auc_rank"] = _auc_ranks(measures)
    comparisons = pd.concat(compared, ignore_index=True)[COMPARISON_COLUMNS]
    return Evaluation(measures, comparisons, pd.concat(outcomes, ignore_index=True), targets_of(comparisons))


@dataclass(frozen=True)
class CaseColumns:
    """What the measures read of labelled cases, as arrays of shape (n,): class, version_status, case_age (whole years
    at as_of), and once scored, label, reliability and (the default setting only) negative_signals (lists of names).
    The ablation measures 198 settings on the same cases: arrays, not data frames, keep that cheap."""

    klass: np.ndarray
    version_status: np.ndarray
    case_age: np.ndarray
    label: np.ndarray | None = None
    reliability: np.ndarray | None = None
    negative_signals: np.ndarray | None = None

    @classmethod
    def of(cls, cases: pd.DataFrame) -> CaseColumns:
        """The unscored columns of `cases` (class, version_status, case_age)."""
        return cls(cases["class"].to_numpy(dtype=object), cases["version_status"].to_numpy(dtype=object), cases["case_age"].to_numpy(dtype=float))

    def scored(self, label: np.ndarray, reliability: np.ndarray, negative_signals: np.ndarray | None) -> CaseColumns:
        """These cases with one setting's label, reliability and negative_signals (None: not kept)."""
        return replace(self, label=label, reliability=reliability, negative_signals=negative_signals)

    def subset(self, chosen: np.ndarray) -> CaseColumns:
        """The cases where `chosen` (bool, shape (n,)) holds."""
        return CaseColumns(**{name: None if value is None else value[chosen] for name, value in vars(self).items()})


def _case_sets(cases: pd.DataFrame) -> Iterator[tuple[str, str, np.ndarray]]:
    """(split, case set, which of the measured `cases` are of that split and have a grade in the set: bool, shape (n,))."""
    for split in (ALL, HELD_OUT):
        in_split = np.ones(len(cases), dtype=bool) if split == ALL else (cases["split"] == HELD_OUT).to_numpy(dtype=bool)
        for case_set, grades in CASE_SETS.items():
            yield split, case_set, in_split & cases["grade"].isin(grades).to_numpy(dtype=bool)


def flag_sets(cases: pd.DataFrame | CaseColumns, flagged: np.ndarray) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """{measure: (in_set, hit)} of the measures a flag decides, over `cases` (class, version_status, case_age: whole
    years at as_of) under one rule's `flagged` (bool, shape (n,)): the rate is hits among the cases in the set.

    old_current_flagged runs over sound cases (foundational, current_version) at least OLD_YEARS old whose version
    the archive calls current (class current_version, or version_status current); recent_replaced_flagged over
    stale cases (superseded_version, disputed, retracted) at most RECENT_YEARS old on a version_status replaced.
    """
    columns = cases if isinstance(cases, CaseColumns) else CaseColumns.of(cases)
    klass, status, age = columns.klass, columns.version_status, columns.case_age
    flagged = np.asarray(flagged, dtype=bool)
    stale, sound = np.isin(klass, STALE_CLASSES), np.isin(klass, SOUND_CLASSES)
    foundational, replaced = klass == FOUNDATIONAL, status == REPLACED
    return {
        "staleness_catch": (klass == SUPERSEDED_VERSION, flagged),
        "flag_precision": (flagged, stale),
        "foundational_false_flag": (foundational, flagged),
        "foundational_replaced_flagged": (foundational & replaced, flagged),
        "old_current_flagged": (sound & ((klass == CURRENT_VERSION) | (status == CURRENT)) & (age >= OLD_YEARS), flagged),
        "recent_replaced_flagged": (stale & replaced & (age <= RECENT_YEARS), flagged),
        "current_flagged": (klass == CURRENT_VERSION, flagged),
    }


def _auc_groups(klass: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(sound, superseded-version) masks of the ROC AUC over the cases' classes: foundational and current_version
    against superseded_version."""
    return np.isin(klass, SOUND_CLASSES), klass == SUPERSEDED_VERSION


def _measures(cases: CaseColumns, base_rate: Rate, **extra: Rate) -> dict[str, Rate | float]:
    """Every measure of MEASURES over the labelled, scored `cases` of one case set, beside `base_rate` (every KG edge
    flagged); contradiction_catch only when the cases keep their negative_signals (the default setting)."""
    flagged = np.isin(cases.label, FLAGGED_LABELS)
    klass = cases.klass
    sound, superseded = _auc_groups(klass)
    result: dict[str, Rate | float] = {
        measure: Rate(int((in_set & hit).sum()), int(in_set.sum())) for measure, (in_set, hit) in flag_sets(cases, flagged).items()
    }
    result |= {
        "labelled_prevalence": Rate(int(np.isin(klass, STALE_CLASSES).sum()), len(klass)),
        "base_rate": base_rate,
        "retraction_catch": Rate(int(((klass == RETRACTED) & (cases.label == SUPERSEDED)).sum()), int((klass == RETRACTED).sum())),
        "unverified_share": Rate(int((cases.label == UNVERIFIED).sum()), len(klass)),
        "roc_auc": roc_auc(cases.reliability[sound], cases.reliability[superseded]),
    }
    if cases.negative_signals is not None:
        named = [bool({"contradiction", "dispute"} & set(names)) for names in cases.negative_signals[klass == DISPUTED]]
        result["contradiction_catch"] = Rate(sum(named), len(named))
    return {measure: result[measure] for measure in MEASURES if measure in result} | extra


def rule_outcomes(scored: pd.DataFrame) -> pd.DataFrame:
    """Every scored edge's flag and ordering score under the default (flagged: DECLINING or SUPERSEDED; score:
    reliability) and each baseline (`baselines.baseline_rules`): dataset_id, publication_id, then `flagged/<rule>`
    (bool) and `score/<rule>` (float, higher = more reliable) for each rule of RULES."""
    flags = {DEFAULT: (scored["label"].isin(FLAGGED_LABELS).to_numpy(), scored["reliability"].to_numpy(dtype=float))}
    flags |= baseline_rules(scored)
    columns = {f"{kind}/{rule}": values[index] for rule, values in flags.items() for index, kind in enumerate(("flagged", "score"))}
    return pd.DataFrame({**{key: scored[key].to_numpy() for key in EDGE_KEY}, **columns})


COMPARISON_COLUMNS = [
    "condition", "split", "case_set", "measure", "rule", "value", "numerator", "denominator", "ci_low", "ci_high",
    "cluster_ci_low", "cluster_ci_high", "node_numerator", "node_denominator", "difference", "difference_ci_low",
    "difference_ci_high", "resamples",
]


def compare_rules(cases: pd.DataFrame, edges: pd.DataFrame, *, resamples: int = RESAMPLES, seed: int = SEED) -> pd.DataFrame:
    """The default beside every baseline on the same cases: each measure of COMPARED for each rule of RULES, with
    the per-case Wilson interval, the interval from resampling dataset nodes, the per-node counts, and the paired
    difference default minus rule with its interval on the same resamples.

    Args:
        cases: one row per measured case: dataset_id (the node; cases of one node move together), class,
            version_status, case_age, and the `rule_outcomes` columns for every rule.
        edges: `rule_outcomes` of every scored KG edge (the base rate's units, resampled by their own nodes).
        resamples, seed: of the cluster bootstrap (`metrics.cluster_draws`).

    Returns:
        rows of COMPARISON_COLUMNS but condition, split and case_set; roc_auc has no counts nor Wilson interval, the
        default's own row no difference.
    """
    units = {"cases": cluster_draws(cases["dataset_id"].to_numpy(), resamples=resamples, seed=seed),
             "edges": cluster_draws(edges["dataset_id"].to_numpy(), resamples=resamples, seed=seed)}
    sound, superseded = _auc_groups(cases["class"].to_numpy(dtype=object))
    figures: dict[tuple[str, str], tuple[Rate | float, np.ndarray, Rate | None]] = {}
    for rule in RULES:
        flagged = cases[f"flagged/{rule}"].to_numpy(dtype=bool)
        sets = flag_sets(cases, flagged) | {"base_rate": (np.ones(len(edges), dtype=bool), edges[f"flagged/{rule}"].to_numpy(dtype=bool))}
        for measure, (in_set, hit) in sets.items():
            draws = units["edges" if measure == "base_rate" else "cases"]
            figures[measure, rule] = (
                Rate(int((in_set & hit).sum()), int(in_set.sum())), draws.rates(in_set, hit),
                draws.node_rate(in_set, hit),
            )
        scores = cases[f"score/{rule}"].to_numpy(dtype=float)
        figures["roc_auc", rule] = (
            roc_auc(scores[sound], scores[superseded]), units["cases"].roc_auc(scores, sound, superseded), None,
        )
    rows = []
    for measure in COMPARED:
        default_value, default_resampled, _ = figures[measure, DEFAULT]
        for rule in RULES:
            value, resampled, nodes = figures[measure, rule]
            rate = value if isinstance(value, Rate) else None
            low, high = rate.interval if rate else (math.nan, math.nan)
            cluster_low, cluster_high = percentile_interval(resampled)
            own = _number(value)
            paired = rule != DEFAULT
            difference_low, difference_high = percentile_interval(default_resampled - resampled) if paired else (math.nan, math.nan)
            rows.append({
                "measure": measure, "rule": rule, "value": own,
                "numerator": rate.numerator if rate else None, "denominator": rate.denominator if rate else None,
                "ci_low": low, "ci_high": high, "cluster_ci_low": cluster_low, "cluster_ci_high": cluster_high,
                "node_numerator": nodes.numerator if nodes else None, "node_denominator": nodes.denominator if nodes else None,
                "difference": _number(default_value) - own if paired else math.nan,
                "difference_ci_low": difference_low, "difference_ci_high": difference_high, "resamples": resamples,
            })
    return pd.DataFrame(rows)


def _number(value: Rate | float) -> float:
    return value.value if isinstance(value, Rate) else value


def _replaced_datasets_stale(
    edges: pd.DataFrame, scored: pd.DataFrame, case_labels: pd.DataFrame, pairs: pd.DataFrame, disputes: pd.DataFrame, *,
    as_of: date, rules: VerdictRules,
) -> Rate:
    """Of the (research area, dataset) evidence sets holding a superseded-version case of `case_labels`, those the
    critic calls STALE or CONTRADICTED, judged on the `scored` edges (one row per edge) put back in every research
    area of `edges` (no expansion: the pipeline's dataset_verdicts table has the verdicts with it)."""
    replaced = case_labels.loc[case_labels["class"] == SUPERSEDED_VERSION, "dataset_id"].unique()
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
        condition=condition, found=rows["dataset_id"].notna(), has_openalex_record=rows["has_openalex_record"].fillna(False).astype(bool),
        flagged=flagged.where(rows["label"].notna()), hit=pd.Series(hit, index=rows.index).where(rows["label"].notna()),
    )


MEASURE_COLUMNS = [
    "condition", "split", "case_set", "setting", "weight_centrality", "weight_recency", "weight_coherence", "decay", "is_default",
    "measure", "value", "numerator", "denominator", "ci_low", "ci_high", "auc_rank",
]


def _row(condition: str, split: str, case_set: str, settings: ScoringSettings, is_default: bool, measure: str, value: Rate | float) -> dict:
    weights = settings.weights
    rate = value if isinstance(value, Rate) else None
    low, high = rate.interval if rate else (math.nan, math.nan)
    return {
        "condition": condition, "split": split, "case_set": case_set,
        "setting": f"{weights.centrality:.1f}/{weights.recency:.1f}/{weights.coherence:.1f} {settings.decay}",
        "weight_centrality": weights.centrality, "weight_recency": weights.recency, "weight_coherence": weights.coherence,
        "decay": settings.decay, "is_default": is_default, "measure": measure,
        "value": rate.value if rate else value, "numerator": rate.numerator if rate else None,
        "denominator": rate.denominator if rate else None, "ci_low": low, "ci_high": high,
    }


def _auc_ranks(measures: pd.DataFrame) -> pd.Series:
    """Each setting's rank by ROC AUC on the I cases within its condition and split (1 = discriminates best; ties
    share a rank), on every row of the setting (every case set)."""
    auc = measures[(measures["measure"] == "roc_auc") & (measures["case_set"] == INDEPENDENT)]
    ranks = auc.groupby(["condition", "split"])["value"].rank(ascending=False, method="min")
    by_setting = dict(zip(map(tuple, auc[["condition", "split", "setting"]].to_numpy()), ranks))
    return pd.Series([by_setting.get(key) for key in map(tuple, measures[["condition", "split", "setting"]].to_numpy())], index=measures.index, dtype="Float64")


def targets_of(comparisons: pd.DataFrame) -> pd.DataFrame:
    """Each target of TARGETS on the default setting, TARGET_CASE_SET cases, all of them (split all): the figure
    with its counts and intervals, the bound (a number, or the named baseline's figure on the same cases), whether it
    is met and by how much the figure clears (+) or misses (-) the bound. `status` says which of TARGET_STATUSES it
    is: "not measured" when either figure is missing, and "tied at zero" when a rate (not an ROC AUC) must reach a
    baseline that is 0 and the default is 0 too (neither flags a single case, so the tie says nothing either way; a
    new user read it counted as met as gaming the target); `met` is True or False for met or missed, None otherwise.

    Args:
        comparisons: `Evaluation.comparisons` rows (or as stored in reliability_evaluation_baselines).
    """
    chosen = comparisons[(comparisons["split"] == ALL) & (comparisons["case_set"] == TARGET_CASE_SET)].set_index(["condition", "measure", "rule"])
    rows = []
    for condition, measure, bound, kind in TARGETS:
        row = chosen.loc[(condition, measure, DEFAULT)] if (condition, measure, DEFAULT) in chosen.index else pd.Series(dtype=object)
        versus = bound if isinstance(bound, str) else None
        limit = (chosen["value"].get((condition, measure, versus), math.nan)) if versus else bound
        value = row.get("value", math.nan)
        margin = (value - limit if kind == "min" else limit - value) if not (pd.isna(value) or pd.isna(limit)) else math.nan
        is_rate = measure != "roc_auc"
        rows.append({
            "condition": condition, "case_set": TARGET_CASE_SET, "measure": measure,
            "target": f"{'<=' if kind == 'max' else '>='} {versus or f'{bound:.0%}'}",
            "bound": limit, "value": value, "numerator": row.get("numerator"), "denominator": row.get("denominator"),
            "ci_low": row.get("ci_low" if is_rate else "cluster_ci_low"), "ci_high": row.get("ci_high" if is_rate else "cluster_ci_high"),
            # a rate of no case flagged; an ROC AUC of 0 is a ranking (every stale case below every sound one), never a tie
            **_target_outcome(margin, both_zero=is_rate and kind == "min" and versus is not None and limit == 0 and value == 0),
            "margin": margin,
        })
    return pd.DataFrame(rows)


TARGET_STATUSES = ("met", "tied at zero", "missed", "not measured")


def _target_outcome(margin: float, both_zero: bool) -> dict[str, object]:
    """{"met": True | False | None, "status": one of TARGET_STATUSES} for a target cleared by `margin` (NaN when not
    measured)."""
    if pd.isna(margin) or both_zero:
        return {"met": None, "status": "not measured" if pd.isna(margin) else "tied at zero"}
    met = bool(margin >= -1e-12)
    return {"met": met, "status": "met" if met else "missed"}


def comparison_table(
    comparisons: pd.DataFrame, cell: Callable[[pd.Series], str] = comparison_text,
) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The default beside each baseline as a text table, all cases, per condition and headline case set (IF, then I):
    (columns, rows), one row per (condition, case set, measure of COMPARED; base_rate, over every KG edge, under IF
    only), one cell per rule of RULES
    (`cell`, by default `metrics.comparison_text`: the figure, its node counts, and on a baseline's cell the paired
    difference default minus it with its interval; `recon run`'s console table gives a shorter one). Read by the
    asset's metadata, `recon run`'s summary and the report.

    Args:
        comparisons: `Evaluation.comparisons` rows, or reliability_evaluation_baselines as stored.
    """
    chosen = comparisons[(comparisons["split"] == ALL) & comparisons["case_set"].isin([HEADLINE, INDEPENDENT])]
    rows = []
    for condition in CONDITIONS:
        for case_set in (HEADLINE, INDEPENDENT):
            group = chosen[(chosen["condition"] == condition) & (chosen["case_set"] == case_set)].set_index(["measure", "rule"])
            rows += [
                (condition, case_set, measure, *(cell(group.loc[(measure, rule)]) if (measure, rule) in group.index else "n/a" for rule in RULES))
                for measure in COMPARED if not group.empty and (measure != "base_rate" or case_set == HEADLINE)
            ]
    return ("condition", "cases", "measure", *RULES), rows


def iter_headline(measures: pd.DataFrame, case_set: str = HEADLINE) -> Iterator[tuple[str, str, pd.Series]]:
    """(condition, measure, row) of the default setting over all cases of `case_set`, in MEASURES order."""
    default = measures[measures["is_default"] & (measures["split"] == ALL) & (measures["case_set"] == case_set)]
    for condition in CONDITIONS:
        for measure in MEASURES:
            found = default[(default["condition"] == condition) & (default["measure"] == measure)]
            if len(found):
                yield condition, measure, found.iloc[0]


def online_cases(cases: pd.DataFrame) -> dict[str, int]:
    """How many cases the online figures run over, per headline case set (IF, I): the cases found in the KG whose
    publication has a citation record as of as_of (`record_as_of`); every other case is offline-only."""
    online = cases[(cases["condition"] == "online") & cases["found"].astype(bool) & cases["has_openalex_record"].astype(bool)]
    return {case_set: int(online["grade"].isin(CASE_SETS[case_set]).sum()) for case_set in (HEADLINE, INDEPENDENT)}
