"""Tests for edge scoring: the two worked cases of DOMAIN.md "The score", then every rule on its own."""

from __future__ import annotations

import math
import inspect
import json
from datetime import date

import numpy as np
import pandas as pd
import pytest

from recon_assets.reliability.scoring import (
    CURRENT,
    DECLINING,
    FOUNDATIONAL,
    LABELS,
    SUPERSEDED,
    UNVERIFIED,
    ScoringSettings,
    Thresholds,
    TrendRules,
    Weights,
    age_years,
    citation_centrality,
    combine_centrality,
    edge_signals,
    label_bars,
    dominant_signal,
    label_edges,
    labels,
    recency,
    reliability,
    reliability_text,
    retraction,
    score_edges,
    superseded_before,
    trend_labels,
)

AS_OF = date(2026, 6, 1)
ADDED_COLUMNS = [
    "publication_year", "year_source", "citation_centrality", "centrality", "centrality_source", "is_retracted",
    "retraction_source", "recency", "lifecycle_penalty", "reliability", "label", "dominant_signal", "reason",
]


def _edges(*rows: dict) -> pd.DataFrame:
    """Edges as `score_edges` expects them; each row gives the KG year (publication_year), the PageRank
    centrality (centrality), coherence and what else it needs; without OpenAlex or Crossref data by default."""
    defaults = {
        "year_issue": pd.NA, "coherence_status": "SUPPORTED", "citation": "[Smith et al., 2019]",
        "dataset_id": "kg:airx2ret-v006", "dataset_short_name": "AIRX2RET", "dataset_doi": "10.5067/aqua/airs/data201",
        "evidence": pd.NA,
        "openalex_status": pd.NA, "openalex_error": pd.NA, "cited_by_count": pd.NA, "openalex_year": pd.NA,
        "citation_trend": np.nan, "openalex_retracted": False, "retraction_notice": False, "crossref_notice_dois": (),
        "dataset_superseded": False, "dataset_version": "V006", "successor_version": pd.NA, "superseded_since": pd.NA,
        "dataset_collection_progress": pd.NA,
    }
    frame = pd.DataFrame([{**defaults, **row} for row in rows]).rename(
        columns={"publication_year": "kg_year", "centrality": "pagerank_centrality"}
    )
    return frame.assign(
        kg_year=frame["kg_year"].astype("Int64"),
        openalex_year=frame["openalex_year"].astype("Int64"),
        cited_by_count=frame["cited_by_count"].astype("Int64"),
    )


# ---------------------------------------------------------------- the two cases of DOMAIN.md

@pytest.mark.parametrize("centrality", [float(citation_centrality(10_000)), 0.92], ids=["10000-citations", "0.92"])
def test_domain_case_1_old_highly_cited_paper_is_foundational_not_stale(centrality):
    """2003, 10,000 citations, coherence 0.8, as of 2026: recency 0 yet reliability 0.61-0.64, FOUNDATIONAL."""
    scored = score_edges(
        _edges({"publication_year": 2003, "centrality": centrality, "coherence": 0.8}), as_of=AS_OF, decay="linear"
    ).iloc[0]
    assert 0.92 <= scored["centrality"] <= 1.0
    assert scored["recency"] == 0.0
    # DOMAIN.md gives the range to 2 decimals: centrality 0.92 scores 0.608
    assert 0.61 <= round(scored["reliability"], 2) <= 0.64
    assert scored["label"] == FOUNDATIONAL
    assert scored["dominant_signal"] == "centrality"


def test_domain_case_2_recent_contradicted_paper_is_superseded():
    """2020, 5 citations, contradicted by a 2023 paper (coherence 0.1), as of 2026: reliability 0.32, SUPERSEDED."""
    centrality = float(citation_centrality(5))
    assert centrality == pytest.approx(math.log1p(5) / math.log1p(10_000))
    assert round(centrality, 2) == 0.19
    scored = score_edges(
        _edges({
            "publication_year": 2020, "centrality": centrality, "coherence": 0.1,
            "coherence_status": "CONTRADICTED", "evidence": "contradicted by [Chen et al., 2023] (centrality 0.71)",
        }),
        as_of=AS_OF, decay="linear",
    ).iloc[0]
    assert scored["recency"] == pytest.approx(0.7)
    assert round(scored["reliability"], 2) == 0.32
    assert scored["label"] == SUPERSEDED
    assert scored["dominant_signal"] == "centrality"


# ---------------------------------------------------------------- recency and age

LN21 = math.log(21)


@pytest.mark.parametrize(
    ("age", "none", "linear", "log"),
    [
        (0, 1.0, 1.0, 1.0),
        (1, 1.0, 0.95, 1 - math.log(2) / LN21),
        (6, 1.0, 0.7, 1 - math.log(7) / LN21),
        (10, 1.0, 0.5, 1 - math.log(11) / LN21),
        (20, 1.0, 0.0, 0.0),
        (25, 1.0, 0.0, 0.0),
        # unknown age: no recency credit, except under 'none' where age plays no part (DOMAIN.md: none -> 1)
        (math.nan, 1.0, 0.0, 0.0),
        # bug fixed: a negative age gave linear 1.05 and log inf; it now counts as 0, as in age_years
        (-1, 1.0, 1.0, 1.0),
        (-3, 1.0, 1.0, 1.0),
    ],
)
def test_recency_follows_domain_formulas(age, none, linear, log):
    for decay, expected in (("none", none), ("linear", linear), ("log", log)):
        assert float(recency(age, decay)) == pytest.approx(expected, abs=1e-12), decay


