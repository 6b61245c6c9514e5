"""The evaluation's pure parts: rates, the settings grid, the labelled cases and the worked cases."""

import json
import math
import re
from datetime import date

import numpy as np
import pandas as pd
import pytest

from recon_assets.evaluation.ablation import evaluate, is_hit, judge_pairs, match_edge_cases, stored_scoring, worked_case_inputs
from recon_assets.evaluation.cases import KINDS, load_cases, load_pair_texts
from recon_assets.evaluation.metrics import (
    AGE_ONLY_SETTING,
    DEFAULT_SETTING,
    Rate,
    contradiction_rate,
    flagged_rate,
    settings_grid,
    superseded_precision,
    weight_grid,
)
from recon_assets.reliability.scoring import ScoringSettings, Weights, score_edges

CASES = load_cases()
EVERY_CASE = "*"  # a case_id of the tables below: change the column on every row


@pytest.mark.parametrize(
    "rate, value, text",
    [
        (Rate(21, 22), 21 / 22, "95% (21/22)"),
        (Rate(0, 4), 0.0, "0% (0/4)"),
        (Rate(0, 0), math.nan, "n/a (0 cases)"),
    ],
)
def test_rate_value_is_nan_without_cases(rate, value, text):
    assert (math.isnan(rate.value) and math.isnan(value)) or rate.value == value
    assert str(rate) == text


@pytest.mark.parametrize("numerator, denominator", [(3, 2), (-1, 2)])
def test_rate_rejects_impossible_fractions(numerator, denominator):
    with pytest.raises(ValueError, match="numerator"):
        Rate(numerator, denominator)


@pytest.mark.parametrize(
    "labels, expected",
    [
        (["DECLINING", "SUPERSEDED", "CURRENT", "FOUNDATIONAL"], Rate(2, 4)),
        ([], Rate(0, 0)),
        (["FOUNDATIONAL"], Rate(0, 1)),
        (pd.Series(["DECLINING", None, "CURRENT"], dtype="string[pyarrow]"), Rate(1, 3)),  # a scored label column
        (iter(["SUPERSEDED", "CURRENT"]), Rate(1, 2)),
    ],
)
def test_flagged_rate_counts_declining_and_superseded(labels, expected):
    assert flagged_rate(labels) == expected


@pytest.mark.parametrize(
    "verdicts, expected",
    [(["CONTRADICTED", "SUPERSEDED", "UNVERIFIED"], Rate(1, 3)), ([], Rate(0, 0)), (["SUPPORTED"], Rate(0, 1))],
)
def test_contradiction_rate_counts_only_contradicted(verdicts, expected):
    assert contradiction_rate(verdicts) == expected


@pytest.mark.parametrize(
    "labels, known, expected",
    [
        (["SUPERSEDED", "SUPERSEDED", "DECLINING"], [True, False, True], Rate(1, 2)),
        (["DECLINING"], [True], Rate(0, 0)),
    ],
)
def test_superseded_precision_is_over_every_superseded_label(labels, known, expected):
    assert superseded_precision(labels, known) == expected


def test_superseded_precision_rejects_unequal_lengths():
    with pytest.raises(ValueError, match="same length"):
        superseded_precision(["SUPERSEDED"], [True, False])


def test_weight_grid_has_66_triples_summing_exactly_to_one():
    grid = weight_grid()
    assert len(grid) == 66 == len(set(grid))
    assert all(math.fsum([w.centrality, w.recency, w.coherence]) == 1.0 for w in grid)
    assert all(round(value * 10) == value * 10 for w in grid for value in (w.centrality, w.recency, w.coherence))


@pytest.mark.parametrize("setting", [DEFAULT_SETTING, AGE_ONLY_SETTING, (Weights(1.0, 0.0, 0.0), "none"), (Weights(0.0, 0.0, 1.0), "log")])
def test_settings_grid_has_198_settings_including(setting):
    grid = settings_grid()
    assert len(grid) == 198 == len(set(grid))
    assert setting in grid


@pytest.mark.parametrize("step", [0, 3])
def test_weight_grid_rejects_steps_not_dividing_one(step):
    with pytest.raises(ValueError, match="divide"):
        weight_grid(step)


def test_labelled_cases_are_versioned_sourced_and_cover_every_kind():
    assert CASES["labels_version"].nunique() == 1
    assert CASES["source"].notna().all()
    assert set(CASES["kind"]) == set(KINDS)


