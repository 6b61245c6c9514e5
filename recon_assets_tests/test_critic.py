"""The critic's rules (DOMAIN.md "Verdicts over an evidence set"), row by row: the staleness and contradiction
checks run first, sufficiency only when neither fires."""

import pytest
from pydantic import ValidationError

from recon_assets.verdicts.critic import (
    CONTRADICTED,
    FORCED_PASS,
    INSUFFICIENT,
    PASS,
    STALE,
    Check,
    ContradictingPair,
    Edge,
    ExpansionRound,
    Lifecycle,
    RecordedDispute,
    VerdictRules,
    combine,
    contradiction_check,
    judge,
    list_edges,
    needs_more_evidence,
    staleness_check,
    sufficiency,
)

RULES = VerdictRules()
CURRENT = Lifecycle()
SUPERSEDED_V006 = Lifecycle(superseded=True, version="V006", successor_version="V7.0", since="2019-11-27")
CONTRADICTION_4_YEARS = ContradictingPair("[Smith et al., 2019]", 2019, "[Chen et al., 2023]", 2023)
CONTRADICTION_1_YEAR = ContradictingPair("[Lee, 2022]", 2022, "[Park et al., 2023]", 2023)
COMMENT = RecordedDispute("[Saleska et al., 2007]", "[Samanta et al., 2010]")


def edges(*reliabilities: float, label: str = "CURRENT") -> list[Edge]:
    return [Edge(f"[Author{index} et al., 2020]", value, label) for index, value in enumerate(reliabilities)]


@pytest.mark.parametrize(
    ("evidence", "insufficient"),
    [
        ([], True),
        (edges(0.9, 0.9), True),  # fewer than 3 edges
        (edges(0.9, 0.9, 0.39), True),  # 3 edges, 2 reliable
        (edges(0.9, 0.5, 0.40), False),  # 0.40 itself is reliable
        (edges(0.4, 0.4, 0.3999999999999999), False),  # float noise at the bar is 0.40
        # UNVERIFIED edges are not assessed evidence, whatever their reliability
        (edges(0.9, 0.9, label="CURRENT") + edges(0.9, label="UNVERIFIED"), True),
        (edges(0.1, 0.1, 0.1, 0.41, 0.5, 0.6), False),
    ],
)
def test_sufficiency_needs_3_assessed_edges_and_3_reliable(evidence, insufficient):
    assert sufficiency(evidence, RULES).flagged is insufficient


@pytest.mark.parametrize(
    ("evidence", "lifecycle", "stale", "why"),
    [
        (edges(0.7, 0.6, 0.5), CURRENT, False, "not stale: dataset version current, 0 of 3 assessed edges weak"),
        # 2 of 3 assessed edges weak: a majority
        (edges(0.7) + edges(0.2, 0.3, label="DECLINING"), CURRENT, True,
         "2 of 3 assessed edges weak (labelled DECLINING or SUPERSEDED, at any reliability; stale above 50%): "
         "[Author0 et al., 2020] 0.20 DECLINING"),
        # half is not most
        (edges(0.7, 0.6) + edges(0.2, 0.3, label="DECLINING"), CURRENT, False, "2 of 4 assessed edges weak"),
        # a low reliability without a flag is not weak: labels are findings
        (edges(0.1, 0.1, 0.2), CURRENT, False, "0 of 3 assessed edges weak"),
        # UNVERIFIED edges are left out of the share
        (edges(0.2, label="DECLINING") + edges(0.9, 0.9, label="UNVERIFIED"), CURRENT, True, "1 of 1 assessed edges weak"),
        (edges(0.9, 0.8, 0.7), SUPERSEDED_V006, True, "dataset version V006 superseded by V7.0 since 2019-11-27, under all 3 edges: "
         "[Author2 et al., 2020] 0.70 CURRENT"),
        (edges(0.7, 0.6), Lifecycle(superseded=True), True, "dataset version (unknown) superseded by a successor, under both its edges"),  # not "all 2 edges" (new-user pass)
        # new-user finding: 'under all 1 edges'
        (edges(0.7), Lifecycle(superseded=True), True, "dataset version (unknown) superseded by a successor, under its one edge"),
        # Issue 24: both causes listed the same edges twice ('under all 7 edges: [Pour, 2019] ...; 7 of 7 assessed
        # edges weak (...): [Pour, 2019] ...'); the weak ones are listed once, under the weak share.
        (edges(0.41, 0.2, label="DECLINING") + edges(0.9, label="UNVERIFIED"), SUPERSEDED_V006, True,
         "dataset version V006 superseded by V7.0 since 2019-11-27, under all 3 edges; 2 of 2 assessed edges weak (labelled "
         "DECLINING or SUPERSEDED, at any reliability; stale above 50%): [Author1 et al., 2020] 0.20 DECLINING, "
         "[Author0 et al., 2020] 0.41 DECLINING"),
    ],
)
def test_staleness_is_a_superseded_version_or_most_assessed_edges_weak(evidence, lifecycle, stale, why):
    check = staleness_check(evidence, lifecycle, RULES)
    assert check.flagged is stale
    assert why in check.why
    for edge in evidence:
        assert check.why.count(edge.citation) <= 1, edge.citation