@pytest.mark.parametrize("decay", ["none", "linear", "log"])
def test_recency_vectorised_is_bounded_and_non_increasing(decay):
    ages = np.array([0, 1, 2, 6, 10, 19, 20, 21, 60], dtype=float)
    values = recency(ages, decay)
    assert values.shape == ages.shape
    assert ((values >= 0) & (values <= 1)).all()
    assert (np.diff(values) <= 0).all()
    np.testing.assert_array_equal(values, [float(recency(age, decay)) for age in ages])


@pytest.mark.parametrize("decay", ["exp", "Linear", "", None])
def test_recency_rejects_unknown_decay(decay):
    with pytest.raises(ValueError, match=r"decay must be one of \('none', 'linear', 'log'\)"):
        recency(np.array([1.0]), decay)


@pytest.mark.parametrize(
    ("year", "expected"),
    [
        (2003, 23.0),
        (2020, 6.0),
        (np.int64(2020), 6.0),
        (2020.0, 6.0),
        (2026, 0.0),
        (2027, 0.0),  # in press: never negative
        (None, math.nan),
        (pd.NA, math.nan),
        (math.nan, math.nan),
    ],
)
def test_age_years(year, expected):
    result = age_years(year, AS_OF)
    assert result == expected or (math.isnan(expected) and math.isnan(result))


@pytest.mark.parametrize(
    ("count", "expected"),
    [(0, 0.0), (5, math.log1p(5) / math.log1p(10_000)), (10_000, 1.0), (1_000_000, 1.0), (-3, 0.0)],
)
def test_citation_centrality(count, expected):
    assert float(citation_centrality(count)) == pytest.approx(expected, abs=1e-12)


# ---------------------------------------------------------------- weights, thresholds, reliability

@pytest.mark.parametrize(
    ("weights", "message"),
    [
        ((-0.1, 0.6, 0.5), r"weights must be in \[0, 1\], got \{'centrality': -0\.1\}"),
        ((1.2, -0.1, -0.1), r"'centrality': 1\.2, 'recency': -0\.1, 'coherence': -0\.1"),
        ((math.nan, 0.5, 0.5), r"weights must be in \[0, 1\], got \{'centrality': nan\}"),
        ((0.5, 0.5, 0.5), r"weights must sum to 1, got 1\.500000 from \{'centrality': 0\.5"),
        ((0.4, 0.3, 0.2), r"weights must sum to 1, got 0\.900000"),
        ((0.0, 0.0, 0.0), r"weights must sum to 1, got 0\.000000"),
        # Bug rows: True summed as 1 and passed; text raised a TypeError instead of saying which weight.
        ((True, False, False), r"weights must be in \[0, 1\], got \{'centrality': True, 'recency': False, 'coherence': False\}"),
        (("0.4", 0.3, 0.3), r"weights must be in \[0, 1\], got \{'centrality': '0\.4'\}"),
    ],
)
def test_weights_reject_invalid(weights, message):
    with pytest.raises(ValueError, match=message):
        Weights(*weights)


@pytest.mark.parametrize(
    "weights", [(0.4, 0.3, 0.3), (1.0, 0.0, 0.0), (0.0, 0.0, 1.0), (0.1, 0.2, 0.7), (0.7, 0.2, 0.1), (1 / 3, 1 / 3, 1 / 3)]
)
def test_weights_accept_valid_within_float_tolerance(weights):
    assert tuple(vars(Weights(*weights)).values()) == weights


def test_default_weights_are_domain_defaults():
    assert Weights() == Weights(0.4, 0.3, 0.3)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("foundational_centrality", -0.01),
        ("foundational_coherence", 1.01),
        ("current_recency", 1.5),
        ("current_reliability", math.nan),
        ("declining_reliability", -1.0),
        ("current_recency", True),
        ("current_reliability", None),
    ],
)
def test_thresholds_reject_outside_unit_interval(field, value):
    with pytest.raises(ValueError, match=rf"thresholds must be in \[0, 1\], got \{{'{field}': "):
        Thresholds(**{field: value})


@pytest.mark.parametrize("value", [0.0, 1.0])
def test_thresholds_accept_bounds(value):
    thresholds = Thresholds(foundational_centrality=value, declining_reliability=value)
    assert (thresholds.foundational_centrality, thresholds.declining_reliability) == (value, value)


@pytest.mark.parametrize(
    ("centrality", "recency_", "coherence", "weights", "expected"),
    [
        (1.0, 1.0, 1.0, Weights(), 1.0),
        (0.0, 0.0, 0.0, Weights(), 0.0),
        (0.5, 0.0, 1.0, Weights(), 0.5),
        # 0.1 + 0.2 + 0.7 is 1.0000000000000002 in floats: the clip keeps the score at 1
        (1.0, 1.0, 1.0, Weights(0.1, 0.2, 0.7), 1.0),
        (0.2, 0.9, 0.4, Weights(1.0, 0.0, 0.0), 0.2),
    ],
)
def test_reliability_is_the_weighted_sum_within_unit_interval(centrality, recency_, coherence, weights, expected):
    score = reliability(np.array([centrality]), np.array([recency_]), np.array([coherence]), weights)
    assert 0.0 <= score[0] <= 1.0
    assert score[0] == pytest.approx(expected, abs=1e-12)


