"""Edge scoring: DOMAIN.md's six worked cases first, then each label rule, signal and setting on its own.

Rows are built by `edge`: one Dataset→Publication edge as recon_assets/reliability/sql/edges_in_research_areas.sql and edge_scores give it
to `score_edges`, with no OpenAlex record, no KG citation, nothing judged and a current dataset version unless a
test says otherwise.
"""

from __future__ import annotations

import json
from datetime import date, datetime, timezone

import numpy as np
import pandas as pd
import pytest
from pydantic import ValidationError

from recon_assets.centrality.centrality_rule import combine_centrality
from recon_assets.centrality.citation_centrality import citation_centrality
from recon_assets.reliability.labels import CURRENT, DECLINING, FOUNDATIONAL, SUPERSEDED, UNVERIFIED, reliability
from recon_assets.reliability.reasons import reliability_text
from recon_assets.reliability.scoring import score_edges
from recon_assets.reliability.settings import LabelThresholds, ScoringSettings, TrendRules, Weights
from recon_assets.reliability.signals import age_years, recency, retraction, superseded_before

AS_OF = date(2026, 6, 1)
FETCHED = datetime(2026, 3, 1, tzinfo=timezone.utc)  # before AS_OF: the records' 2026 counts are all before it


def counts(**by_year: int) -> str:
    """OpenAlex counts_by_year JSON from y2023=6-style keywords, years without citations left out."""
    return json.dumps([{"year": int(key[1:]), "cited_by_count": value} for key, value in by_year.items() if value])


def edge(**given) -> dict:
    """One edge; `record=n` gives it an OpenAlex record with n citations (counts_by_year from `yearly`)."""
    row = {
        "research_area": "hydrology", "dataset_id": "d1", "publication_id": "p1", "dataset_doi": "10.5067/x.006",
        "dataset_short_name": "X", "publication_doi": "10.1/p1", "kg_year": 2015, "year_issue": None,
        "citation": "[Smith et al., 2015]", "pagerank_centrality": 0.0, "kg_citations": 0, "kg_recent_citations": 0,
        "openalex_status": "error", "openalex_error": "offline: not in the recorded cache", "cited_by_count": None,
        "counts_by_year": None, "openalex_fetched_at": None, "openalex_year": None, "percentile_low": None,
        "percentile_high": None, "openalex_retracted": False, "retraction_notice": False, "crossref_notice_dois": None,
        "dataset_superseded": False, "dataset_version": "V006", "successor_version": None, "superseded_since": None,
        "dataset_collection_progress": None, "succession_basis": None, "coherence": 0.5, "coherence_status": UNVERIFIED,
        "coherence_evidence": None, "coherence_judges": None, "dispute_status": None, "dispute_evidence": None,
    }
    if "record" in given:
        row |= {"openalex_status": "found", "openalex_error": None, "cited_by_count": given.pop("record"),
                "counts_by_year": given.pop("yearly", "[]"), "openalex_fetched_at": FETCHED}
    if "superseded_since" in given:
        row |= {"dataset_superseded": True, "successor_version": "V7.0", "succession_basis": "inferred"}
    return row | given


def score(*rows: dict, as_of: date = AS_OF, settings: ScoringSettings | None = None) -> pd.DataFrame:
    return score_edges(pd.DataFrame(rows), as_of=as_of, settings=settings)


def one(row: dict, **keywords) -> pd.Series:
    return score(row, **keywords).iloc[0]


# ---------------------------------------------------------------- DOMAIN.md worked cases, as of 2026


def test_case_1_old_highly_cited_coherent_paper_is_foundational():
    scored = one(edge(kg_year=2003, record=10_000, coherence=0.8, coherence_status="SUPPORTED"))
    assert 0.92 <= scored["centrality"] <= 1.0 and scored["recency"] == 0.0
    assert 0.61 <= scored["reliability"] <= 0.64
    assert scored["label"] == FOUNDATIONAL and scored["dominant_signal"] == "centrality"


def test_case_2_recent_contradicted_little_cited_paper_is_superseded():
    scored = one(edge(kg_year=2020, record=5, coherence=0.1, coherence_status="CONTRADICTED",
                      coherence_evidence="by [Chen et al., 2023] (centrality 0.71): contradiction wording"))
    assert scored["centrality"] == pytest.approx(np.log1p(5) / np.log1p(10_000))
    assert scored["recency"] == pytest.approx(0.7)
    assert scored["reliability"] == pytest.approx(0.32, abs=0.005)
    assert scored["label"] == SUPERSEDED and scored["dominant_signal"] == "contradiction"
    assert "SUPERSEDED (reliability 0.32 < 0.35 with a judged contradiction)" in scored["reason"]


