"""The evaluation's pure parts: the labelled cases and their checks, the measures (rates with Wilson intervals, ROC
AUC), the baselines, the subgroups, the cluster bootstrap over dataset nodes, the targets, the settings grid, the
offline condition and how cases meet KG edges."""

import csv
import math

import numpy as np
import pandas as pd
import pytest

from recon_assets.evaluation.cases import COLUMNS, GRADES, LABELLED_EDGES, VERSION_STATUSES, dataset_key, load_cases
from recon_assets.evaluation.baselines import AGE_ONLY, FLAG_EVERYTHING, LIFECYCLE_ONLY, baseline_rules
from recon_assets.evaluation.measure import compare_rules, flag_sets, match_cases, online_cases, record_as_of, targets_of, without_openalex
from recon_assets.evaluation.metrics import (
    cluster_draws,
    cluster_weights,
    node_rate,
    percentile_interval,
    Rate,
    roc_auc,
    settings_grid,
    weight_grid,
    weighted_rates,
    weighted_roc_auc,
)
from recon_assets.reliability.settings import ScoringSettings


def test_the_shipped_set_has_graded_real_cases_in_exclusive_classes_each_with_a_source():
    cases = load_cases()
    assert set(cases["grade"]) <= set(GRADES) and set(cases["version_status"]) <= set(VERSION_STATUSES)
    assert cases["grade_reason"].notna().all()
    graded = cases[cases["grade"] != "C"]
    assert set(graded["grade"]) == {"F", "I"}  # both kinds of headline case exist (their counts are the data's)
    assert graded["label_source"].notna().all() and graded["label_source_url"].notna().all()
    # a held-out part in every class that has graded cases
    held_out = graded.groupby("class")["split"].apply(lambda split: (split == "held_out").mean())
    assert (held_out > 0).all()
    # the earlier circular cases are kept, marked C
    circular = cases["note"].fillna("").str.startswith("circular")
    assert circular.any() and (cases.loc[circular, "grade"] == "C").all()


def _write(tmp_path, rows: list[dict]):
    path = tmp_path / "cases.csv"
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS)
        writer.writeheader()
        for row in rows:
            writer.writerow({column: "" for column in COLUMNS} | row)
    return path


GOOD = {
    "labels_version": "9", "case_id": "s-1", "class": "superseded_version", "split": "tuning", "grade": "I",
    "grade_reason": "a please-cite page", "version_status": "replaced", "dataset_doi": "10.5067/GPM/IMERGDF/DAY/06", "publication_doi": "https://doi.org/10.3390/RS10030388",
    "publication_year": "2018", "label_source": "a notice",
}


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([GOOD | {"class": "stale"}], "unknown class"),
        ([GOOD | {"split": "test"}], "unknown split"),
        ([GOOD | {"grade": "independent"}], "unknown grade"),
        ([GOOD | {"grade": "c"}], "unknown grade"),
        ([GOOD | {"grade": ""}], "no grade"),
        ([GOOD | {"version_status": "superseded"}], "unknown version_status"),
        ([GOOD | {"version_status": ""}], "no version_status"),
        ([GOOD | {"grade_reason": ""}], "no grade_reason"),
        ([GOOD | {"publication_year": "MMXX"}], "publication_year not a year"),
        ([GOOD | {"dataset_doi": "not a doi"}], "dataset_doi not a DOI"),
        ([GOOD | {"dataset_doi": ""}], "neither dataset_doi nor dataset_short_name"),
        ([GOOD | {"label_source": ""}], "no label_source"),
        ([GOOD, GOOD], "duplicate case_id"),
        # one edge in two spellings, labelled twice
        ([GOOD, GOOD | {"case_id": "s-2", "publication_doi": "10.3390/rs10030388"}], "edge labelled by two cases"),
        ([GOOD, GOOD | {"case_id": "s-2", "labels_version": "8"}], "labels_version values"),
    ],
)
def test_a_bad_case_file_is_refused_naming_the_rows(tmp_path, rows, message):
    with pytest.raises(ValueError, match=message):
        load_cases(_write(tmp_path, rows))