@pytest.mark.parametrize(
    "case_id, column, value, message, row",
    [
        ("a-01", "source", "", "no source", "a-01"),
        ("a-01", "source", "  ", "no source", "a-01"),  # whitespace only is no source
        ("a-01", "kind", "guessed", "unknown kind", "a-01"),
        ("a-01", "labels_version", "2", "labels_version", "2"),
        # second hostile pass, finding 2: a blank labels_version is named by row, on one row or on all
        ("a-01", "labels_version", "", "no labels_version", "a-01 (line 2)"),
        (EVERY_CASE, "labels_version", " ", "no labels_version", "e-05"),
        ("a-01", "case_id", "", "no case_id", "line 2"),
        ("b-01", "expected", "known_foundational", "expected does not fit the kind", "b-01"),
        ("e-01", "newer_publication_doi", "", "newer_publication_doi missing", "e-01"),
        ("e-01", "publication_doi", "", "publication_doi missing", "e-01"),
        ("a-01", "publication_doi", "not a doi", "not a DOI", "a-01"),
        ("c-1", "inputs", "{not json", "inputs", "c-1"),
        ("c-1", "inputs", '{"as_of": "2026-01-01"}', "publication_year", "c-1"),
        ("c-1", "inputs", "[1, 2]", "inputs", "c-1"),
        ("c-1", "publication_doi", "10.1/x", "publication_doi given", "c-1"),
    ],
)
def test_load_cases_rejects_bad_rows_naming_file_and_row(tmp_path, case_id, column, value, message, row):
    broken = CASES.copy()
    broken.loc[slice(None) if case_id == EVERY_CASE else broken["case_id"] == case_id, column] = value
    _assert_refused(broken, tmp_path, message, row)


def _assert_refused(cases: pd.DataFrame, tmp_path, message: str, row: str) -> None:
    """load_cases refuses `cases`, written to a file, with `message`, naming the file and `row`."""
    path = tmp_path / "cases.csv"
    cases.to_csv(path, index=False)
    with pytest.raises(ValueError, match=re.escape(message)) as raised:
        load_cases(path)
    assert str(path) in str(raised.value) and row in str(raised.value)


@pytest.mark.parametrize(
    "key, value, message",
    [
        # second hostile pass, finding 2: each crashed evaluate or silently changed the figures
        ("coherence", "0.8", "coherence not a number in [0, 1]"),
        ("coherence", 5, "coherence not a number in [0, 1]"),
        ("coherence", True, "coherence not a number in [0, 1]"),
        ("publication_year", 2003.7, "publication_year not an integer in 1800..2100"),
        ("publication_year", "2003", "publication_year not an integer in 1800..2100"),
        ("publication_year", 1799, "publication_year not an integer in 1800..2100"),
        ("cited_by_count", -5, "cited_by_count not an integer >= 0"),
        ("cited_by_count", "10000", "cited_by_count not an integer >= 0"),
        ("coherence_status", "whatever", "coherence_status not one of SUPPORTED, CONTRADICTED, SUPERSEDED, UNVERIFIED"),
        ("as_of", "20260101", "as_of not a YYYY-MM-DD date"),
        ("as_of", "2026-W48-7", "as_of not a YYYY-MM-DD date"),
        ("as_of", "2026-02-30", "as_of not a YYYY-MM-DD date"),
        ("as_of", 20260101, "as_of not a YYYY-MM-DD date"),
    ],
)
def test_load_cases_rejects_worked_case_inputs_of_the_wrong_type_or_range(tmp_path, key, value, message):
    broken = CASES.copy()
    worked = broken["case_id"] == "c-1"
    broken.loc[worked, "inputs"] = json.dumps(json.loads(broken.loc[worked, "inputs"].iloc[0]) | {key: value})
    _assert_refused(broken, tmp_path, message, "c-1 (line")


@pytest.mark.parametrize(
    "copied, changes, message, row",
    [
        # second hostile pass, finding 3: one edge, two labels (canonical DOIs compared)
        ("a-01", {"case_id": "a-99", "publication_doi": "https://doi.org/10.3390/MIN11050474"}, "edge labelled by two cases", "a-99"),
        ("a-01", {"case_id": "d-99", "kind": "foundational_work", "expected": "known_foundational"},
         "edge labelled by two cases with different expectations", "a-01"),
        # a retracted work with no dataset DOI labels every edge of its publication, this one too
        ("b-01", {"case_id": "a-99", "kind": "superseded_dataset_version", "dataset_doi": "10.5067/ASTER/AST_05.003"},
         "edge labelled by two cases", "a-99"),
        ("e-01", {"newer_publication_doi": "doi:10.5194/AMTD-6-1361-2013"}, "newer_publication_doi is the publication_doi", "e-01"),
        ("e-02", {"case_id": "e-99", "publication_doi": "https://doi.org/10.5194/AMT-10-3133-2017"}, "pair labelled by two cases", "e-99"),
    ],
)
def test_load_cases_rejects_clashing_labels(tmp_path, copied, changes, message, row):
    case = CASES[CASES["case_id"] == copied].assign(**changes)
    kept = CASES if "case_id" in changes else CASES[CASES["case_id"] != copied]
    _assert_refused(pd.concat([kept, case], ignore_index=True), tmp_path, message, row)