def test_case_3_cited_recently_on_a_current_version_is_current_not_declining_for_its_age():
    yearly = counts(y2016=10, y2017=10, y2018=9, y2019=9, y2020=2, y2021=2, y2022=2, y2023=2, y2024=2, y2025=2)
    scored = one(edge(kg_year=2012, record=50, yearly=yearly))
    assert scored["age"] == 14 and scored["recent_citations"] == 6
    assert scored["negative_signals"] == [] and scored["label"] == CURRENT
    assert "no negative signal; cited in 2023-2026" in scored["reason"]


def test_case_4_highly_cited_paper_on_a_replaced_version_stays_foundational_with_penalty_and_successor():
    scored = one(edge(kg_year=2008, record=10_000, superseded_since="2019"))
    assert scored["label"] == FOUNDATIONAL
    assert scored["lifecycle_penalty"] == 0.15 and "superseded_version" in scored["negative_signals"]
    assert "superseded by V7.0 since 2019 (lifecycle penalty -0.15" in scored["reason"]


def test_case_5_recent_paper_without_citation_record_on_a_current_version_is_current():
    scored = one(edge(kg_year=2024))
    assert scored["recency"] == pytest.approx(0.9) and scored["label"] == CURRENT and scored["dominant_signal"] == "recency"


def test_case_6_offline_old_paper_at_the_pagerank_floor_with_nothing_judged_is_unverified():
    scored = one(edge(kg_year=2010, pagerank_centrality=0.0, kg_citations=0))
    assert scored["label"] == UNVERIFIED and scored["dominant_signal"] == "none"
    assert not scored["centrality_evidence"] and scored["evidence"] == []
    assert "no citation record (OpenAlex: offline: not in the recorded cache; set OPENALEX_API_KEY to fetch)" in scored["reason"]
    assert "no judged evidence" in scored["reason"]


# ---------------------------------------------------------------- label rules, first match wins


@pytest.mark.parametrize(
    ("given", "label", "dominant"),
    [
        # 1. retracted: SUPERSEDED whatever else holds
        (edge(kg_year=2003, record=10_000, openalex_retracted=True), SUPERSEDED, "retraction"),
        # a judged supersession or a standing dispute (a comment not answered on record) below 0.35 is SUPERSEDED too
        (edge(kg_year=2019, coherence=0.3, coherence_status="SUPERSEDED"), SUPERSEDED, "supersession"),
        (edge(kg_year=2012, coherence=0.1, dispute_status="commented"), SUPERSEDED, "dispute"),
        # a debated dispute (comment and reply) alone is a negative signal, never SUPERSEDED: Hansen 2013 and Zhao 2010
        # were SUPERSEDED at 0.32 and 0.29 because the rule counted a debated dispute as standing (issue 20)
        (edge(kg_year=2012, dispute_status="debated"), DECLINING, "dispute"),
        # beside a judged supersession it is the supersession that makes it SUPERSEDED, and the one named
        (edge(kg_year=2012, coherence=0.3, coherence_status="SUPERSEDED", dispute_status="debated"), SUPERSEDED, "supersession"),
        # above the bar a contradiction is DECLINING, and it blocks FOUNDATIONAL
        (edge(kg_year=2024, record=300, coherence=0.1, coherence_status="CONTRADICTED"), DECLINING, "contradiction"),
        (edge(kg_year=2010, record=10_000, dispute_status="commented"), DECLINING, "dispute"),
        # a debated (answered) dispute does not block FOUNDATIONAL; a correction is no negative signal
        (edge(kg_year=2010, record=10_000, dispute_status="debated"), FOUNDATIONAL, "centrality"),
        (edge(kg_year=2024, dispute_status="corrected"), CURRENT, "recency"),
        # 2. FOUNDATIONAL by centrality on evidence, by the field-and-year percentile, or old and growing
        (edge(kg_year=2015, record=400), FOUNDATIONAL, "centrality"),
        (edge(kg_year=2015, pagerank_centrality=0.7, kg_citations=12), FOUNDATIONAL, "centrality"),
        (edge(kg_year=2015, record=40, percentile_low=0.995, percentile_high=0.995), FOUNDATIONAL, "field_percentile"),
        (edge(kg_year=2012, record=30, yearly=counts(y2017=1, y2018=1, y2019=1, y2023=4, y2024=4, y2025=4)), FOUNDATIONAL, "citation_trend"),
        # a PageRank without KG citations is no evidence: not FOUNDATIONAL, whatever its value
        (edge(kg_year=2010, pagerank_centrality=0.9, kg_citations=0), UNVERIFIED, "none"),
        # 3. DECLINING on any other negative signal
        (edge(kg_year=2022, superseded_since="2021-07-07"), DECLINING, "superseded_version"),
        (edge(kg_year=2015, record=60, yearly=counts(y2020=10, y2021=10, y2022=10, y2023=1, y2024=1, y2025=1)), DECLINING, "citation_decline"),
        # citations that stopped are a steep decline too
        (edge(kg_year=2018, record=10, yearly=counts(y2020=5, y2021=5)), DECLINING, "citation_decline"),
        (edge(kg_year=2012, record=20, yearly=counts(y2016=5, y2017=5)), DECLINING, "peripheral"),
        (edge(kg_year=2012, record=40, percentile_low=0.2, percentile_high=0.3, yearly=counts(y2024=1)), DECLINING, "peripheral"),
        # age alone is never negative: old, cited recently, nothing else
        (edge(kg_year=1990, record=40, yearly=counts(y2024=3)), CURRENT, "citations"),
        # 4. CURRENT: recent, or cited recently (KG citations of the recent years count)
        (edge(kg_year=2025), CURRENT, "recency"),
        (edge(kg_year=2015, kg_citations=2, kg_recent_citations=1), CURRENT, "citations"),
        # 5. UNVERIFIED: a citation record with nothing recent, too few citations for a trend, not old enough to be peripheral
        (edge(kg_year=2018, record=3, yearly=counts(y2019=3)), UNVERIFIED, "none"),
    ],
)
def test_label_rules_first_match_wins(given, label, dominant):
    scored = one(given)
    assert (scored["label"], scored["dominant_signal"]) == (label, dominant), scored["reason"]


