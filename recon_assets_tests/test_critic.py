"""The critic's rules (DOMAIN.md "Verdicts over an evidence set"), row by row."""

import pytest

from recon_assets.verdicts.critic import (
    CONTRADICTED,
    FORCED_PASS,
    INSUFFICIENT,
    PASS,
    STALE,
    Check,
    ContradictingPair,
    CriticRules,
    Edge,
    ExpansionRound,
    Lifecycle,
    combine,
    contradiction_check,
    judge,
    list_edges,
    staleness_check,
    sufficiency,
)

CURRENT = Lifecycle()
SUPERSEDED_V006 = Lifecycle(superseded=True, version="V006", successor_version="V7.0", since="2019-11-27")


def edges(*reliabilities: float, label: str = "DECLINING") -> list[Edge]:
    return [Edge(f"[Author{index} et al., 2020]", value, label) for index, value in enumerate(reliabilities)]


CONTRADICTION_4_YEARS = ContradictingPair("[Smith et al., 2019]", 2019, "[Chen et al., 2023]", 2023)
CONTRADICTION_1_YEAR = ContradictingPair("[Lee, 2022]", 2022, "[Park et al., 2023]", 2023)


@pytest.mark.parametrize(
    ("reliabilities", "insufficient"),
    [
        ((), True),
        ((0.9, 0.9), True),  # fewer than 3 edges
        ((0.9, 0.9, 0.39), True),  # 3 edges, 2 reliable
        ((0.9, 0.5, 0.40), False),  # 0.40 itself is reliable
        ((0.1, 0.1, 0.1, 0.41, 0.5, 0.6), False),
        ((0.1, 0.1, 0.1, 0.1, 0.5, 0.6), True),
        ((0.4, 0.4, 0.3999999999999999), False),  # float noise at the bar is 0.40 (hostile finding 9)
    ],
)
def test_sufficiency_needs_3_edges_and_3_reliable(reliabilities, insufficient):
    assert sufficiency(edges(*reliabilities)).flagged is insufficient


@pytest.mark.parametrize(
    ("evidence", "lifecycle", "stale", "why"),
    [
        (edges(0.7, 0.6, 0.5), CURRENT, False, "not stale: dataset version current, 0 of 3 edges weak"),
        # 3 of 6 weak is half: stale, the weakest named first
        (edges(0.7, 0.6, 0.5, 0.39, 0.2, 0.3), CURRENT, True, "3 of 6 edges weak (reliability < 0.40 or SUPERSEDED; stale from 50%): "
         "[Author4 et al., 2020] 0.20, [Author5 et al., 2020] 0.30, [Author3 et al., 2020] 0.39"),
        (edges(0.7, 0.6, 0.5, 0.45, 0.2, 0.3), CURRENT, False, "not stale: dataset version current, 2 of 6 edges weak"),
        # float noise at the bar is not weak (hostile finding 9)
        (edges(0.7, 0.6, 0.5, 0.3999999999999999, 0.2, 0.3), CURRENT, False, "not stale: dataset version current, 2 of 6 edges weak"),
        # a retracted publication is SUPERSEDED whatever its reliability: weak
        ([*edges(0.7, 0.6, 0.5), *edges(0.8, 0.8, 0.8, label="SUPERSEDED")], CURRENT, True, "3 of 6 edges weak"),
        (edges(0.9, 0.8, 0.7), SUPERSEDED_V006, True, "dataset version V006 superseded by V7.0 since 2019-11-27, under all 3 edges: "
         "[Author2 et al., 2020] 0.70, [Author1 et al., 2020] 0.80, [Author0 et al., 2020] 0.90"),
        (edges(0.7, 0.6, 0.5, 0.1, 0.2, 0.3), Lifecycle(superseded=True), True,
         "dataset version (unknown) superseded by a successor, under all 6 edges"),
    ],
)
def test_staleness_is_a_superseded_version_or_a_majority_of_weak_edges(evidence, lifecycle, stale, why):
    check = staleness_check(evidence, lifecycle)
    assert check.flagged is stale
    assert why in check.why


def test_staleness_names_both_causes_when_both_hold():
    check = staleness_check(edges(0.7, 0.6, 0.5, 0.1, 0.2, 0.3), SUPERSEDED_V006)
    assert check.flagged and "superseded by V7.0" in check.why and "3 of 6 edges weak" in check.why