# ---------------------------------------------------------------- labels

@pytest.mark.parametrize(
    ("centrality", "recency_", "coherence", "reliability_", "verified", "expected"),
    [
        # FOUNDATIONAL, whatever the age; exactly at both thresholds
        (0.6, 0.0, 0.65, 0.435, True, FOUNDATIONAL),
        # first match wins: also qualifies for CURRENT
        (0.95, 1.0, 0.9, 0.95, True, FOUNDATIONAL),
        # UNVERIFIED coherence: centrality >= 0.6 alone qualifies
        (0.6, 0.0, 0.5, 0.39, False, FOUNDATIONAL),
        (0.59, 0.0, 0.5, 0.386, False, DECLINING),
        # verified coherence just below 0.65 disqualifies a central paper
        (0.6, 0.0, 0.64, 0.432, True, DECLINING),
        (0.9, 1.0, 0.1, 0.69, True, CURRENT),
        # CURRENT exactly at both thresholds, and just below each
        (0.3, 0.7, 0.9, 0.6, True, CURRENT),
        (0.3, 0.69, 0.9, 0.6, True, DECLINING),
        (0.5, 0.7, 0.6, 0.59, True, DECLINING),
        # DECLINING exactly at 0.35, SUPERSEDED just below
        (0.1, 0.5, 0.5, 0.35, True, DECLINING),
        (0.1, 0.5, 0.5, 0.3499, True, SUPERSEDED),
        (0.2, 1.0, 0.5, 0.53, False, DECLINING),
        (0.0, 0.0, 0.1, 0.03, True, SUPERSEDED),
    ],
)
def test_label_first_match_wins(centrality, recency_, coherence, reliability_, verified, expected):
    assert labels(centrality, recency_, coherence, reliability_, coherence_verified=verified).item() == expected


@pytest.mark.parametrize(
    ("contributions", "shortfalls", "label_", "expected"),
    [
        # high labels read the largest contribution, low labels the largest shortfall (the pools disagree here)
        ({"centrality": 0.36, "recency": 0.0, "coherence": 0.24}, {"centrality": 0.04, "recency": 0.3, "coherence": 0.06},
         FOUNDATIONAL, "centrality"),
        ({"centrality": 0.1, "recency": 0.3, "coherence": 0.27}, {"centrality": 0.3, "recency": 0.0, "coherence": 0.03},
         CURRENT, "recency"),
        ({"centrality": 0.08, "recency": 0.21, "coherence": 0.03}, {"centrality": 0.32, "recency": 0.09, "coherence": 0.27},
         SUPERSEDED, "centrality"),
        ({"centrality": 0.3, "recency": 0.0, "coherence": 0.15}, {"centrality": 0.1, "recency": 0.3, "coherence": 0.15},
         DECLINING, "recency"),
        ({"centrality": 0.2, "recency": 0.0, "coherence": 0.0}, {"centrality": 0.2, "recency": 0.3, "coherence": 0.3},
         DECLINING, "recency"),  # a tie goes to the signal listed first
    ],
)
def test_dominant_signal(contributions, shortfalls, label_, expected):
    assert dominant_signal(contributions, shortfalls, label_) == expected


# ---------------------------------------------------------------- score_edges

SMALL = _edges(
    {"publication_year": 2003, "centrality": 1.0, "coherence": 0.8, "citation": "[Aumann et al., 2003]",
     "evidence": "consistent with [Lee et al., 2024]"},
    {"publication_year": 2020, "centrality": 0.19, "coherence": 0.1, "coherence_status": "CONTRADICTED",
     "citation": "[Kim et al., 2020]", "evidence": "contradicted by [Chen et al., 2023] (centrality 0.71)"},
    {"publication_year": 2010, "centrality": 0.7, "coherence": 0.5, "coherence_status": UNVERIFIED,
     "citation": "[Susskind et al., 2010]"},
    {"publication_year": pd.NA, "year_issue": "year 'n.d.' is not a number", "centrality": 0.4,
     "coherence": 0.5, "coherence_status": UNVERIFIED, "citation": "[Doe, n.d.]"},
    {"publication_year": 2025, "centrality": 0.5, "coherence": 0.9, "citation": "[Park et al., 2025]"},
).set_axis([40, 10, 30, 0, 20])


def test_score_edges_adds_columns_and_keeps_rows():
    edges = SMALL.copy()
    scored = score_edges(edges, as_of=AS_OF)
    pd.testing.assert_frame_equal(edges, SMALL)  # input untouched
    assert scored.columns.tolist() == [*SMALL.columns, *ADDED_COLUMNS]
    pd.testing.assert_frame_equal(scored[SMALL.columns], SMALL)
    assert scored["label"].tolist() == [FOUNDATIONAL, SUPERSEDED, FOUNDATIONAL, SUPERSEDED, CURRENT]
    assert scored["dominant_signal"].tolist() == ["centrality", "centrality", "centrality", "recency", "recency"]
    np.testing.assert_allclose(scored["recency"], [0.0, 0.7, 0.2, 0.0, 0.95])
    np.testing.assert_allclose(scored["reliability"], [0.64, 0.316, 0.49, 0.31, 0.755])