def test_a_debated_dispute_is_declining_at_most_and_the_reason_and_why_line_say_so():
    """Issue 20: a debated dispute (comment and reply) counted as standing made Hansen 2013 and Zhao 2010 SUPERSEDED;
    only a standing one (a comment not answered on record up to as_of) is judged evidence for SUPERSEDED."""
    from recon_assets.reliability.label_comparisons import label_comparisons

    evidence = {"dispute_evidence": "comment [Tyukavina, 2014] (kg title)"}
    standing = one(edge(kg_year=2013, coherence=0.1, dispute_status="commented", **evidence))
    debated = one(edge(kg_year=2013, dispute_status="debated", **evidence))
    assert standing["reliability"] < 0.35 and debated["reliability"] < 0.35
    assert standing["label"] == SUPERSEDED and "SUPERSEDED (reliability 0.14 < 0.35 with a standing dispute)" in standing["reason"]
    assert debated["label"] == DECLINING and debated["negative_signals"] == ["dispute"]
    assert ("DECLINING (negative signals: a recorded comment on it, debated (answered by its authors: DECLINING at most))"
            in debated["reason"])
    rows = score(edge(kg_year=2013, coherence=0.1, dispute_status="commented"), edge(kg_year=2013, dispute_status="debated"))
    rows = rows.assign(scoring_settings=ScoringSettings().model_dump_json(), as_of=pd.Timestamp(AS_OF))
    standing_why, debated_why = label_comparisons(rows)
    assert standing_why == "reliability 0.14 < 0.35 with a standing dispute -> SUPERSEDED"
    assert debated_why.startswith(
        "not SUPERSEDED: no judged contradiction, judged supersession or standing dispute (the recorded comment was answered "
        "by its authors: debated) | not FOUNDATIONAL: centrality 0.00 < 0.6 without evidence"
    )
    assert debated_why.endswith("negative signal dispute -> DECLINING")


def test_a_retraction_notice_is_not_itself_retracted():
    scored = one(edge(kg_year=2024, openalex_retracted=True, retraction_notice=True))
    assert not scored["is_retracted"] and scored["label"] == CURRENT
    assert "a retraction notice, not itself a retracted finding" in scored["reason"]


@pytest.mark.parametrize(
    ("openalex", "notices", "is_notice", "expected"),
    [
        (False, (), False, None),
        (True, (), False, "OpenAlex is_retracted"),
        (False, ("10.1/n",), False, "Crossref notice 10.1/n"),
        (True, ("10.1/n", "10.1/m"), False, "OpenAlex is_retracted; Crossref notice 10.1/n; Crossref notice 10.1/m"),
        (True, ("10.1/n",), True, None),
    ],
)
def test_retraction_sources(openalex, notices, is_notice, expected):
    assert retraction(openalex, notices, is_notice) == expected


