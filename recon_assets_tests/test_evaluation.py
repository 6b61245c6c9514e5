"""The evaluation's pure parts: the labelled cases and their checks, the measures (rates with Wilson intervals, ROC
AUC), the settings grid, the offline condition and how cases meet KG edges."""

import csv
import math

import numpy as np
import pandas as pd
import pytest

from recon_assets.evaluation.cases import COLUMNS, GRADES, LABELLED_EDGES, VERSION_STATUSES, dataset_key, load_cases
from recon_assets.evaluation.measure import match_cases, without_openalex
from recon_assets.evaluation.metrics import Rate, roc_auc, settings_grid, weight_grid
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