@pytest.mark.parametrize("position", range(len(SMALL)))
def test_score_edges_reason_names_citation_label_and_every_signal(position):
    row = score_edges(SMALL, as_of=AS_OF).iloc[position]
    reason = row["reason"]
    assert reason.startswith(f"{row['citation']} reliability {row['reliability']:.2f} {row['label']}: ")
    assert f"centrality {row['centrality']:.2f}" in reason
    assert f"recency {row['recency']:.2f} (linear decay)" in reason
    if row["coherence_status"] == UNVERIFIED:
        assert f"coherence UNVERIFIED (neutral {row['coherence']:.2f})" in reason
        assert "no newer publication using AIRX2RET (10.5067/aqua/airs/data201) in the evidence window was judged" in reason
    elif pd.isna(row["evidence"]):
        assert reason.endswith(f"; coherence {row['coherence']:.2f} {row['coherence_status']}")
    else:
        assert f"coherence {row['coherence']:.2f} {row['coherence_status']} {row['evidence']}" in reason
    centrality_alone = row["label"] == FOUNDATIONAL and row["coherence_status"] == UNVERIFIED
    assert ("FOUNDATIONAL on centrality alone" in reason) == centrality_alone
    if pd.isna(row["publication_year"]):
        assert "publication year unknown (year 'n.d.' is not a number)" in reason
    else:
        assert f"age {AS_OF.year - row['publication_year']} y as of 2026-06-01" in reason


@pytest.mark.parametrize(
    ("thresholds", "expected"),
    [
        (Thresholds(), [FOUNDATIONAL, SUPERSEDED, FOUNDATIONAL, SUPERSEDED, CURRENT]),
        (Thresholds(foundational_centrality=1.0), [FOUNDATIONAL, SUPERSEDED, DECLINING, SUPERSEDED, CURRENT]),
        (Thresholds(declining_reliability=0.3), [FOUNDATIONAL, DECLINING, FOUNDATIONAL, DECLINING, CURRENT]),
        (Thresholds(current_reliability=0.8), [FOUNDATIONAL, SUPERSEDED, FOUNDATIONAL, SUPERSEDED, DECLINING]),
    ],
)
def test_score_edges_custom_thresholds_change_labels(thresholds, expected):
    assert score_edges(SMALL, as_of=AS_OF, thresholds=thresholds)["label"].tolist() == expected


def test_score_edges_decay_none_gives_full_recency_to_every_row():
    scored = score_edges(SMALL, as_of=AS_OF, decay="none")
    assert scored["recency"].tolist() == [1.0] * len(SMALL)
    assert "publication year unknown (year 'n.d.' is not a number): recency 1.00 (none decay)" in scored["reason"].iloc[3]


@pytest.mark.parametrize("seed", range(5))
def test_score_edges_reliability_always_in_unit_interval(seed):
    rng = np.random.default_rng(seed)
    size = 200
    years = pd.array(rng.integers(1970, 2030, size), dtype="Int64")
    years[rng.random(size) < 0.1] = pd.NA
    edges = _edges(*[
        {"publication_year": year, "centrality": centrality, "coherence": coherence,
         "coherence_status": UNVERIFIED if unverified else "SUPPORTED"}
        for year, centrality, coherence, unverified in zip(
            years, rng.random(size), rng.random(size), rng.random(size) < 0.3
        )
    ])
    weights = rng.dirichlet(np.ones(3))
    for decay in ("none", "linear", "log"):
        scored = score_edges(edges, as_of=AS_OF, weights=Weights(*weights), decay=decay)
        assert scored["reliability"].between(0.0, 1.0).all()
        assert scored["recency"].between(0.0, 1.0).all()
        assert set(scored["label"]) <= set(LABELS)


# ---------------------------------------------------------------- OpenAlex and Crossref signals

def test_domain_case_1_is_reached_through_openalex_citations():
    """The 2003 paper's 10,000 citations make it central even where the KG's PageRank centrality is low."""
    scored = score_edges(
        _edges({"publication_year": 2003, "centrality": 0.3, "coherence": 0.8, "cited_by_count": 10_000, "openalex_status": "found"}),
        as_of=AS_OF,
    ).iloc[0]
    assert (scored["citation_centrality"], scored["centrality"], scored["centrality_source"]) == (1.0, 1.0, "citations")
    assert round(scored["reliability"], 2) == 0.64 and scored["label"] == FOUNDATIONAL
    assert "max of PageRank centrality 0.30, citation centrality 1.00 from 10,000 OpenAlex citations: citations drove it" in scored["reason"]


@pytest.mark.parametrize(
    ("rule", "centrality", "source"),
    [
        ("max", [0.9, 0.5, 0.5], ["citations", "pagerank", "pagerank"]),
        ("mean", [0.7, 0.5, 0.3], ["mean", "pagerank", "mean"]),
        ("pagerank", [0.5, 0.5, 0.5], ["pagerank"] * 3),
        ("citations", [0.9, 0.5, 0.1], ["citations", "pagerank", "citations"]),
    ],
)
def test_combine_centrality_rules(rule, centrality, source):
    values, sources = combine_centrality(np.array([0.5, 0.5, 0.5]), np.array([0.9, np.nan, 0.1]), rule)
    np.testing.assert_allclose(values, centrality)
    assert sources.tolist() == source