def test_evidence_lists_every_signal_observed():
    scored = one(edge(kg_year=2024, record=30, yearly=counts(y2024=10, y2025=20), percentile_low=0.9, percentile_high=0.9,
                      kg_citations=1, coherence=1.0, coherence_status="SUPPORTED", superseded_since="2020"))
    assert scored["evidence"] == ["citation_record", "kg_citations", "field_percentile", "cited_recently", "recent",
                                  "judged_pairs", "superseded_version"]


# ---------------------------------------------------------------- nothing dated after as_of


def test_citations_after_as_of_are_taken_off_and_a_record_fetched_later_gives_no_percentile():
    fetched_later = datetime(2026, 3, 1, tzinfo=timezone.utc)
    row = edge(kg_year=2015, record=100, yearly=counts(y2020=10, y2021=10, y2022=10, y2023=30, y2024=20, y2025=10),
               openalex_fetched_at=fetched_later, percentile_low=0.999, percentile_high=0.999)
    scored = one(row, as_of=date(2022, 6, 1))
    assert scored["citations_as_of"] == 100 - 30 - 20 - 10 - 10  # 2022 is partly after as_of: left out whole
    assert np.isnan(scored["field_percentile_low"]) and scored["label"] != FOUNDATIONAL


def test_a_record_that_cannot_be_taken_back_to_as_of_is_no_citation_record():
    scored = one(edge(kg_year=2000, record=500, yearly=counts(y2020=10)), as_of=date(2005, 1, 1))
    assert not scored["citation_record"] and np.isnan(scored["citations_as_of"])


def test_a_successor_released_after_as_of_costs_nothing_and_the_reason_says_so():
    scored = one(edge(kg_year=2015, superseded_since="2030-01-01"))
    assert scored["lifecycle_penalty"] == 0 and "superseded_version" not in scored["negative_signals"]
    assert "superseded by V7.0 since 2030-01-01, after as_of: no lifecycle penalty" in scored["reason"]


@pytest.mark.parametrize(
    ("since", "as_of", "penalty", "said"),
    [
        # issue 20: a supersession of unknown date counts from the first record of it, never before
        ("by 2025-05-31", date(2025, 5, 30), 0.0, "superseded by V7.0 on an unknown date, on record by 2025-05-31, after as_of: no lifecycle penalty"),
        ("by 2025-05-31", AS_OF, 0.15, "superseded by V7.0 on an unknown date, on record by 2025-05-31 (lifecycle penalty -0.15"),
        # nothing dates it: it does not count (it was counted at every as_of, 1990 included)
        (None, AS_OF, 0.0, "superseded by V7.0 on a date nothing on record gives: not counted, no lifecycle penalty"),
    ],
)
def test_a_supersession_of_unknown_date_does_not_count_before_the_evidence_of_it(since, as_of, penalty, said):
    scored = one(edge(kg_year=2015, superseded_since=since), as_of=as_of)
    assert scored["lifecycle_penalty"] == penalty and ("superseded_version" in scored["negative_signals"]) is bool(penalty)
    assert said in scored["reason"]


@pytest.mark.parametrize(
    ("since", "as_of", "expected"),
    [(None, AS_OF, False), ("2019", AS_OF, True), ("2026", AS_OF, True), ("2027", AS_OF, False),
     ("2026-06-01", AS_OF, True), ("2026-06-02", AS_OF, False), ("by 2026-06-01", AS_OF, True), ("by 2026-06-02", AS_OF, False)],
)
def test_superseded_before(since, as_of, expected):
    assert superseded_before(since, as_of) is expected


def test_superseded_before_refuses_other_text():
    with pytest.raises(ValueError):
        superseded_before("June 2019", AS_OF)


# ---------------------------------------------------------------- signals


@pytest.mark.parametrize(
    ("age", "none", "linear", "log"),
    [(0, 1.0, 1.0, 1.0), (6, 1.0, 0.7, 1 - np.log(7) / np.log(21)), (20, 1.0, 0.0, 0.0), (40, 1.0, 0.0, 0.0), (np.nan, 1.0, 0.0, 0.0)],
)
def test_recency_follows_domain_formulas(age, none, linear, log):
    for decay, expected in (("none", none), ("linear", linear), ("log", log)):
        assert recency(np.array([age]), decay)[0] == pytest.approx(expected)