def test_a_good_case_file_gives_canonical_keys(tmp_path):
    cases = load_cases(_write(tmp_path, [GOOD, GOOD | {"case_id": "s-2", "dataset_doi": "", "dataset_short_name": "MOD13Q1", "dataset_version": "005"}]))
    assert cases["dataset_key"].tolist() == ["10.5067/gpm/imergdf/day/06", "MOD13Q1|5"]
    assert cases["publication_key"].tolist() == ["10.3390/rs10030388"] * 2
    assert cases["grade"].tolist() == ["I", "I"] and cases["publication_year"].tolist() == [2018, 2018]


@pytest.mark.parametrize(
    ("doi", "name", "version", "key"),
    [("10.5067/X", "X", "1", "10.5067/x"), (None, "mod13q1", "V005", "MOD13Q1|5"), (None, "MOD13", None, "MOD13|"),
     (None, None, "1", None), (None, "GPM_3IMERGDF", "05", "GPM_3IMERGDF|5")],
)
def test_dataset_key(doi, name, version, key):
    assert dataset_key(doi, name, version) == key


def test_cases_meet_kg_edges_by_dataset_doi_or_by_short_name_and_version():
    edges = pd.DataFrame({
        "dataset_id": ["d1", "d2", "d3"], "publication_id": ["p1", "p2", "p3"],
        "dataset_doi": ["10.5067/a", None, None], "dataset_short_name": ["A", "MOD13Q1", "B"],
        "dataset_version": ["1", "V005", None], "publication_doi": ["10.1/p1", "10.1/p2", "10.1/p3"],
    })
    cases = pd.DataFrame({
        "case_id": ["c1", "c2", "c3", "c4"], "dataset_key": ["10.5067/a", "MOD13Q1|5", "MOD13Q1|6", "A|1"],
        "publication_key": ["10.1/p1", "10.1/p2", "10.1/p2", "10.1/p1"],
    })
    matched = match_cases(cases, edges).set_index("case_id")
    assert matched.loc["c1", "dataset_id"] == "d1" and matched.loc["c2", "dataset_id"] == "d2"
    assert pd.isna(matched.loc["c3", "dataset_id"])  # another version of the dataset: not this edge
    assert matched.loc["c4", "dataset_id"] == "d1"  # a KG dataset answers to its short name and version too


def test_offline_takes_away_every_openalex_input():
    edges = pd.DataFrame({
        "publication_doi": ["10.1/a", None], "openalex_status": ["found", None], "cited_by_count": [10, None],
        "openalex_retracted": [True, False], "percentile_low": [0.9, None], "crossref_notice_dois": [["10.1/n"], None],
    })
    offline = without_openalex(edges)
    assert offline.loc[0, "openalex_status"] == "error" and pd.isna(offline.loc[1, "openalex_status"])
    assert offline["cited_by_count"].isna().all() and not offline["openalex_retracted"].any()
    assert offline["percentile_low"].isna().all() and offline["crossref_notice_dois"].isna().all()


@pytest.mark.parametrize(
    ("numerator", "denominator", "low", "high"),
    [(21, 22, 0.7820, 0.9919), (0, 10, 0.0, 0.2775), (5, 10, 0.2366, 0.7634)],
)
def test_rates_carry_their_wilson_interval(numerator, denominator, low, high):
    rate = Rate(numerator, denominator)
    assert rate.value == numerator / denominator
    assert rate.interval == pytest.approx((low, high), abs=1e-4)
    assert str(rate).startswith(f"{rate.value:.0%} ({numerator}/{denominator}; 95% CI")


def test_a_rate_without_cases_is_nan_never_0_or_1():
    rate = Rate(0, 0)
    assert math.isnan(rate.value) and all(math.isnan(end) for end in rate.interval) and str(rate) == "n/a (0 cases)"
    with pytest.raises(ValueError):
        Rate(3, 2)


@pytest.mark.parametrize(
    ("sound", "stale", "auc"),
    [([0.9, 0.8], [0.1, 0.2], 1.0), ([0.1, 0.2], [0.9, 0.8], 0.0), ([0.5, 0.5], [0.5, 0.5], 0.5), ([0.9, 0.3], [0.5], 0.5), ([], [0.1], np.nan)],
)
def test_roc_auc_is_the_chance_a_sound_edge_scores_above_a_stale_one(sound, stale, auc):
    assert roc_auc(np.array(sound), np.array(stale)) == pytest.approx(auc, nan_ok=True)