def test_combine_centrality_rejects_an_unknown_rule():
    with pytest.raises(ValueError, match="centrality rule must be one of"):
        combine_centrality(np.array([0.5]), np.array([0.5]), "min")


@pytest.mark.parametrize(
    ("openalex", "notices", "is_notice", "expected"),
    [
        (True, (), False, "OpenAlex is_retracted"),
        (False, ("10.1016/s0140-6736(20)31324-6",), False, "Crossref notice 10.1016/s0140-6736(20)31324-6"),
        (True, ("10.1007/s13202-023-01666-7",), False, "OpenAlex is_retracted; Crossref notice 10.1007/s13202-023-01666-7"),
        (False, (), False, None),
        # OpenAlex sets is_retracted on the notice W4381149761 too: a notice is never a retracted finding
        (True, (), True, None),
        (False, ("10.5555/x",), True, None),
    ],
)
def test_retraction_sources(openalex, notices, is_notice, expected):
    assert retraction(openalex, notices, is_notice) == expected


@pytest.mark.parametrize(
    ("flags", "retracted", "source"),
    [
        ({"openalex_retracted": True}, True, "OpenAlex is_retracted"),
        ({"crossref_notice_dois": ["10.1016/s0140-6736(20)31324-6"]}, True, "Crossref notice 10.1016/s0140-6736(20)31324-6"),
        ({"openalex_retracted": True, "retraction_notice": True}, False, None),
        ({}, False, None),
    ],
)
def test_a_retracted_publication_is_superseded_whatever_its_score(flags, retracted, source):
    # central, coherent and new: FOUNDATIONAL, unless retracted
    scored = score_edges(
        _edges({"publication_year": 2025, "centrality": 1.0, "coherence": 1.0, **flags}), as_of=AS_OF
    ).iloc[0]
    assert scored["reliability"] >= 0.95
    assert (scored["is_retracted"], scored["retraction_source"]) == (retracted, source)
    if retracted:
        assert (scored["label"], scored["dominant_signal"]) == (SUPERSEDED, "retraction")
        assert f"SUPERSEDED: retracted ({source}): SUPERSEDED whatever the score" in scored["reason"]
    else:
        assert scored["label"] == FOUNDATIONAL and "SUPERSEDED" not in scored["reason"]
    assert ("a retraction notice, not itself a retracted finding" in scored["reason"]) == bool(flags.get("retraction_notice"))


@pytest.mark.parametrize(
    ("base", "trend", "age", "centrality", "coherence", "verified", "expected"),
    [
        # a steep decline turns CURRENT into DECLINING; at the threshold too
        (CURRENT, -0.6, 3, 0.5, 0.9, True, DECLINING),
        (CURRENT, -0.5, 3, 0.5, 0.9, True, DECLINING),
        (CURRENT, -0.49, 3, 0.5, 0.9, True, CURRENT),
        # a decline never demotes FOUNDATIONAL nor promotes anything
        (FOUNDATIONAL, -1.0, 3, 0.9, 0.9, True, FOUNDATIONAL),
        (SUPERSEDED, -1.0, 3, 0.1, 0.1, True, SUPERSEDED),
        # an old paper with growing citations is FOUNDATIONAL from centrality 0.4
        (DECLINING, 0.25, 10, 0.4, 0.5, False, FOUNDATIONAL),
        (SUPERSEDED, 0.8, 23, 0.45, 0.7, True, FOUNDATIONAL),
        (DECLINING, 0.8, 9, 0.45, 0.7, True, DECLINING),  # not old enough
        (DECLINING, 0.24, 23, 0.45, 0.7, True, DECLINING),  # not growing enough
        (DECLINING, 0.8, 23, 0.39, 0.7, True, DECLINING),  # not central enough
        (DECLINING, 0.8, 23, 0.45, 0.1, True, DECLINING),  # contradicted: growth does not override coherence
        (DECLINING, math.nan, 23, 0.45, 0.7, True, DECLINING),  # no trend
        (DECLINING, 0.8, math.nan, 0.45, 0.7, True, DECLINING),  # unknown age
    ],
)
def test_trend_label(base, trend, age, centrality, coherence, verified, expected):
    moved = trend_labels(base, trend=trend, age=age, centrality=centrality, coherence=coherence, coherence_verified=verified).item()
    assert moved == expected


@pytest.mark.parametrize(
    "rules",
    [
        {"decline": 0.2}, {"growth_min_age": True}, {"growth": "0.3"}, {"decline": math.nan},
        # Bug rows: accepted, then scoring raised OverflowError; inf was written to the settings JSON as Infinity.
        {"growth_min_age": 10**400}, {"growth_min_age": math.inf},
    ],
)
def test_trend_rules_reject_out_of_range_values(rules):
    with pytest.raises(ValueError, match="trend rules out of range"):
        TrendRules(**rules)


def test_numpy_numbers_are_numbers():
    """Bug row: refusing bools also refused numpy ints and float32 (not subclasses of int or float)."""
    assert Weights(np.float32(0.5), np.float32(0.25), np.float32(0.25)).centrality == 0.5
    assert Thresholds(declining_reliability=np.int64(0)).declining_reliability == 0
    assert TrendRules(growth_min_age=np.int64(10)).growth_min_age == 10
    with pytest.raises(ValueError, match="weights must be in"):
        Weights(np.bool_(True), 0.0, 0.0)