def test_recency_rejects_an_unknown_decay():
    with pytest.raises(ValueError, match="decay"):
        recency(np.array([1.0]), "exp")


@pytest.mark.parametrize(("year", "expected"), [(2020, 6.0), (2030, 0.0), (None, np.nan), (pd.NA, np.nan)])
def test_age_years(year, expected):
    assert age_years(year, AS_OF) == pytest.approx(expected, nan_ok=True)


@pytest.mark.parametrize(("count", "expected"), [(0, 0.0), (5, np.log1p(5) / np.log1p(10_000)), (10_000, 1.0), (10**6, 1.0)])
def test_citation_centrality(count, expected):
    assert citation_centrality(count) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("rule", "centrality", "source"),
    [("max", [0.5, 0.6, 0.3], ["pagerank", "citations", "pagerank"]), ("mean", [0.4, 0.45, 0.3], ["mean", "mean", "pagerank"]),
     ("pagerank", [0.5, 0.3, 0.3], ["pagerank"] * 3), ("citations", [0.3, 0.6, 0.3], ["citations", "citations", "pagerank"])],
)
def test_combine_centrality_rules(rule, centrality, source):
    values, sources = combine_centrality(np.array([0.5, 0.3, 0.3]), np.array([0.3, 0.6, np.nan]), rule)
    assert values.tolist() == pytest.approx(centrality) and sources.tolist() == source
    # an input that is no evidence (NaN) never counts: every rule takes the other, and neither gives 0
    values, sources = combine_centrality(np.array([np.nan, np.nan]), np.array([0.4, np.nan]), rule)
    assert values.tolist() == [0.4, 0.0] and sources.tolist() == ["citations", "none"]


def test_a_pagerank_that_is_no_evidence_adds_nothing_to_the_score_and_the_reason_says_so():
    """Issue 24: a PageRank of a publication no KG publication cites (a KG property from a larger graph) added 0.08
    to a score whose reason called it "no evidence of centrality". It does not count (DOMAIN.md: no evidence, not
    low centrality); with one KG citation it does."""
    uncited = one(edge(kg_year=2018, pagerank_centrality=0.197, kg_citations=0))
    cited = one(edge(kg_year=2018, pagerank_centrality=0.197, kg_citations=1))
    assert (uncited["centrality"], uncited["centrality_source"], uncited["centrality_evidence"]) == (0.0, "none", False)
    assert cited["reliability"] - uncited["reliability"] == pytest.approx(0.4 * 0.197)
    assert ("centrality 0.00 (no evidence of centrality, not low centrality: PageRank centrality 0.20 not counted (no KG "
            "citations up to as_of: no evidence); no citation count:") in uncited["reason"]
    assert "centrality 0.20 (low; PageRank centrality 0.20 (1 KG citation) alone; no citation count:" in cited["reason"]
    with_record = one(edge(kg_year=2018, pagerank_centrality=0.9, kg_citations=0, record=5, yearly=counts(y2024=2)))
    assert with_record["centrality"] == pytest.approx(np.log1p(5) / np.log1p(10_000)) and with_record["centrality_source"] == "citations"
    assert "max of PageRank centrality 0.90 not counted (no KG citations up to as_of: no evidence), citation centrality 0.19" in with_record["reason"]


def test_reliability_is_the_weighted_sum_less_the_penalty_within_the_unit_interval():
    weights = Weights()
    assert reliability(1.0, 0.0, 0.8, weights) == pytest.approx(0.64)
    assert reliability(0.0, 0.0, 0.0, weights, 0.15) == 0.0
    # summation noise never puts a score below a bar it meets
    assert reliability(0.5, 0.5, 0.0, Weights(centrality=0.35, recency=0.35, coherence=0.3)) == 0.35


@pytest.mark.parametrize(("value", "bars", "shown"), [(0.3495, (0.35,), "0.349"), (0.3995, (0.40,), "0.399"), (0.42, (0.35,), "0.42")])
def test_a_reliability_is_never_shown_reaching_a_bar_it_is_below(value, bars, shown):
    assert reliability_text(value, bars) == shown