def test_the_grid_has_66_weight_triples_each_summing_to_1_and_198_settings():
    grid = weight_grid()
    assert len(grid) == 66 and all(math.fsum((w.centrality, w.recency, w.coherence)) == 1.0 for w in grid)
    settings = settings_grid(ScoringSettings(lifecycle_penalty=0.2))
    assert len(settings) == 198 and all(s.lifecycle_penalty == 0.2 for s in settings)
    assert ScoringSettings(lifecycle_penalty=0.2) in settings
    with pytest.raises(ValueError):
        weight_grid(3)


# --- baselines, subgroups, the cluster bootstrap and the targets (issue 20) -------------------------------------------


@pytest.mark.parametrize(
    ("superseded", "retracted", "age", "lifecycle", "age_only"),
    [
        (True, False, 1.0, True, False),  # a replaced version: lifecycle flags it, a recent paper passes the age rule
        (False, True, 0.0, True, False),  # a retraction counts for the lifecycle rule
        (False, False, 3.0, False, True),  # older than 2 years: the age rule flags it
        (False, False, 2.0, False, False),  # exactly 2 years is not older than 2
        (False, False, np.nan, False, False),  # an unknown year is neither flagged nor aged
    ],
)
def test_baseline_rules_flag_and_order_each_edge(superseded, retracted, age, lifecycle, age_only):
    rules = baseline_rules(pd.DataFrame({"superseded_as_of": [superseded], "is_retracted": [retracted], "age": [age]}))
    assert rules[LIFECYCLE_ONLY][0][0] == lifecycle and rules[LIFECYCLE_ONLY][1][0] == (0.0 if lifecycle else 1.0)
    assert rules[AGE_ONLY][0][0] == age_only and rules[AGE_ONLY][1][0] == -np.nan_to_num(age)
    assert rules[FLAG_EVERYTHING][0][0] and rules[FLAG_EVERYTHING][1][0] == 0.0


def _subgroup_cases() -> pd.DataFrame:
    return pd.DataFrame({
        "class": ["foundational", "foundational", "current_version", "foundational", "superseded_version", "superseded_version", "disputed"],
        "version_status": ["replaced", "current", "current", "current", "replaced", "replaced", "unknown"],
        "case_age": [15.0, 12.0, 11.0, 4.0, 2.0, 8.0, 1.0],
    })


def test_flag_sets_define_the_subgroups_that_separate_the_signals():
    sets = flag_sets(_subgroup_cases(), np.array([True, False, True, False, True, True, False]))
    members = {measure: np.flatnonzero(in_set).tolist() for measure, (in_set, _) in sets.items()}
    assert members["foundational_replaced_flagged"] == [0]
    assert members["old_current_flagged"] == [1, 2]  # sound, >= 10 years, current: not the 4-year-old foundational paper
    assert members["recent_replaced_flagged"] == [4]  # stale, <= 3 years, replaced: not the disputed paper of unknown version
    assert members["flag_precision"] == [0, 2, 4, 5] and sets["flag_precision"][1][[0, 2, 4, 5]].tolist() == [False, False, True, True]


def test_cluster_weights_draw_whole_nodes_with_a_fixed_seed():
    clusters = np.array(["a", "a", "b", "c", "c", "c"])
    weights = cluster_weights(clusters, resamples=50, seed=1)
    assert weights.shape == (50, 6)
    assert (weights[:, 0] == weights[:, 1]).all() and (weights[:, 3] == weights[:, 5]).all()  # a node's cases move together
    assert (weights[:, [0, 2, 3]].sum(axis=1) == 3).all()  # as many nodes drawn as there are
    assert (cluster_weights(clusters, resamples=50, seed=1) == weights).all()
    with pytest.raises(ValueError, match="cluster"):
        cluster_weights(np.array(["a", None], dtype=object))