def test_score_edges_says_when_the_citation_trend_moved_the_label():
    edges = _edges(
        # 2023, recent and central enough for CURRENT, but its citation rate collapsed
        {"publication_year": 2021, "centrality": 0.55, "coherence": 0.9, "citation_trend": -0.7, "cited_by_count": 40},
        # 2003, recency 0, moderately central, citations growing
        {"publication_year": 2003, "centrality": 0.45, "coherence": 0.8, "citation_trend": 0.5, "cited_by_count": 3},
    )
    scored = score_edges(edges, as_of=AS_OF)
    assert scored["label"].tolist() == [DECLINING, FOUNDATIONAL]
    assert scored["dominant_signal"].tolist() == ["citation_trend", "citation_trend"]
    assert "steep citation decline (trend -0.70 <= -0.50) moves CURRENT to DECLINING" in scored["reason"].iloc[0]
    assert "old (23 y) but citations growing (trend +0.50 >= +0.25): FOUNDATIONAL from centrality 0.40" in scored["reason"].iloc[1]
    unmoved = score_edges(edges, as_of=AS_OF, trend_rules=TrendRules(decline=-1.0, growth=1.0))
    assert unmoved["label"].tolist() == [CURRENT, DECLINING]


@pytest.mark.parametrize(
    ("kg_year", "openalex_year", "year", "source"),
    [(pd.NA, 2019, 2019, "openalex"), (2018, 2019, 2018, "kg"), (pd.NA, pd.NA, None, None)],
)
def test_openalex_year_fills_a_missing_kg_year_and_says_so(kg_year, openalex_year, year, source):
    scored = score_edges(
        _edges({"publication_year": kg_year, "year_issue": "missing" if pd.isna(kg_year) else pd.NA,
                "openalex_year": openalex_year, "centrality": 0.5, "coherence": 0.5}),
        as_of=AS_OF,
    ).iloc[0]
    assert (None if pd.isna(scored["publication_year"]) else scored["publication_year"]) == year
    assert (None if pd.isna(scored["year_source"]) else scored["year_source"]) == source
    assert ("(year 2019 from OpenAlex: KG year missing)" in scored["reason"]) == (source == "openalex")
    if source == "openalex":
        assert scored["recency"] == pytest.approx(0.65)


@pytest.mark.parametrize(
    ("status", "error", "expected"),
    [
        ("not_found", pd.NA, "PageRank centrality alone, no citation count: not in OpenAlex"),
        ("error", "offline: not in the recorded cache", "no citation count: OpenAlex: offline: not in the recorded cache"),
        (pd.NA, pd.NA, "no citation count: no DOI"),
    ],
)
def test_reason_says_why_centrality_has_no_citations(status, error, expected):
    scored = score_edges(
        _edges({"publication_year": 2020, "centrality": 0.5, "coherence": 0.5, "openalex_status": status, "openalex_error": error}),
        as_of=AS_OF,
    ).iloc[0]
    assert expected in scored["reason"] and scored["centrality_source"] == "pagerank"


@pytest.mark.parametrize(
    ("short_name", "doi", "named"),
    [
        ("AST_L1T", "10.5067/aster/ast_l1t.003", "AST_L1T (10.5067/aster/ast_l1t.003)"),
        (pd.NA, "10.5067/aster/ast_l1t.003", "10.5067/aster/ast_l1t.003"),
        ("AST_L1T", pd.NA, "AST_L1T"),
        (pd.NA, pd.NA, "kg:airx2ret-v006"),  # bug: a dataset without short name read "using nan"
    ],
)
def test_unverified_reason_names_the_dataset_version_unambiguously(short_name, doi, named):
    edges = _edges({"publication_year": 2020, "centrality": 0.2, "coherence": 0.5, "coherence_status": UNVERIFIED})
    edges["dataset_short_name"], edges["dataset_doi"] = short_name, doi
    reason = score_edges(edges, as_of=AS_OF)["reason"].iloc[0]
    assert f"no newer publication using {named} in the evidence window was judged" in reason


# ---------------------------------------------------------------- dataset lifecycle

SUPERSEDED_AIRS = {"dataset_superseded": True, "successor_version": "V7.0", "superseded_since": "2019-11-27"}