def test_one_edge_shows_one_reliability_in_its_reason_and_in_recon_explain():
    """Issue 24: recon explain showed an edge's 0.3995 as 0.399 in its header (beside the verdicts' 0.40 bar) and as
    0.40 in its reason (beside the SUPERSEDED bar only); both read it through `reasons.shown_reliability` now."""
    from types import SimpleNamespace

    from recon_assets.cli.main import _reliability_line

    scored = one(edge(kg_year=2015, pagerank_centrality=0.28625, kg_citations=1))
    assert scored["reliability"] == pytest.approx(0.3995)
    assert scored["reason"].startswith("[Smith et al., 2015] reliability 0.399 UNVERIFIED")
    stored = SimpleNamespace(**scored[["reliability", "label", "dominant_signal", "evidence"]].to_dict(),
                             scoring_settings=ScoringSettings().model_dump_json())
    assert _reliability_line(stored).startswith(
        "reliability 0.399 (below the 0.40 bar: three decimals, as two would round it up onto the bar)  UNVERIFIED"
    )


def test_edges_keep_their_order_and_get_every_output_column():
    rows = [edge(publication_id=f"p{i}", kg_year=2000 + i) for i in range(5)]
    scored = score(*rows)
    assert scored["publication_id"].tolist() == [f"p{i}" for i in range(5)]
    for column in ("reliability", "label", "dominant_signal", "evidence", "negative_signals", "reason", "centrality_evidence"):
        assert scored[column].notna().all(), column


def test_an_unknown_year_gets_no_recency_and_the_reason_says_why():
    scored = one(edge(kg_year=None, year_issue="missing"))
    assert scored["recency"] == 0 and "publication year unknown (missing)" in scored["reason"]


def test_openalex_year_fills_a_missing_kg_year_and_the_reason_says_so():
    scored = one(edge(kg_year=None, year_issue="missing", record=3, openalex_year=2023))
    assert scored["publication_year"] == 2023 and scored["year_source"] == "openalex"
    assert "year 2023 from OpenAlex" in scored["reason"]


# ---------------------------------------------------------------- settings


@pytest.mark.parametrize(
    "bad",
    [
        {"weights": {"centrality": 0.5, "recency": 0.3, "coherence": 0.3}},
        {"weights": {"centrality": 1.5, "recency": -0.5, "coherence": 0.0}},
        {"decay": "cubic"},
        {"centrality_rule": "median"},
        {"lifecycle_penalty": 1.5},
        {"thresholds": {"superseded_reliability": -0.1}},
        {"thresholds": {"recent_citation_years": 0}},
        {"trend_rules": {"decline": 0.5}},
        {"weights": {"centrality": "0.4x"}},
    ],
)
def test_bad_settings_are_refused_with_a_clear_error(bad):
    with pytest.raises(ValidationError):
        ScoringSettings.model_validate(bad)


def test_settings_round_trip_through_their_stored_json():
    settings = ScoringSettings(weights=Weights(centrality=0.5, recency=0.2, coherence=0.3), decay="log",
                               thresholds=LabelThresholds(foundational_centrality=0.7), trend_rules=TrendRules(decline=-0.6))
    assert ScoringSettings.model_validate_json(settings.model_dump_json()) == settings


def test_other_settings_change_what_is_concluded_and_the_reason_quotes_the_bar():
    row = edge(kg_year=2015, record=400)  # 11 years old, 400 citations, none in the recent years
    assert one(row)["label"] == FOUNDATIONAL
    assert "centrality 0.65 >= 0.60 on OpenAlex citations" in one(row)["reason"]
    strict = one(row, settings=ScoringSettings(thresholds=LabelThresholds(foundational_centrality=0.9)))
    assert (strict["label"], strict["dominant_signal"]) == (DECLINING, "peripheral")
    assert "old (11 y >= 10) and measurably peripheral (not cited in 2023-2026)" in strict["reason"]


def test_an_edge_names_each_judge_behind_its_coherence_once_with_the_llm_prompt_version():
    from recon_assets.reliability.edge_scores import coherence_judges

    pairs = pd.DataFrame({
        "dataset_id": ["D1", "D1", "D1", "D2"],
        "older_publication_id": ["P1", "P1", "P1", "P1"],
        "newer_publication_id": ["N1", "N2", "N3", "N1"],
        "judge": ["offline/cues-v2", "groq/llama-3.3-70b-versatile", "offline/cues-v2", "offline/cues-v2"],
        "prompt_version": [None, "llm-v1", None, None],
    })
    judges = coherence_judges(pairs).set_index(["dataset_id", "publication_id"])["coherence_judges"].to_dict()
    assert judges == {
        ("D1", "P1"): "groq/llama-3.3-70b-versatile (prompt llm-v1); offline/cues-v2",
        ("D2", "P1"): "offline/cues-v2",
    }
    assert coherence_judges(pairs.iloc[:0]).empty