@pytest.mark.parametrize(
    ("pairs", "contradicted", "why"),
    [
        ([], False, "no contradicting pair at least 2 years apart"),
        ([CONTRADICTION_4_YEARS], True, "[Chen et al., 2023] contradicts [Smith et al., 2019] (4 years apart)"),
        ([CONTRADICTION_1_YEAR], False, "no contradicting pair at least 2 years apart (1 contradicting pair(s) less than 2 years apart"),
        ([ContradictingPair("[A, n.d.]", None, "[B, 2024]", 2024)], False, "or of unknown year not counted"),
        ([ContradictingPair("[A, 2021]", 2021, "[B, 2023]", 2023)], True, "(2 years apart)"),  # exactly 2 years counts
        ([CONTRADICTION_1_YEAR, CONTRADICTION_4_YEARS], True, "(4 years apart) (1 contradicting pair(s) less than 2 years apart"),
    ],
)
def test_contradiction_needs_a_pair_at_least_2_years_apart(pairs, contradicted, why):
    check = contradiction_check(pairs)
    assert check.flagged is contradicted
    assert why in check.why


@pytest.mark.parametrize(
    ("stale", "contradicted", "verdict"),
    [(False, False, PASS), (True, False, STALE), (False, True, CONTRADICTED), (True, True, CONTRADICTED)],
)
def test_the_stronger_signal_wins(stale, contradicted, verdict):
    assert combine(Check(stale, ""), Check(contradicted, "")) == verdict


@pytest.mark.parametrize(
    ("evidence", "lifecycle", "pairs", "verdict", "reason_parts"),
    [
        (edges(0.8, 0.7, 0.6), CURRENT, [], PASS,
         ["PASS: 3 edge(s), 3 with reliability >= 0.40", "[Author0 et al., 2020] 0.80, [Author1 et al., 2020] 0.70",
          "not stale", "no contradicting pair"]),
        (edges(0.8, 0.7, 0.6), SUPERSEDED_V006, [], STALE, ["STALE: dataset version V006 superseded by V7.0", "no contradicting pair"]),
        (edges(0.8, 0.7, 0.6), CURRENT, [CONTRADICTION_4_YEARS], CONTRADICTED,
         ["CONTRADICTED: [Chen et al., 2023] contradicts [Smith et al., 2019]", "not stale"]),
        # both checks ran: the contradiction wins and the staleness is still reported
        (edges(0.8, 0.7, 0.6), SUPERSEDED_V006, [CONTRADICTION_4_YEARS], CONTRADICTED,
         ["CONTRADICTED: [Chen et al., 2023] contradicts", "also stale: dataset version V006 superseded"]),
        (edges(0.8, 0.7), SUPERSEDED_V006, [CONTRADICTION_4_YEARS], INSUFFICIENT,
         ["INSUFFICIENT: 2 edge(s), 2 with reliability >= 0.40 (3 of each needed)", "evidence [Author0 et al., 2020] 0.80"]),
        ([], CURRENT, [], INSUFFICIENT, ["INSUFFICIENT: 0 edge(s)", "no evidence"]),
        # hostile finding 9: three edges shown as 0.40 are three reliable edges
        (edges(0.4, 0.4, 0.3999999999999999), CURRENT, [], PASS, ["PASS: 3 edge(s), 3 with reliability >= 0.40"]),
    ],
)
def test_judge_without_expansion(evidence, lifecycle, pairs, verdict, reason_parts):
    result = judge(evidence, lifecycle, pairs, CriticRules(expansion_rounds=0))
    assert result.verdict == verdict
    assert all(part in result.reason for part in reason_parts), result.reason


@pytest.mark.parametrize(
    ("verdict", "staleness", "contradiction"),
    [(INSUFFICIENT, None, None), (PASS, False, False), (CONTRADICTED, True, True)],
)
def test_both_checks_run_once_sufficient_and_neither_when_not(verdict, staleness, contradiction):
    evidence = edges(0.8, 0.7) if verdict == INSUFFICIENT else edges(0.8, 0.7, 0.6)
    lifecycle, pairs = (SUPERSEDED_V006, [CONTRADICTION_4_YEARS]) if verdict == CONTRADICTED else (CURRENT, [])
    result = judge(evidence, lifecycle, pairs)
    assert result.verdict == verdict
    assert (result.staleness and result.staleness.flagged) == staleness
    assert (result.contradiction and result.contradiction.flagged) == contradiction


CACHE_NOTHING = ExpansionRound("OpenAlex cache", "the dataset DOI is not in the OpenAlex cache")
ONLINE_NOTHING = ExpansionRound("OpenAlex", "the dataset DOI is not in OpenAlex")
ONLINE_OFFLINE = ExpansionRound("OpenAlex", "OpenAlex offline: not asked", ran=False)
NO_DOI = [ExpansionRound(source, "the dataset has no DOI", ran=False) for source in ("OpenAlex cache", "OpenAlex")]
CACHE_ONE = ExpansionRound("OpenAlex cache", "1 cached work(s) cite W1", (Edge("[10.3390/rs1, 2021]", 0.45, "DECLINING"),))
ONLINE_ONE = ExpansionRound("OpenAlex", "2 OpenAlex work(s) cite W1", (Edge("[10.3390/rs2, 2022]", 0.5, "DECLINING"),))