def test_resampling_nodes_gives_a_wider_interval_than_resampling_cases_when_a_node_moves_together():
    """10 nodes of 6 cases each; every case of a node is a hit or none is. Resampled per case, 60 near-independent
    trials; resampled per node, 10: the node interval must be wider, and the Wilson interval (per case) narrower."""
    nodes = np.repeat(np.arange(10), 6)
    hit = np.repeat(np.arange(10) % 2 == 0, 6)
    in_set = np.ones(60, dtype=bool)
    by_node = percentile_interval(weighted_rates(cluster_weights(nodes), in_set, hit))
    by_case = percentile_interval(weighted_rates(cluster_weights(np.arange(60)), in_set, hit))
    assert by_node[1] - by_node[0] > 1.5 * (by_case[1] - by_case[0])
    low, high = Rate(30, 60).interval
    assert high - low < by_node[1] - by_node[0]
    assert node_rate(nodes, in_set, hit) == Rate(5, 10)


@pytest.mark.parametrize(
    ("units", "nodes", "seed"),
    [(1, 1, 0), (6, 3, 1), (60, 10, 2), (400, 37, 3), (3000, 300, 4), (50, 50, 5)],
)
def test_per_node_bootstrap_sums_equal_the_per_unit_weights_to_the_last_digit(units, nodes, seed):
    """Issue 23 (suite time): compare_rules sums each node's units once (`ClusterResamples`) instead of weighting every
    unit in every resample. Same draws, and every rate, ROC AUC, interval and node count equal to the last digit to
    the per-unit definitions (`weighted_rates`, `weighted_roc_auc`, `node_rate` over `cluster_weights`), ties and
    resamples missing a group included."""
    rng = np.random.default_rng(seed)
    clusters = rng.integers(0, nodes, units).astype(str)
    draws = cluster_draws(clusters, resamples=300, seed=seed)
    weights = cluster_weights(clusters, resamples=300, seed=seed)
    assert np.array_equal(draws.weights(), weights)
    for _ in range(5):
        in_set, hit = rng.random(units) < 0.3, rng.random(units) < 0.5
        rates = draws.rates(in_set, hit)
        assert np.array_equal(rates, weighted_rates(weights, in_set, hit), equal_nan=True)
        assert percentile_interval(rates) == percentile_interval(weighted_rates(weights, in_set, hit))
        assert draws.node_rate(in_set, hit) == node_rate(clusters, in_set, hit)
        scores = np.round(rng.random(units), 1)  # ties count half
        sound = rng.random(units) < 0.4
        stale = ~sound & (rng.random(units) < 0.5)
        assert np.array_equal(draws.roc_auc(scores, sound, stale), weighted_roc_auc(weights, scores, sound, stale), equal_nan=True)


@pytest.mark.parametrize(
    ("hits", "numerator"),
    [([True, True, False], 1), ([True, False], 0), ([False, False, True], 0)],  # more than half; a tie is not a hit
)
def test_a_node_counts_when_more_than_half_of_its_cases_meet_the_measure(hits, numerator):
    assert node_rate(np.zeros(len(hits)), np.ones(len(hits), dtype=bool), np.array(hits)) == Rate(numerator, 1)


@pytest.mark.parametrize(
    ("sound", "stale"),
    [([0.9, 0.4, 0.5], [0.1, 0.5, 0.7]), ([0.5, 0.5], [0.5]), ([1.0, 0.2, 0.2, 0.3], [0.2, math.inf, 0.0]),
     ([0.3, math.nan], [0.1]), ([-5.0, -6.0, -1.0], [-12.0, -1.0]), (np.round(np.linspace(0, 1, 57), 1), np.round(np.linspace(1, 0, 41), 1))],
)
def test_roc_auc_is_mann_whitney_u_over_the_pairs_to_the_last_digit(sound, stale):
    """Issue 23 (suite time): roc_auc takes U from the average ranks itself, without mannwhitneyu's p-value; the same
    float as mannwhitneyu's statistic / (n1 * n2), ties, infinities and NaN (NaN out) included."""
    from scipy.stats import mannwhitneyu

    expected = mannwhitneyu(sound, stale).statistic / (len(sound) * len(stale))
    assert np.array_equal([roc_auc(np.array(sound), np.array(stale))], [expected], equal_nan=True)