@pytest.mark.parametrize(
    ("pairs", "disputes", "contradicted", "why"),
    [
        ([], [], False, "no recorded dispute and no contradicting pair at least 2 years apart"),
        ([CONTRADICTION_4_YEARS], [], True, "[Chen et al., 2023] contradicts [Smith et al., 2019] (4 years apart)"),
        ([CONTRADICTION_1_YEAR], [], False, "(1 contradicting pair(s) less than 2 years apart"),
        ([ContradictingPair("[A, n.d.]", None, "[B, 2024]", 2024)], [], False, "or of unknown year not counted"),
        ([ContradictingPair("[A, 2021]", 2021, "[B, 2023]", 2023)], [], True, "(2 years apart)"),  # exactly 2 years counts
        # a recorded comment counts whatever the years: comments usually follow within months
        ([CONTRADICTION_1_YEAR], [COMMENT], True, "[Samanta et al., 2010] comments on [Saleska et al., 2007]"),
        ([], [RecordedDispute("[A, 2020]", "[B, 2020]", answered=True)], True, "(answered by its authors: debated)"),
    ],
)
def test_contradiction_is_a_recorded_comment_or_a_pair_at_least_2_years_apart(pairs, disputes, contradicted, why):
    check = contradiction_check(pairs, disputes, RULES)
    assert check.flagged is contradicted
    assert why in check.why


@pytest.mark.parametrize(
    ("stale", "contradicted", "verdict"),
    [(False, False, None), (True, False, STALE), (False, True, CONTRADICTED), (True, True, CONTRADICTED)],
)
def test_the_stronger_signal_wins(stale, contradicted, verdict):
    assert combine(Check(stale, ""), Check(contradicted, "")) == verdict


@pytest.mark.parametrize(
    ("evidence", "lifecycle", "pairs", "disputes", "verdict", "reason_parts"),
    [
        (edges(0.8, 0.7, 0.6), CURRENT, [], [], PASS,
         ["PASS: 3 edge(s), 3 assessed (not UNVERIFIED), 3 with reliability >= 0.40", "[Author0 et al., 2020] 0.80 CURRENT",
          "not stale", "no recorded dispute"]),
        (edges(0.8, 0.7, 0.6), SUPERSEDED_V006, [], [], STALE, ["STALE: dataset version V006 superseded by V7.0"]),
        (edges(0.8, 0.7, 0.6), CURRENT, [CONTRADICTION_4_YEARS], [], CONTRADICTED,
         ["CONTRADICTED: [Chen et al., 2023] contradicts [Smith et al., 2019]", "not stale"]),
        (edges(0.8, 0.7, 0.6), SUPERSEDED_V006, [CONTRADICTION_4_YEARS], [], CONTRADICTED,
         ["CONTRADICTED: [Chen et al., 2023] contradicts", "also stale: dataset version V006 superseded"]),
        # staleness and contradiction come before sufficiency: two edges on a replaced version are STALE, not INSUFFICIENT
        (edges(0.8, 0.7), SUPERSEDED_V006, [], [], STALE, ["STALE: dataset version V006 superseded"]),
        (edges(0.3), CURRENT, [], [COMMENT], CONTRADICTED, ["CONTRADICTED: [Samanta et al., 2010] comments on [Saleska et al., 2007]"]),
        (edges(0.2, 0.3, label="DECLINING"), CURRENT, [], [], STALE, ["STALE: 2 of 2 assessed edges weak"]),
        (edges(0.8, 0.7), CURRENT, [], [], INSUFFICIENT,
         ["INSUFFICIENT: 2 edge(s), 2 assessed (not UNVERIFIED), 2 with reliability >= 0.40 (3 of each needed)",
          "evidence [Author0 et al., 2020] 0.80 CURRENT"]),
        ([], CURRENT, [], [], INSUFFICIENT, ["INSUFFICIENT: 0 edge(s)", "no evidence"]),
        (edges(0.9, 0.9, 0.9, label="UNVERIFIED"), CURRENT, [], [], INSUFFICIENT, ["0 assessed (not UNVERIFIED)"]),
    ],
)
def test_judge_without_expansion(evidence, lifecycle, pairs, disputes, verdict, reason_parts):
    result = judge(evidence, lifecycle, pairs, VerdictRules(expansion_rounds=0), disputes=disputes)
    assert result.verdict == verdict
    assert all(part in result.reason for part in reason_parts), result.reason


def test_both_checks_always_run_and_are_reported():
    result = judge(edges(0.8), SUPERSEDED_V006, [CONTRADICTION_4_YEARS], RULES)
    assert result.verdict == CONTRADICTED and result.staleness.flagged and result.contradiction.flagged
    insufficient = judge(edges(0.8), CURRENT, [], RULES)
    assert insufficient.verdict == INSUFFICIENT and not insufficient.staleness.flagged and not insufficient.contradiction.flagged