@pytest.mark.parametrize(
    ("lineage", "penalty", "expected_penalty", "reason_part"),
    [
        (SUPERSEDED_AIRS, 0.15, 0.15, "uses AIRX2RET V006; superseded by V7.0 since 2019-11-27 (lifecycle penalty -0.15)"),
        ({**SUPERSEDED_AIRS, "superseded_since": pd.NA}, 0.15, 0.15, "superseded by V7.0 (since unknown)"),
        ({**SUPERSEDED_AIRS, "successor_version": pd.NA}, 0.2, 0.2, "uses AIRX2RET V006; superseded since 2019-11-27"),
        # bug fixed: a penalty of 0 read "(lifecycle penalty -0.00)"
        (SUPERSEDED_AIRS, 0.0, 0.0, "superseded by V7.0 since 2019-11-27 (lifecycle penalty off)"),
        ({**SUPERSEDED_AIRS, "successor_version": pd.NA, "dataset_collection_progress": "DEPRECATED"}, 0.15, 0.15,
         "superseded since 2019-11-27 (CMR CollectionProgress DEPRECATED) (lifecycle penalty -0.15)"),
        ({"dataset_superseded": False}, 0.15, 0.0, None),
    ],
    ids=["successor-and-date", "date-unknown", "successor-unknown", "no-penalty", "cmr-deprecated", "current-version"],
)
def test_lifecycle_penalty_and_reason(lineage, penalty, expected_penalty, reason_part):
    """2024, centrality 0.5, coherence 0.9: 0.2 + 0.27 + 0.27 = 0.74 before the penalty."""
    scored = score_edges(
        _edges({"publication_year": 2024, "centrality": 0.5, "coherence": 0.9, **lineage}),
        as_of=AS_OF, decay="linear", lifecycle_penalty=penalty,
    ).iloc[0]
    assert scored["lifecycle_penalty"] == expected_penalty
    assert scored["reliability"] == pytest.approx(0.74 - expected_penalty)
    if reason_part is None:
        assert "superseded" not in scored["reason"] and "successor" not in scored["reason"]
    else:
        assert reason_part in scored["reason"]


def test_lifecycle_penalty_keeps_a_fresh_paper_on_a_replaced_version_out_of_current():
    """Without the penalty CURRENT (0.74, recency 0.9); with it DECLINING, driven by the lifecycle."""
    edge = {"publication_year": 2024, "centrality": 0.5, "coherence": 0.9}
    current = score_edges(_edges(edge), as_of=AS_OF).iloc[0]
    replaced = score_edges(_edges({**edge, **SUPERSEDED_AIRS}), as_of=AS_OF, lifecycle_penalty=0.25).iloc[0]
    assert (current["label"], replaced["label"]) == (CURRENT, DECLINING)
    assert replaced["dominant_signal"] == "lifecycle"


def test_lifecycle_penalty_never_unlabels_foundational_work():
    """DOMAIN.md case 1 on a superseded version: still FOUNDATIONAL (the label rule does not read reliability)."""
    scored = score_edges(
        _edges({"publication_year": 2003, "centrality": 0.95, "coherence": 0.8, **SUPERSEDED_AIRS}), as_of=AS_OF
    ).iloc[0]
    assert scored["label"] == FOUNDATIONAL
    assert scored["reliability"] == pytest.approx(0.4 * 0.95 + 0.3 * 0.8 - 0.15)


@pytest.mark.parametrize("penalty", [-0.1, 1.5])
def test_lifecycle_penalty_out_of_range_is_refused(penalty):
    with pytest.raises(ValueError, match="lifecycle_penalty must be in"):
        score_edges(_edges({"publication_year": 2024, "centrality": 0.5, "coherence": 0.9}), as_of=AS_OF, lifecycle_penalty=penalty)


@pytest.mark.parametrize(
    ("since", "as_of", "expected"),
    [
        ("2019-11-27", date(2019, 11, 27), True),
        ("2019-11-27", date(2019, 11, 26), False),
        ("2019", date(2019, 1, 1), True),
        ("2019", date(2018, 12, 31), False),
        (None, date(1990, 1, 1), True),
        (pd.NA, date(1990, 1, 1), True),
    ],
)
def test_superseded_before(since, as_of, expected):
    assert superseded_before(since, as_of) is expected


def test_superseded_before_refuses_other_text():
    with pytest.raises(ValueError):
        superseded_before("late 2019", date(2020, 1, 1))


def test_a_successor_released_after_as_of_costs_nothing_and_the_reason_says_so():
    scored = score_edges(
        _edges({"publication_year": 2018, "centrality": 0.5, "coherence": 0.9, **SUPERSEDED_AIRS}), as_of=date(2019, 6, 1)
    ).iloc[0]
    assert scored["lifecycle_penalty"] == 0.0
    assert "superseded by V7.0 only after as_of (2019-11-27): no lifecycle penalty" in scored["reason"]


def test_a_version_inside_the_short_name_is_not_repeated():
    scored = score_edges(
        _edges({
            "publication_year": 2024, "centrality": 0.5, "coherence": 0.9, **SUPERSEDED_AIRS,
            "dataset_short_name": "CAL_LID_L2_05kmAPro-Standard-V4-21", "dataset_version": "-V4-21", "successor_version": "-V4-51",
        }),
        as_of=AS_OF,
    ).iloc[0]
    assert "uses CAL_LID_L2_05kmAPro-Standard-V4-21; superseded by -V4-51" in scored["reason"]


@pytest.mark.parametrize(("superseded", "named"), [(True, "AIRX2RET (10.5067/aqua/airs/data201) or its successor version"), (False, "AIRX2RET (10.5067/aqua/airs/data201)")])
def test_unverified_coherence_names_the_successor_version_as_searched_evidence(superseded, named):
    scored = score_edges(
        _edges({"publication_year": 2024, "centrality": 0.5, "coherence": 0.5, "coherence_status": UNVERIFIED, "dataset_superseded": superseded}),
        as_of=AS_OF,
    ).iloc[0]
    assert f"no newer publication using {named} in the evidence window was judged" in scored["reason"]


def test_reliability_at_a_threshold_is_not_pushed_below_it_by_summation_noise():
    """bug fixed: 0.4*0.7 + 0.3*0.4 + 0.3*0.5 - 0.15 summed to 0.3999999999999999, under the critic's 0.40 bar."""
    assert reliability(0.7, 0.4, 0.5, Weights(), 0.15) == 0.4