def test_weighted_roc_auc_with_unit_weights_is_the_roc_auc():
    scores = np.array([0.9, 0.4, 0.5, 0.1, 0.5, 0.7])
    sound, stale = np.array([1, 1, 1, 0, 0, 0], dtype=bool), np.array([0, 0, 0, 1, 1, 1], dtype=bool)
    assert weighted_roc_auc(np.ones((1, 6)), scores, sound, stale)[0] == pytest.approx(roc_auc(scores[sound], scores[stale]))
    assert math.isnan(weighted_roc_auc(np.array([[1, 1, 1, 0, 0, 0]]), scores, sound, stale)[0])  # no stale case drawn


def _rule_columns(flags: dict[str, list[bool]], scores: dict[str, list[float]]) -> dict[str, list]:
    return {f"flagged/{rule}": flag for rule, flag in flags.items()} | {f"score/{rule}": score for rule, score in scores.items()}


def test_compare_rules_puts_each_baseline_beside_the_default_with_a_paired_difference():
    """Four nodes: two replaced versions whose papers are superseded, one replaced version's reference paper
    (foundational), one current version's old foundational paper. The default flags only the superseded; the
    lifecycle rule flags everything on a replaced version, so it flags the reference paper too."""
    classes = ["superseded_version"] * 4 + ["foundational", "foundational"]
    cases = pd.DataFrame({
        "dataset_id": ["n1", "n1", "n2", "n2", "n3", "n4"], "class": classes,
        "version_status": ["replaced"] * 5 + ["current"], "case_age": [5.0, 6.0, 1.0, 2.0, 12.0, 14.0],
        **_rule_columns(
            {"default": [True] * 4 + [False, False], "lifecycle_only": [True] * 5 + [False], "age_only": [True, True, False, False, True, True],
             "flag_everything": [True] * 6},
            {"default": [0.2, 0.2, 0.3, 0.3, 0.8, 0.9], "lifecycle_only": [0.0] * 5 + [1.0], "age_only": [-5, -6, -1, -2, -12, -14],
             "flag_everything": [0.0] * 6},
        ),
    })
    edges = cases[["dataset_id", *[c for c in cases.columns if c.startswith("flagged/")]]]
    rows = compare_rules(cases, edges, resamples=200, seed=3).set_index(["measure", "rule"])
    assert set(rows.index.get_level_values("rule")) == {"default", "lifecycle_only", "age_only", "flag_everything"}
    catch = rows.loc[("foundational_false_flag", "lifecycle_only")]
    assert (catch["numerator"], catch["denominator"], catch["node_numerator"], catch["node_denominator"]) == (1, 2, 1, 2)
    assert catch["difference"] == pytest.approx(-0.5) and catch["difference_ci_low"] <= -0.5 <= catch["difference_ci_high"]
    assert rows.loc[("foundational_replaced_flagged", "lifecycle_only"), "value"] == 1.0
    assert rows.loc[("old_current_flagged", "age_only"), "value"] == 1.0 and rows.loc[("old_current_flagged", "default"), "value"] == 0.0
    assert rows.loc[("recent_replaced_flagged", "age_only"), "value"] == 0.0
    assert rows.loc[("roc_auc", "default"), "value"] == 1.0 and rows.loc[("roc_auc", "flag_everything"), "value"] == 0.5
    assert rows.loc[("roc_auc", "default"), "cluster_ci_low"] <= 1.0 and pd.isna(rows.loc[("roc_auc", "default"), "numerator"])
    assert rows.xs("default", level="rule")["difference"].isna().all()
    assert (rows["resamples"] == 200).all()