@pytest.mark.parametrize("text, message", [("", "empty"), (",".join(CASES.columns) + "\n", "no case")])
def test_load_cases_rejects_files_without_cases(tmp_path, text, message):
    path = tmp_path / "cases.csv"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        load_cases(path)


def test_every_judged_pair_has_texts_or_says_why_not():
    texts = set(load_pair_texts()["doi"])
    pairs = CASES[CASES["kind"] == "contradicted_pair"]
    with_texts = pairs["publication_doi"].isin(texts) & pairs["newer_publication_doi"].isin(texts)
    assert with_texts.sum() >= 4
    assert pairs.loc[~with_texts, "source"].str.contains("not stored").all()


@pytest.mark.parametrize(
    "case_id, label, reliability",
    [("c-1", "FOUNDATIONAL", (0.61, 0.64)), ("c-2", "SUPERSEDED", (0.31, 0.33))],
)
def test_worked_cases_of_domain_md_hit_under_the_default(case_id, label, reliability):
    rows, as_of = worked_case_inputs(CASES)
    scored = score_edges(rows, as_of=as_of).set_index("case_id").loc[case_id]
    assert scored["label"] == label
    assert reliability[0] <= scored["reliability"] <= reliability[1]


@pytest.mark.parametrize(
    "expected, got, hit",
    [
        ("known_superseded", "DECLINING", True),
        ("known_superseded", "CURRENT", False),
        ("known_foundational", "FOUNDATIONAL", True),
        ("known_foundational", "SUPERSEDED", False),
        ("known_contradicted", "CONTRADICTED", True),
        ("known_contradicted", "SUPERSEDED", False),
        ("known_contradicted", "NOT_JUDGED", pd.NA),
        ("known_superseded", None, pd.NA),
    ],
)
def test_is_hit(expected, got, hit):
    assert is_hit(expected, got) is hit


def test_cases_missing_from_the_kg_are_kept_as_not_found():
    edges = pd.DataFrame(
        {"dataset_id": ["d1"], "publication_id": ["p1"], "dataset_doi": ["10.5067/ASTER/AST_05.003"], "publication_doi": ["10.3390/RS11121408"]}
    )
    matched = match_edge_cases(CASES, edges).set_index("case_id")
    assert matched.loc["a-02", "dataset_id"] == "d1"  # matched case-insensitively on both DOIs
    assert matched["dataset_id"].isna().sum() == len(matched) - 1
    assert {"b-01", "b-02"} <= set(matched.index)


@pytest.mark.parametrize(
    "case_doi, kg_doi",
    [
        ("https://doi.org/10.3390/RS12081239", "10.3390/rs12081239"),
        ("doi:10.3390/rs12081239", "10.3390/RS12081239"),
        ("10.3390/rs12081239", "https://doi.org/10.3390/rs12081239."),
    ],
)
def test_edge_cases_match_on_canonical_dois(case_doi, kg_doi):
    cases = CASES[CASES["case_id"] == "a-04"].assign(publication_doi=case_doi)
    edges = pd.DataFrame({"dataset_id": ["d1"], "publication_id": ["p1"], "dataset_doi": ["10.5067/ASTER/AST_05.003"], "publication_doi": [kg_doi]})
    assert match_edge_cases(cases, edges)["dataset_id"].tolist() == ["d1"]


@pytest.mark.parametrize(
    "older, newer",
    [("https://doi.org/10.5194/AMT-10-3133-2017", "doi:10.5194/amt-14-455-2021"), ("10.5194/amt-10-3133-2017", "10.5194/AMT-14-455-2021")],
)
def test_labelled_pairs_find_stored_verdicts_on_canonical_dois(older, newer):
    pairs = pd.DataFrame({"case_id": ["e-x"], "publication_doi": [older], "newer_publication_doi": [newer]})
    stored = pd.DataFrame({"older_doi": ["10.5194/amt-10-3133-2017"], "newer_doi": ["https://doi.org/10.5194/amt-14-455-2021"], "verdict": ["CONTRADICTED"], "rationale": ["r"]})
    judged = judge_pairs(pairs, load_pair_texts(), stored).iloc[0]
    assert (judged["verdict"], judged["verdict_source"]) == ("CONTRADICTED", "coherence_judgements")