@pytest.mark.parametrize(
    ("evidence", "lifecycle", "needed"),
    [(edges(0.8, 0.7), CURRENT, True), (edges(0.8, 0.7, 0.6), CURRENT, False), (edges(0.8), SUPERSEDED_V006, False)],
)
def test_expansion_is_needed_only_when_no_check_fires_and_the_set_is_insufficient(evidence, lifecycle, needed):
    assert needs_more_evidence(evidence, lifecycle, [], [], RULES) is needed


CACHE_NOTHING = ExpansionRound("OpenAlex cache", "the dataset DOI is not in the OpenAlex cache")
ONLINE_NOTHING = ExpansionRound("OpenAlex", "the dataset DOI is not in OpenAlex")
ONLINE_OFFLINE = ExpansionRound("OpenAlex", "OpenAlex offline: not asked", ran=False)
NO_DOI = [ExpansionRound(source, "the dataset has no DOI", ran=False) for source in ("OpenAlex cache", "OpenAlex")]
CACHE_ONE = ExpansionRound("OpenAlex cache", "1 cached work(s) cite W1", (Edge("[10.3390/rs1, 2021]", 0.45, "CURRENT"),))
ONLINE_ONE = ExpansionRound("OpenAlex", "2 OpenAlex work(s) cite W1", (Edge("[10.3390/rs2, 2022]", 0.5, "CURRENT"),))
ONLINE_WEAK = ExpansionRound("OpenAlex", "2 OpenAlex work(s) cite W1", tuple(edges(0.3, 0.2, 0.2, label="DECLINING")))


@pytest.mark.parametrize(
    ("evidence", "rounds", "verdict", "counts", "reason_parts"),
    [
        # nothing found in 2 rounds that both ran: the ceiling is hit
        (edges(0.8, 0.7), [CACHE_NOTHING, ONLINE_NOTHING], FORCED_PASS, (2, 2, 2, 0),
         ["FORCED_PASS: still insufficient after the ceiling of 2 expansion round(s), 2 edge(s)",
          "round 1, OpenAlex cache: the dataset DOI is not in the OpenAlex cache",
          "round 2, OpenAlex: the dataset DOI is not in OpenAlex"]),
        # offline, round 2 could not run, so it is not a round: INSUFFICIENT, saying why
        (edges(0.8, 0.7), [CACHE_NOTHING, ONLINE_OFFLINE], INSUFFICIENT, (2, 2, 1, 0),
         ["only 1 of 2 expansion round(s) ran", "round 2, OpenAlex could not run: OpenAlex offline: not asked"]),
        # without a DOI no round can run
        (edges(0.8), NO_DOI, INSUFFICIENT, (1, 1, 0, 0), ["only 0 of 2 expansion round(s) ran"]),
        # round 1 found one more reliable publication: sufficient, judged as usual
        (edges(0.8, 0.7), [CACHE_ONE], PASS, (3, 3, 1, 1),
         ["PASS: 3 edge(s)", "round 1, OpenAlex cache: 1 cached work(s) cite W1: [10.3390/rs1, 2021] 0.45 CURRENT"]),
        # one expanded in round 2, still one reliable short
        (edges(0.8, 0.2, 0.1), [CACHE_NOTHING, ONLINE_ONE], FORCED_PASS, (4, 2, 2, 1), ["4 edge(s), 4 assessed"]),
        # what expansion finds is checked too: three weak publications make the set stale
        (edges(0.8, 0.7), [CACHE_NOTHING, ONLINE_WEAK], STALE, (5, 2, 2, 3), ["STALE: 3 of 5 assessed edges weak"]),
    ],
)
def test_judge_with_expansion_rounds(evidence, rounds, verdict, counts, reason_parts):
    result = judge(evidence, CURRENT, [], RULES, rounds)
    assert result.verdict == verdict
    assert (result.n_edges, result.n_reliable, result.expansion_rounds, result.expanded_publications) == counts
    assert all(part in result.reason for part in reason_parts), result.reason


def test_reasons_list_at_most_listed_edges_and_count_the_rest():
    text = list_edges(edges(0.9, 0.8, 0.7, 0.6), VerdictRules(listed_edges=2))
    assert text == "[Author0 et al., 2020] 0.90 CURRENT, [Author1 et al., 2020] 0.80 CURRENT and 2 more"


@pytest.mark.parametrize(
    "changes", [{"min_edges": 0}, {"reliable": 1.5}, {"weak_share": 1.0}, {"expansion_rounds": 3}, {"listed_edges": 0}]
)
def test_rules_out_of_range_are_refused(changes):
    with pytest.raises(ValidationError):
        VerdictRules(**changes)


@pytest.mark.parametrize(("reliability", "shown"), [(0.3995, "0.399"), (0.4, "0.40"), (0.55, "0.55"), (0.394, "0.39")])
def test_listed_reliabilities_never_show_an_unreliable_edge_at_the_bar(reliability, shown):
    """bug fixed: an edge at 0.3995 was listed as "0.40" in a reason counting it below 0.40."""
    assert list_edges([Edge("[a]", reliability, "DECLINING")], RULES) == f"[a] {shown} DECLINING"