def test_targets_compare_with_a_number_or_a_baseline_and_say_by_how_much():
    def row(measure, rule, value):
        return {"condition": "offline", "split": "all", "case_set": "I", "measure": measure, "rule": rule, "value": value,
                "numerator": None, "denominator": None, "ci_low": None, "ci_high": None, "cluster_ci_low": None, "cluster_ci_high": None}
    comparisons = pd.DataFrame([
        row("foundational_false_flag", "default", 0.35), row("staleness_catch", "default", 0.80),
        row("staleness_catch", "lifecycle_only", 0.90), row("roc_auc", "default", 0.9), row("roc_auc", "lifecycle_only", 0.8),
    ])
    targets = targets_of(comparisons).set_index(["condition", "measure"])
    assert targets.loc[("offline", "foundational_false_flag"), "met"] is False
    assert targets.loc[("offline", "foundational_false_flag"), "margin"] == pytest.approx(-0.05)
    assert targets.loc[("offline", "staleness_catch"), "met"] is False and targets.loc[("offline", "staleness_catch"), "bound"] == 0.9
    assert targets.loc[("offline", "roc_auc"), "met"] is True
    assert targets.loc[("online", "flag_precision"), "met"] is None  # not measured is neither met nor missed
    assert targets.loc[("online", "flag_precision"), "status"] == "not measured"
    assert targets.loc[("offline", "roc_auc"), "status"] == "met" and targets.loc[("offline", "staleness_catch"), "status"] == "missed"


def test_a_rate_tied_with_a_baseline_at_zero_is_neither_met_nor_missed_but_tied_at_zero():
    """New-user finding: 'offline staleness_catch 0% against >= lifecycle_only 0%' was counted as met; neither rule
    flags a case, so the tie says nothing. A tie above zero is met, a number target at zero is judged as usual."""
    def row(measure, rule, value):
        return {"condition": "offline", "split": "all", "case_set": "I", "measure": measure, "rule": rule, "value": value,
                "numerator": None, "denominator": None, "ci_low": None, "ci_high": None, "cluster_ci_low": None, "cluster_ci_high": None}
    tied = targets_of(pd.DataFrame([
        row("staleness_catch", "default", 0.0), row("staleness_catch", "lifecycle_only", 0.0),
        row("foundational_false_flag", "default", 0.0),
    ])).set_index(["condition", "measure"])
    assert tied.loc[("offline", "staleness_catch"), "status"] == "tied at zero" and tied.loc[("offline", "staleness_catch"), "met"] is None
    assert tied.loc[("offline", "foundational_false_flag"), "status"] == "met"  # at most 30 %: 0 % is met
    above = targets_of(pd.DataFrame([row("staleness_catch", "default", 0.5), row("staleness_catch", "lifecycle_only", 0.5)]))
    assert above.set_index(["condition", "measure"]).loc[("offline", "staleness_catch"), "status"] == "met"
    # hostile pass: an ROC AUC of 0 is a ranking (every stale case below every sound one), not "no case flagged"
    ranked = targets_of(pd.DataFrame([row("roc_auc", "default", 0.0), row("roc_auc", "lifecycle_only", 0.0)]))
    assert ranked.set_index(["condition", "measure"]).loc[("offline", "roc_auc"), "status"] == "met"


def test_online_counts_a_case_only_from_the_day_its_citation_record_can_be_read():
    """A count composed from a public page (no years) is a citation record only from the day it was seen: before it the
    case is offline-only, as one OpenAlex never answered for (issue 20); an OpenAlex record with years keeps its rule."""
    seen, fetched = pd.Timestamp("2026-12-02", tz="UTC"), pd.Timestamp("2026-03-01", tz="UTC")
    edges = pd.DataFrame({
        "openalex_status": ["found", "found", "found", "error", None],
        "cited_by_count": [4459, 31, 0, None, None],
        "counts_by_year": [None, '[{"year": 2025, "cited_by_count": 31}]', "[]", None, None],
        "openalex_fetched_at": [seen, fetched, fetched, None, None],
    })
    assert record_as_of(edges, pd.Timestamp("2026-11-29").date()).tolist() == [False, True, True, False, False]
    assert record_as_of(edges, pd.Timestamp("2026-12-02").date()).tolist() == [True, True, True, False, False]
    assert record_as_of(without_openalex(edges.assign(publication_doi="10.1/x")), pd.Timestamp("2026-12-02").date()).tolist() == [False] * 5


def test_the_online_figures_say_over_how_many_cases_they_run():
    cases = pd.DataFrame({
        "condition": ["online"] * 5 + ["offline"],
        "grade": ["I", "I", "F", "C", "I", "I"],
        "found": [True, True, True, True, False, True],
        "has_openalex_record": [True, False, True, True, True, False],
    })
    # found, with a record, I or F; C stays apart and a case not in the KG is not measured
    assert online_cases(cases) == {"IF": 2, "I": 1}