@pytest.mark.parametrize(
    "settings",
    [
        ScoringSettings(),
        ScoringSettings(
            Weights(0.5, 0.2, 0.3), "log", "mean", 0.0, Thresholds(current_recency=0.5), TrendRules(decline=-0.8, growth_min_age=5)
        ),
    ],
    ids=["defaults", "every-field-changed"],
)
def test_scoring_settings_read_back_what_they_wrote(settings):
    text = settings.to_json()
    assert ScoringSettings.from_json(text) == settings
    # the keys rows written before the codec hold, at the JSON's top level (edge_reliability.weights)
    assert {"centrality", "recency", "coherence", "decay", "centrality_rule", "lifecycle_penalty"} <= set(json.loads(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"centrality": 0.4, "recency": 0.3, "coherence": 0.3, "decay": "log"}', ScoringSettings(decay="log")),
        ('{"centrality": 0.5, "recency": 0.2, "coherence": 0.3, "decay": "linear", "centrality_rule": "mean", '
         '"lifecycle_penalty": 0.0}', ScoringSettings(Weights(0.5, 0.2, 0.3), centrality_rule="mean", lifecycle_penalty=0.0)),
        ("{}", ScoringSettings()),
    ],
    ids=["before-centrality-rule", "before-thresholds-and-trend-rules", "empty"],
)
def test_scoring_settings_give_older_rows_the_defaults_of_the_keys_they_lack(text, expected):
    assert ScoringSettings.from_json(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"centrality": 0.9}', "weights must sum to 1"),
        ('{"thresholds": {"current_recency": 1.5}}', "thresholds must be in"),
    ],
    ids=["weights-not-summing-to-1", "threshold-out-of-range"],
)
def test_scoring_settings_refuse_stored_values_out_of_range(text, message):
    with pytest.raises(ValueError, match=message):
        ScoringSettings.from_json(text)


def test_scoring_settings_are_score_edges_keyword_arguments_with_its_defaults():
    defaults = {name: parameter.default for name, parameter in inspect.signature(score_edges).parameters.items()}
    assert {name: defaults[name] for name in ScoringSettings().score_kwargs()} == ScoringSettings().score_kwargs()


@pytest.mark.parametrize(
    "text",
    [
        '{"decay": "exponential"}', '{"centrality_rule": "median"}', '{"lifecycle_penalty": 2}', '{"lifecycle_penalty": "0.15"}',
        '{"lifecycle_penalty": NaN}', '[]', 'null', '3', '{"thresholds": [0.6]}', '{"thresholds": {"stale_reliability": 0.3}}',
    ],
)
def test_stored_settings_that_cannot_be_scored_with_are_refused_when_read(text):
    """bug fixed: these were accepted and failed later inside score_edges, or raised TypeError."""
    with pytest.raises(ValueError):
        ScoringSettings.from_json(text)


@pytest.mark.parametrize(
    ("reliability", "bars", "shown"),
    [
        (0.5996, (0.6, 0.35), "0.599"),
        (0.3496, (0.6, 0.35), "0.349"),
        (0.5999999999999999, (0.6,), "0.60"),  # summation noise: on the bar, not below it
        (0.594, (0.6,), "0.59"),
        (0.456, (0.6, 0.35), "0.46"),  # rounding up onto no bar is fine
        (0.3995, (), "0.40"),
    ],
)
def test_reliability_text_never_rounds_up_onto_a_bar(reliability, bars, shown):
    assert reliability_text(reliability, bars) == shown


def test_label_bars_are_the_reliability_thresholds():
    assert label_bars(Thresholds(current_reliability=0.7, declining_reliability=0.3)) == (0.7, 0.3)


def test_signals_computed_once_label_as_score_edges_does_under_every_weight_triple():
    """The ablation's path (edge_signals once, label_edges per weight triple) is score_edges, row for row."""
    edges = _edges(
        {"publication_year": 2003, "centrality": 0.92, "coherence": 0.8},
        {"publication_year": 2024, "centrality": 0.2, "coherence": 0.5, "coherence_status": UNVERIFIED, "citation_trend": -0.9},
        {"publication_year": None, "year_issue": "not a year: 'XIII'", "centrality": 0.7, "coherence": 0.9, "openalex_retracted": True},
        {"publication_year": 2015, "centrality": 0.4, "coherence": 0.7, "dataset_superseded": True, "superseded_since": "2019-11-27"},
    )
    signals = edge_signals(edges, as_of=AS_OF, decay="log", centrality_rule="mean", lifecycle_penalty=0.2)
    for weights in (Weights(), Weights(0.0, 1.0, 0.0), Weights(0.2, 0.2, 0.6)):
        once = label_edges(signals, weights=weights, thresholds=Thresholds(current_recency=0.5))
        direct = score_edges(
            edges, as_of=AS_OF, weights=weights, decay="log", centrality_rule="mean", lifecycle_penalty=0.2,
            thresholds=Thresholds(current_recency=0.5),
        )
        pd.testing.assert_frame_equal(once, direct)
    assert list(signals.frame.columns) == [*edges.columns, *ADDED_COLUMNS[:9]]  # label_edges adds to a copy