@pytest.mark.parametrize("as_given", [list, iter], ids=["list", "generator"])  # bug row: a generator gave no rows
def test_evaluate_without_kg_edges_scores_the_worked_cases_and_reports_pairs(as_given):
    verdicts = pd.DataFrame({"case_id": ["e-01", "e-05"], "verdict": ["CONTRADICTED", "NOT_JUDGED"], "rationale": ["", ""], "verdict_source": ["x", "y"]})
    cases = CASES[CASES["case_id"].isin(["c-1", "c-2", "a-01", "e-01", "e-05"])]
    edges = pd.DataFrame(columns=["dataset_id", "publication_id", "dataset_doi", "publication_doi"])
    settings, outcomes = evaluate(edges, cases, verdicts, as_of=date(2026, 1, 1), settings=as_given([DEFAULT_SETTING]))
    assert len(settings) == 1
    row = settings.iloc[0]
    assert (row["staleness_caught"], row["staleness_cases"]) == (1, 1)  # worked case 2 only; a-01 is not found
    assert (row["foundational_flagged"], row["foundational_cases"]) == (0, 1)
    assert (row["contradictions_caught"], row["contradiction_pairs"], row["pairs_not_judged"]) == (1, 1, 1)
    # precision is over KG edges only: worked case 2, SUPERSEDED by design, would flatter it (second hostile pass, finding 3)
    assert (row["superseded_known"], row["superseded_labelled"]) == (0, 0) and math.isnan(row["superseded_precision"])
    assert row["superseded_cases_not_found"] == 1
    assert (row["edges_flagged"], row["edges_scored"]) == (0, 0) and math.isnan(row["flagged_share_all_edges"])  # worked cases are not KG edges
    assert outcomes.set_index("case_id").loc["a-01", "found"] == False  # noqa: E712 - numpy bool


@pytest.mark.parametrize(
    ("weights", "expected"),
    [
        (['{"centrality": 0.4, "centrality_rule": "max", "lifecycle_penalty": 0.0}'] * 2, {"centrality_rule": "max", "lifecycle_penalty": 0.0}),
        (['{"centrality_rule": "mean", "lifecycle_penalty": 0.2}', '{"centrality_rule": "mean", "lifecycle_penalty": 0.2}',
          '{"centrality_rule": "max", "lifecycle_penalty": 0.15}'], {"centrality_rule": "mean", "lifecycle_penalty": 0.2}),
        (['{"centrality": 0.4}'], {}),  # an older row without them: the defaults
        ([], {}),
    ],
    ids=["one-setting", "most-frequent", "not-stored", "no-edges"],
)
def test_stored_scoring_reads_what_the_edges_were_scored_with(weights, expected):
    assert stored_scoring(pd.DataFrame({"weights": weights}, dtype=object)) == expected


def test_the_ablation_holds_the_stored_lifecycle_penalty_fixed():
    """The evaluation once re-scored every edge with the default penalty, whatever the edges were scored with."""
    edge = {
        "dataset_id": "d", "publication_id": "p", "dataset_doi": "10.5067/d", "publication_doi": "10.1/p",
        "dataset_short_name": "AST_L1T", "pagerank_centrality": 0.5, "cited_by_count": pd.NA, "citation_trend": np.nan,
        "coherence": 0.9, "coherence_status": "SUPPORTED", "openalex_status": "found", "dataset_superseded": True,
        "dataset_version": "V003", "successor_version": "V031", "superseded_since": "2021-07-07", "dataset_collection_progress": None,
        "kg_year": pd.array([2024], dtype="Int64")[0], "openalex_year": pd.NA, "year_issue": None, "citation": "[p]",
        "evidence": None, "openalex_error": None, "openalex_retracted": False, "retraction_notice": False, "crossref_notice_dois": None,
    }
    edges = pd.DataFrame([edge]).astype({"kg_year": "Int64", "openalex_year": "Int64", "cited_by_count": "Int64"})
    cases = CASES[CASES["case_id"].isin(["c-1"])]
    verdicts = pd.DataFrame(columns=["case_id", "verdict", "rationale", "verdict_source"])
    labels = {
        penalty: evaluate(edges, cases, verdicts, as_of=date(2026, 6, 1), settings=[DEFAULT_SETTING], scoring={"lifecycle_penalty": penalty})[0]
        .iloc[0]["edges_flagged"]
        for penalty in (0.0, 0.3)
    }
    # 0.2 + 0.27 + 0.27 = 0.74: CURRENT without a penalty, DECLINING with 0.3 off it
    assert labels == {0.0: 0, 0.3: 1}


def test_stored_scoring_counts_the_settings_it_holds_fixed_not_whole_rows():
    """bug fixed: older and newer rows of one setting (other keys differing) counted as two, so a minority won."""
    old = json.dumps({"centrality": 0.4, "recency": 0.3, "coherence": 0.3, "decay": "linear", "centrality_rule": "mean", "lifecycle_penalty": 0.0})
    new = ScoringSettings(centrality_rule="mean", lifecycle_penalty=0.0).to_json()
    stored = pd.DataFrame({"weights": [old] * 4 + [new] * 4 + [ScoringSettings().to_json()] * 5})
    assert stored_scoring(stored) == {"centrality_rule": "mean", "lifecycle_penalty": 0.0}