@pytest.mark.parametrize(
    ("evidence", "rounds", "verdict", "counts", "reason_parts"),
    [
        # nothing found in 2 rounds that both ran: the ceiling is hit
        (edges(0.8, 0.7), [CACHE_NOTHING, ONLINE_NOTHING], FORCED_PASS, (2, 2, 2, 0),
         ["FORCED_PASS: still insufficient after the ceiling of 2 expansion round(s), 2 edge(s)",
          "round 1, OpenAlex cache: the dataset DOI is not in the OpenAlex cache",
          "round 2, OpenAlex: the dataset DOI is not in OpenAlex"]),
        # hostile finding 4: offline, round 2 could not run, so it is not a round: INSUFFICIENT, saying why
        (edges(0.8, 0.7), [CACHE_NOTHING, ONLINE_OFFLINE], INSUFFICIENT, (2, 2, 1, 0),
         ["INSUFFICIENT: 2 edge(s), 2 with reliability >= 0.40 (3 of each needed); only 1 of 2 expansion round(s) ran",
          "round 1, OpenAlex cache: the dataset DOI is not in the OpenAlex cache",
          "round 2, OpenAlex could not run: OpenAlex offline: not asked"]),
        # hostile finding 4: without a DOI no round can run
        (edges(0.8), NO_DOI, INSUFFICIENT, (1, 1, 0, 0),
         ["only 0 of 2 expansion round(s) ran", "round 1, OpenAlex cache could not run: the dataset has no DOI",
          "round 2, OpenAlex could not run: the dataset has no DOI"]),
        # round 1 found one more reliable publication: sufficient, judged as usual
        (edges(0.8, 0.7), [CACHE_ONE], PASS, (3, 3, 1, 1),
         ["PASS: 3 edge(s), 3 with reliability >= 0.40", "round 1, OpenAlex cache: 1 cached work(s) cite W1: [10.3390/rs1, 2021] 0.45"]),
        # one expanded in each round, still one reliable short
        (edges(0.8, 0.2, 0.1), [CACHE_NOTHING, ONLINE_ONE], FORCED_PASS, (4, 2, 2, 1),
         ["4 edge(s), 2 with reliability >= 0.40", "round 2, OpenAlex: 2 OpenAlex work(s) cite W1: [10.3390/rs2, 2022] 0.50"]),
        # only one round run so far: not yet at the ceiling
        (edges(0.8), [CACHE_NOTHING], INSUFFICIENT, (1, 1, 1, 0), ["INSUFFICIENT: 1 edge(s)", "round 1, OpenAlex cache"]),
    ],
)
def test_judge_with_expansion_rounds(evidence, rounds, verdict, counts, reason_parts):
    result = judge(evidence, CURRENT, [], CriticRules(), rounds)
    assert result.verdict == verdict
    assert (result.n_edges, result.n_reliable, result.expansion_rounds, result.expanded_publications) == counts
    assert all(part in result.reason for part in reason_parts), result.reason


def test_reasons_list_at_most_listed_edges_and_count_the_rest():
    text = list_edges(edges(0.9, 0.8, 0.7, 0.6), CriticRules(listed_edges=2))
    assert text == "[Author0 et al., 2020] 0.90, [Author1 et al., 2020] 0.80 and 2 more"
    assert list_edges([Edge("[R, 2020]", 0.7, "SUPERSEDED")]) == "[R, 2020] 0.70 SUPERSEDED"


@pytest.mark.parametrize(
    "changes", [{"min_edges": 0}, {"reliable": 1.5}, {"weak_share": 0.0}, {"expansion_rounds": 3}, {"listed_edges": 0}]
)
def test_rules_out_of_range_are_refused(changes):
    with pytest.raises(ValueError, match="critic rules out of range"):
        CriticRules(**changes)


@pytest.mark.parametrize(("reliability", "shown"), [(0.3995, "0.399"), (0.4, "0.40"), (0.55, "0.55"), (0.394, "0.39")])
def test_listed_reliabilities_never_show_an_unreliable_edge_at_the_bar(reliability, shown):
    """bug fixed: an edge at 0.3995 was listed as "0.40" in a reason counting it below 0.40."""
    assert list_edges([Edge("[a]", reliability, "DECLINING")]) == f"[a] {shown}"