def test_an_edge_whose_judged_pairs_state_no_stance_says_what_was_read_and_is_not_called_supported():
    """Rules v2 of the offline judge: a newer work without stance wording is read, but is no evidence (it was SUPPORTED
    1.0, so that coherence 1.0 meant "no cue found"); it still reads the paper without objection, so a lighter
    contradiction does not decide the edge (`offline_judge.aggregate_edge_coherence`)."""
    from recon_assets.reliability.edge_scores import edge_coherence

    edges = pd.DataFrame({"dataset_id": ["D1"] * 3, "publication_id": ["P1", "P2", "P3"], "pagerank_centrality": [0.0] * 3,
                          "dispute_relations": [[], [], []]})
    rows = [  # older, newer, verdict, newer centrality
        ("P1", "N1", "UNVERIFIED", 0.1), ("P1", "N2", "UNVERIFIED", 0.3),
        ("P2", "N1", "CONTRADICTED", 0.1), ("P2", "N2", "UNVERIFIED", 0.3),
        ("P3", "N1", "UNVERIFIED", 0.1), ("P3", "N3", "CONTRADICTED", 0.6),
    ]
    tags = {"N1": "[Lee, 2021]", "N2": "[Kim, 2022]", "N3": "[Chen, 2023]"}
    pairs = pd.DataFrame({
        "dataset_id": "D1", "older_publication_id": [r[0] for r in rows], "newer_publication_id": [r[1] for r in rows],
        "verdict": [r[2] for r in rows], "coherence": [0.1 if r[2] == "CONTRADICTED" else 0.5 for r in rows],
        "rationale": ['contradiction wording "contrary to"' if r[2] == "CONTRADICTED" else "no wording found" for r in rows],
        "newer_centrality": [r[3] for r in rows], "newer_citation": [tags[r[1]] for r in rows],
        "judge": "offline/rules-v2", "prompt_version": None,
    })
    frame = edge_coherence(edges, pairs).set_index("publication_id")
    assert (frame.loc["P1", "coherence"], frame.loc["P1", "coherence_status"]) == (0.5, UNVERIFIED)
    assert frame.loc["P1", "coherence_evidence"] == "2 works read ([Kim, 2022], ...): no stance wording found"
    # a contradiction lighter than the works read without objection does not decide, and the reason says so
    assert (frame.loc["P2", "coherence"], frame.loc["P2", "coherence_status"]) == (0.5, UNVERIFIED)
    assert frame.loc["P2", "coherence_evidence"] == (
        '2 works read ([Kim, 2022], ...); 1 of them objects ([Lee, 2021]: contradiction wording "contrary to"), but the 1 '
        "that read it without objection ([Kim, 2022]) weighs at least as much"
    )
    # a heavier one does; the work without stance enters its coherence at the neutral 0.5, not at consensus
    assert (frame.loc["P3", "coherence"], frame.loc["P3", "coherence_status"]) == (pytest.approx((0.05 + 0.06) / 0.7), "CONTRADICTED")
    assert frame.loc["P3", "coherence_evidence"].startswith("by [Chen, 2023] (centrality 0.60): contradiction wording")

    read = edge(kg_year=2010, coherence_evidence=frame.loc["P1", "coherence_evidence"], coherence_judges="offline/rules-v2")
    scored = one(read)
    assert scored["label"] == UNVERIFIED
    assert "coherence UNVERIFIED (neutral 0.50): 2 works read ([Kim, 2022], ...): no stance wording found" in scored["reason"]
    assert "no judged evidence (the works read take no side that outweighs the others; the LLM judge (GROQ_API_KEY) " \
           "may add an objection the cue words miss, never a confirmation)" in scored["reason"]
    # once the LLM judge has read them too, the reason does not send the user to it again
    by_llm = one(read | {"coherence_judges": "groq/llama-3.3-70b-versatile (prompt llm-v1); offline/rules-v2"})
    assert "no stance wording found" in by_llm["reason"] and "GROQ_API_KEY" not in by_llm["reason"]


def test_an_outweighed_objection_names_the_works_that_outweigh_it():
    """Issue 24: the explanation named the objecting work but not the ones that outweighed it; they are named, most
    central first, up to 3, with a count of the rest."""
    from recon_assets.reliability.edge_scores import edge_coherence

    edges = pd.DataFrame({"dataset_id": ["D1"], "publication_id": ["P1"], "pagerank_centrality": [0.0], "dispute_relations": [[]]})
    newer = {"N1": 0.1, "N2": 0.5, "N3": 0.4, "N4": 0.3, "N5": 0.2, "N6": 0.6}  # N1 objects; the 5 others outweigh it
    pairs = pd.DataFrame({
        "dataset_id": "D1", "older_publication_id": "P1", "newer_publication_id": list(newer),
        "verdict": ["CONTRADICTED", *["UNVERIFIED"] * 5], "coherence": [0.1, *[0.5] * 5],
        "rationale": ['contradiction wording "contrary to"', *["no wording found"] * 5], "newer_centrality": list(newer.values()),
        "newer_citation": [f"[{work}, 2024]" for work in newer], "judge": "offline/rules-v2", "prompt_version": None,
    })
    [evidence] = edge_coherence(edges, pairs)["coherence_evidence"]
    assert evidence == (
        '6 works read ([N6, 2024], ...); 1 of them objects ([N1, 2024]: contradiction wording "contrary to"), but the 5 '
        "that read it without objection ([N6, 2024], [N2, 2024], [N3, 2024] and 2 more) weigh at least as much"
    )


def test_a_recorded_correction_sets_the_coherence_of_an_edge_without_objection_and_caps_an_objection():
    """Hostile finding: with a correction recorded, adding a SUPPORTED pair lowered the edge from 0.7 to 0.67 (the cap
    was a minimum for every judged edge); it sets an edge without objection, and caps an objection."""
    from recon_assets.reliability.edge_scores import edge_coherence

    edges = pd.DataFrame({"dataset_id": ["D1"] * 3, "publication_id": ["P1", "P2", "P3"], "pagerank_centrality": [0.0] * 3,
                          "dispute_relations": [["correction"]] * 3})
    rows = [  # older, newer, verdict, coherence
        ("P1", "N1", "UNVERIFIED", 0.5), ("P1", "N2", "UNVERIFIED", 0.5),
        ("P2", "N1", "UNVERIFIED", 0.5), ("P2", "N2", "UNVERIFIED", 0.5), ("P2", "N3", "SUPPORTED", 1.0),
        ("P3", "N3", "CONTRADICTED", 0.1),
    ]
    pairs = pd.DataFrame({
        "dataset_id": "D1", "older_publication_id": [r[0] for r in rows], "newer_publication_id": [r[1] for r in rows],
        "verdict": [r[2] for r in rows], "coherence": [r[3] for r in rows], "rationale": "r", "newer_centrality": 0.0,
        "newer_citation": [f"[{r[1]}]" for r in rows], "judge": "offline/rules-v2", "prompt_version": None,
    })
    frame = edge_coherence(edges, pairs).set_index("publication_id")
    assert frame["coherence_status"].to_dict() == {"P1": UNVERIFIED, "P2": "SUPPORTED", "P3": "CONTRADICTED"}
    assert frame["coherence"].round(4).to_dict() == {"P1": 0.7, "P2": 0.7, "P3": 0.1}
    assert set(frame["dispute_status"]) == {"corrected"}


@pytest.mark.parametrize(
    ("value", "bar", "text"),
    [(0.98891, 0.99, "0.989"), (0.99, 0.99, "0.99"), (0.9951, 0.99, "1.00"), (0.4999, 0.5, "0.4999"), (0.87, 0.99, "0.87")],
)
def test_a_figure_beside_a_bar_is_never_rounded_across_it(value, bar, text):
    """New-user finding: a reason printed percentile 0.99 for 0.98891, which misses the FOUNDATIONAL bar 0.99."""
    from recon_assets.reliability.reasons import beside_bar

    assert beside_bar(value, bar) == text


def test_a_count_seen_on_a_public_page_counts_from_that_day_and_the_reason_says_whose_it_is():
    """A record composed from a public page (no years, no OpenAlex answer; issue 20): from the day its count was seen it
    is a citation record, named as a page's count; before that day it is none, and the reason says why."""
    seen = datetime(2026, 12, 2, tzinfo=timezone.utc)
    row = edge(kg_year=2007, record=4459, yearly=None, openalex_fetched_at=seen)
    after = one(row, as_of=date(2026, 12, 2))
    assert after["citation_record"] and after["citations_as_of"] == 4459 and after["label"] == FOUNDATIONAL
    assert "from 4,459 citations counted on a public page up to as_of" in after["reason"]
    assert "on citations counted on a public page, not contradicted" in after["reason"] and "OpenAlex citation" not in after["reason"]
    before = one(row, as_of=date(2026, 11, 29))
    assert not before["citation_record"] and np.isnan(before["citations_as_of"]) and before["label"] != FOUNDATIONAL
    assert "no citation count: its count was seen on a public page on 2026-12-02, after as_of" in before["reason"]
