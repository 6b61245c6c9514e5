"""The research briefs' findings of a new-user pass (issue 21), each a row on the pure functions:

1. A TRMM 3B42 question answered PASS with every TRMM paper LOW and the Key Findings on other datasets: the critic
   weighed every edge of every retrieved paper. Only the edges to the question's datasets in scope count
   (`answering.Pool.scope_edges`), and a question whose scope names no dataset is scoped to the datasets its text
   names (`questions.datasets_named_in`, read by the papers' dataset detector: product lines, title words, versions).
2. A finding shown HIGH while it cites a CURRENT paper of reliability 0.43: a claim's confidence is capped by its
   evidence's reliability band (`synthesis.evidence_confidence`).
3. "11 retrieved, 11 assessed" beside a trust summary of 10 papers: every retrieved paper has its trust line.
4. FORCED_PASS read like a pass: the brief says the retry ceiling was hit and what the evidence still is.
"""

from __future__ import annotations

import json
from datetime import date

import pandas as pd
import pytest

from recon_assets.briefs.answering import Pool, assess
from recon_assets.briefs.critic import Debates, EdgeAssessment, judge_question
from recon_assets.briefs.questions import DatasetRow, Scope, datasets_named_in, resolve_scope
from recon_assets.briefs.synthesis import (
    HIGH,
    HIGH_RELIABILITY,
    LOW,
    MEDIUM,
    brief_from_answer,
    evidence_confidence,
    extractive_brief,
    trust_level,
)
from recon_assets.judgement.verdict_scale import NEUTRAL_COHERENCE
from recon_assets.reliability.settings import Weights
from recon_assets.verdicts.critic import CONTRADICTED, FORCED_PASS, INSUFFICIENT, PASS, STALE, VerdictRules
from recon_assets_tests.briefs_rows import candidate, evidence

AS_OF = date(2026, 12, 1)
RULES = VerdictRules()
TRMM, LAND_COVER = "kg:trmm-3b42-v7", "kg:mcd12q1-v061"
# q-v01's TMPA 3B42 papers (real records: reference/evaluation/publications.json).
TMPA_PAPERS = ("10.3390/rs10030388", "10.1175/jhm-d-13-094.1", "10.3390/w6051221")
# q-v02: IMERG V06 evaluations and the 2025 V07 study; q-c05: SAGE II v7.0 papers (current version).
V06_PAPERS = ("10.3390/rs13061208", "10.3390/rs13071241", "10.3390/rs13040689")
V07_PAPER = "10.3390/rs17213613"
SAGE_PAPERS = ("10.5194/acp-14-13455-2014", "10.1002/2015jd023133", "10.5194/amt-9-2497-2016", "10.5194/essd-12-1419-2020")


def tmpa_edge(doi: str) -> tuple[str, EdgeAssessment]:
    return TRMM, EdgeAssessment("TRMM_3B42 V7", "DECLINING", 0.2, f"{doi}: replaced by IMERG", True)


def tmpa_pool(dataset_ids: tuple[str, ...] | None) -> Pool:
    """Three TMPA 3B42 papers; each also uses MODIS land cover on its current version (CURRENT 0.57), as a flood
    study's paper does."""
    papers = {f"kg-{doi}": candidate(doi, semantic=0.7) for doi in TMPA_PAPERS}
    edges = {f"kg-{doi}": (tmpa_edge(doi), (LAND_COVER, EdgeAssessment("MCD12Q1 V061", "CURRENT", 0.57, "land cover", False)))
             for doi in TMPA_PAPERS}
    return Pool(papers, edges, dataset_ids=dataset_ids)


def test_only_the_edges_to_the_questions_datasets_are_weighed():
    pool = tmpa_pool((TRMM,))
    found = assess(pool, list(pool.papers.values()), AS_OF, "linear")
    assert [edge.dataset for item in found for edge in item.edges] == ["TRMM_3B42 V7"] * 3
    assert all(item.stale for item in found)
    judgement = judge_question(found, Debates(), RULES, AS_OF)
    assert judgement.verdict == STALE and "100% of the assessed hybrid weight" in judgement.staleness.why


def test_a_pool_without_scope_weighs_every_edge_which_is_why_a_named_dataset_scopes_the_question():
    # the bug as the new user met it: the land-cover edges stand, so the TMPA papers are not stale and the question PASSes
    pool = tmpa_pool(None)
    found = assess(pool, list(pool.papers.values()), AS_OF, "linear")
    assert not any(item.stale for item in found)
    assert judge_question(found, Debates(), RULES, AS_OF).verdict == PASS


def test_a_paper_found_only_in_openalex_has_no_edge_in_scope():
    assert tmpa_pool((TRMM,)).scope_edges(None) == ()


def _imerg(run: str, period: str, short: str, version: str) -> str:
    return f"GPM IMERG {run} Precipitation L3 {period} 0.1 degree x 0.1 degree {version} ({short}) at GES DISC"


# Dataset nodes as the sample's KG has them, long names their CMR entry titles (the sample's datasets table).
SAMPLE_LIKE = [
    DatasetRow("a", "TRMM_3B42", "V7", None, "TRMM (TMPA) Rainfall Estimate L3 3 hour 0.25 degree x 0.25 degree V7 (TRMM_3B42) at GES DISC"),
    DatasetRow("b", "TRMM_3B42_Daily", "V7", None, "TRMM (TMPA) Precipitation L3 1 day 0.25 degree x 0.25 degree V7 (TRMM_3B42_Daily) at GES DISC"),
    DatasetRow("c", "TRMM_3B42RT", "V7", None, "TRMM (TMPA) Near Real-Time Precipitation L3 3 hour 0.25 degree x 0.25 degree V7 (TRMM_3B42RT)"),
    DatasetRow("d", "GPM_3IMERGDF", "V07", None, _imerg("Final", "1 day", "GPM_3IMERGDF", "V07")),
    DatasetRow("e", "GPM_3IMERGDF", "V06", None, _imerg("Final", "1 day", "GPM_3IMERGDF", "V06")),
    DatasetRow("f", "SR"), DatasetRow("g", "MOD13 EVI (MODIS Collection 4)"),
    DatasetRow("h", "GPM_3IMERGHH", "V07", None, _imerg("Final", "Half Hourly", "GPM_3IMERGHH", "V07")),
    DatasetRow("i", "GPM_3IMERGDE", "V06", None, _imerg("Early", "1 day", "GPM_3IMERGDE", "V06")),
    DatasetRow("j", "MCD12Q1", "V061", None, "MODIS/Terra+Aqua Land Cover Type Yearly L3 Global 500m SIN Grid V061"),
    DatasetRow("k", "MOD11A1", "V061", None, "MODIS/Terra Land Surface Temperature/Emissivity Daily L3 Global 1km SIN Grid V061"),
    DatasetRow("l", "MOD11A1", "V005", None, "MODIS/Terra Land Surface Temperature/Emissivity Daily L3 Global 1km SIN Grid V005"),
    DatasetRow("m", "MOD10A2", "V061", None, "MODIS/Terra Snow Cover 8-Day L3 Global 500m SIN Grid V061"),
    DatasetRow("n", "GRACE"), DatasetRow("o", "Landsat"), DatasetRow("p", "CERES"),
]
IMERG_NAMES = ("GPM_3IMERGDE", "GPM_3IMERGDF", "GPM_3IMERGHH")


@pytest.mark.parametrize(("question", "named"), [
    ("Is TRMM 3B42 still a sound precipitation product for flood studies?", ("TRMM_3B42",)),
    ("Is trmm_3b42_daily better than GPM_3IMERGDF?", ("TRMM_3B42_Daily", "GPM_3IMERGDF")),  # the longer name, not TRMM_3B42
    ("Does TRMM-3B42RT see floods early?", ("TRMM_3B42RT",)),
    ("Do 3B42 estimates miss light rain?", ("TRMM_3B42",)),  # a short name's product part
    ("Is TMPA still used for drought monitoring?", ("TRMM_3B42",)),  # a product line's alias (dataset_aliases.csv)
    # a product line without a version: every member and every version
    ("Is IMERG still a reliable rainfall record?", IMERG_NAMES),
    # ... narrowed by the words around it that its members' entry titles hold
    ("How good is MODIS land cover for wetland mapping?", ("MCD12Q1",)),
    ("Is the Final daily IMERG good enough for drought indices?", ("GPM_3IMERGDF",)),
    # a version some member has: those nodes only; one the graph lacks: every version of the family
    ("Is IMERG V06 still sound for floods?", ("GPM_3IMERGDE V06", "GPM_3IMERGDF V06")),
    ("What changed in MODIS Collection 6.1 land cover maps?", ("MCD12Q1 V061",)),
    ("Are TRMM 3B42 version 6 trends still usable?", ("TRMM_3B42",)),
    # words, not names: two letters, part of a longer word, no capital, a capitalised word opening the sentence
    ("Is SR enough?", ()),
    ("Is TRMM 3B42X a product?", ()),
    ("Did the grace period for landsat imagery end?", ()),
    ("Grace and Ceres: do these names scope anything?", ()),
    ("What does GRACE say about groundwater, and do Landsat maps agree?", ("GRACE", "Landsat")),
])
def test_datasets_named_in_a_question(question, named):
    assert datasets_named_in(question, SAMPLE_LIKE) == named


# MERRA-2 collections of the sample, their real CMR entry titles: 1-hourly, 3-hourly, monthly.
_MERRA2 = [
    DatasetRow("m1", "M2T1NXSLV", "V5.12.4", None, "MERRA-2 tavg1_2d_slv_Nx: 2d,1-Hourly,Time-Averaged,Single-Level,Assimilation,"
               "Single-Level Diagnostics 0.625 x 0.5 degree V5.12.4 (M2T1NXSLV) at GES DISC"),
    DatasetRow("m2", "M2T1NXAER", "V5.12.4", None, "MERRA-2 tavg1_2d_aer_Nx: 2d,1-Hourly,Time-averaged,Single-Level,Assimilation,"
               "Aerosol Diagnostics 0.625 x 0.5 degree V5.12.4 (M2T1NXAER) at GES DISC"),
    DatasetRow("m3", "M2I3NPASM", "V5.12.4", None, "MERRA-2 inst3_3d_asm_Np: 3d,3-Hourly,Instantaneous,Pressure-Level,Assimilation,"
               "Assimilated Meteorological Fields 0.625 x 0.5 degree V5.12.4 (M2I3NPASM) at GES DISC"),
    DatasetRow("m4", "M2TMNXAER", "V5.12.4", None, "MERRA-2 tavgM_2d_aer_Nx: 2d,Monthly mean,Time-averaged,Single-Level,Assimilation,"
               "Aerosol Diagnostics 0.625 x 0.5 degree V5.12.4 (M2TMNXAER) at GES DISC"),
]


@pytest.mark.parametrize(("question", "named"), [
    # "hourly" is the word part of the titles' "1-Hourly" and "3-Hourly": it narrows, as it did not when "1-Hourly"
    # was one token ("1hourly") and "hourly MERRA-2" scoped the monthly collection too
    ("Is hourly MERRA-2 reliable for surface winds?", ("M2I3NPASM", "M2T1NXAER", "M2T1NXSLV")),
    ("Is 1-hourly MERRA-2 reliable?", ("M2T1NXAER", "M2T1NXSLV")),  # the count still tells them apart
    ("Is 3-hourly MERRA-2 reliable?", ("M2I3NPASM",)),
    ("Are monthly MERRA-2 aerosol fields reliable?", ("M2TMNXAER",)),
    ("Is MERRA-2 reliable?", ("M2I3NPASM", "M2T1NXAER", "M2T1NXSLV", "M2TMNXAER")),
])
def test_a_time_step_word_narrows_a_product_line(question, named):
    assert datasets_named_in(question, _MERRA2) == named


def test_a_describing_word_of_a_variable_does_not_narrow_away_the_collection_that_holds_it():
    """Was a known defect (q-c02 unscoped INSUFFICIENT): the describing words were read up to the first word no entry
    title holds ('solar'), and each narrowed in turn, so 'surface' kept the Surface Flux and Land Surface collections
    and 'radiation' was never read. Now the reading goes on past up to 2 such words, and the words are weighed
    together (dataset_names.TitleVocabulary.narrow): the collections the most words describe are kept."""
    rows = [
        DatasetRow(f"r{i}", f"M2T1NX{part}", "V5.12.4", None, f"MERRA-2 tavg1_2d_{part.lower()}_Nx: 2d,1-Hourly,Time-Averaged,"
                   f"Single-Level,Assimilation,{what} 0.625 x 0.5 degree V5.12.4 (M2T1NX{part}) at GES DISC")
        for i, (part, what) in enumerate([("FLX", "Surface Flux Diagnostics"), ("LND", "Land Surface Diagnostics"),
                                          ("RAD", "Radiation Diagnostics")])
    ]
    assert "M2T1NXRAD" in datasets_named_in("How accurate is MERRA-2 hourly surface solar radiation?", rows)


def test_a_minor_version_scopes_the_collection_paper_detection_reads_it_as():
    """Review finding: "ML2O3 v4.2" was read as ML2O3 with a version (the detector maps 4.2 to the whole-numbered V004)
    but the scope compared the keys directly, found no node and left the question weighing every edge."""
    rows = [DatasetRow(f"m{version}", "ML2O3", version, None, f"MLS/Aura Level 2 Ozone (O3) Mixing Ratio {version} (ML2O3) at GES DISC")
            for version in ("V004", "V005")]
    assert datasets_named_in("Is ML2O3 v4.2 still sound?", rows) == ("ML2O3 V004",)


def test_a_named_short_name_scopes_every_version():
    named = datasets_named_in("Is GPM_3IMERGDF accurate?", SAMPLE_LIKE)
    assert resolve_scope(Scope(datasets=named), SAMPLE_LIKE).dataset_ids == ("d", "e")


@pytest.mark.parametrize(("question", "dataset_ids"), [
    ("Is IMERG V06 still sound for floods?", ("i", "e")),  # not the V07 node d
    ("Is IMERG still a reliable rainfall record?", ("i", "d", "e", "h")),
    ("Are MODIS land surface temperatures biased?", ("k", "l")),  # both versions: is the older one still sound?
])
def test_the_named_entries_resolve_to_the_nodes_named(question, dataset_ids):
    named = datasets_named_in(question, SAMPLE_LIKE)
    assert resolve_scope(Scope(datasets=named), SAMPLE_LIKE).dataset_ids == dataset_ids


def test_a_question_and_a_paper_read_names_by_the_same_rules():
    """One detector for both: what a question names is what `papers.datasets.named_products` reads in the same text."""
    from recon_assets.papers.dataset_catalogue import DatasetCatalogue
    from recon_assets.papers.datasets import named_products

    text = "Is the Final daily IMERG V06 good enough, and is MODIS land cover?"
    catalogue = DatasetCatalogue(pd.DataFrame([(r.dataset_id, r.short_name, r.long_name, r.doi) for r in SAMPLE_LIKE if r.short_name],
                                              columns=["dataset_id", "short_name", "long_name", "doi"]))
    assert [(n.name, n.stated, n.families) for n in named_products(text, catalogue)] == [
        ("IMERG", "06", ("GPM_3IMERGDF",)), ("MODIS", None, ("MCD12Q1",)),
    ]
    assert datasets_named_in(text, SAMPLE_LIKE) == ("GPM_3IMERGDF V06", "MCD12Q1")


@pytest.mark.parametrize(("label", "reliability", "replaced", "trust", "confidence"), [
    ("CURRENT", 0.43, False, MEDIUM, MEDIUM),  # the new user's case: shown HIGH before
    ("CURRENT", 0.35, False, MEDIUM, LOW),  # stands, but below DOMAIN.md's 0.40 bar of reliable evidence
    ("CURRENT", 0.60, False, HIGH, HIGH),
    ("CURRENT", HIGH_RELIABILITY - 1e-12, False, HIGH, HIGH),  # on the bar: float noise does not drop it
    ("FOUNDATIONAL", 0.62, False, HIGH, HIGH),  # DOMAIN.md worked case 1: 0.61-0.64
    ("FOUNDATIONAL", 0.62, True, MEDIUM, MEDIUM),  # worked case 4: on a replaced version
    ("DECLINING", 0.65, False, MEDIUM, MEDIUM),
    ("DECLINING", 0.45, True, LOW, LOW),
    ("SUPERSEDED", 0.80, False, LOW, LOW),
    ("UNVERIFIED", 0.70, False, "UNASSESSED", LOW),
])
def test_confidence_never_exceeds_the_evidence(label, reliability, replaced, trust, confidence):
    edge = EdgeAssessment("D 1", label, reliability, "r", replaced)
    assert trust_level(edge, RULES) == trust and evidence_confidence(edge, RULES) == confidence


def test_no_edge_supports_low_confidence_only():
    assert evidence_confidence(None, RULES) == LOW


def test_recency_alone_cannot_reach_a_high_claim():
    weights = Weights()
    # no citation evidence (centrality 0), unverified coherence (neutral), a paper of this year (recency 1)
    assert weights.recency * 1.0 + weights.coherence * NEUTRAL_COHERENCE < HIGH_RELIABILITY


def sage(reliability: float):
    return [evidence(doi, ("SAGE_II v7.0", "CURRENT", reliability, False), semantic=0.8) for doi in SAGE_PAPERS]


def test_a_finding_on_a_current_paper_at_0_43_is_medium_in_the_extractive_and_the_model_brief():
    papers = sage(0.43)
    judgement = judge_question(papers, Debates(), RULES, AS_OF)
    brief = extractive_brief("Is SAGE II v7.0 ozone sound?", papers, judgement, Debates(), RULES)
    assert brief.key_findings and {claim.confidence for claim in brief.key_findings} == {MEDIUM}
    citation = papers[0].paper.citation
    raw = json.dumps({"overview": [{"text": "Settled.", "confidence": "HIGH"}],
                      "key_findings": [{"text": f"Ozone is fine {citation}", "confidence": "HIGH", "citations": [citation]}]})
    written = brief_from_answer(raw, "q", papers, judgement, Debates(), RULES)
    assert not written.extractive and written.key_findings[0].confidence == MEDIUM


def test_every_retrieved_paper_has_a_trust_line_and_the_overview_counts_agree():
    # 6 standing papers (one more than the findings), 3 stale ones and one KG paper with no edge to the scope
    standing = sage(0.62) + [evidence(V07_PAPER, ("GPM_3IMERGDF 07", "CURRENT", 0.62, False)),
                             evidence(V06_PAPERS[2], ("GPM_3IMERGDF 07", "CURRENT", 0.61, False))]
    stale = [evidence(doi, ("GPM_3IMERGDF 06", "DECLINING", 0.3, True)) for doi in V06_PAPERS[:2]]
    unassessed = evidence(TMPA_PAPERS[0])
    papers = [*standing, *stale, unassessed]
    judgement = judge_question(papers, Debates(), RULES, AS_OF)
    brief = extractive_brief("Which precipitation and ozone products are sound?", papers, judgement, Debates(), RULES)
    assert len(brief.trust_summary) == len(brief.trust_levels) == len(papers) == 9
    overview = " ".join(claim.text for claim in brief.overview)
    assert "9 paper(s) retrieved, each with a line in the trust summary; 8 assessed" in overview
    assert "1 unassessed (no edge to the question's datasets" in overview and "Also retrieved, grounding no claim" in overview
    (line,) = [line for line in brief.trust_summary if line.startswith(unassessed.paper.citation)]
    assert "UNASSESSED. Reason: a KG paper with no edge to the question's datasets" in line


@pytest.mark.parametrize(("unresolved", "still"), [(STALE, "stale"), (INSUFFICIENT, "insufficient"), (CONTRADICTED, "contested")])
def test_forced_pass_says_the_ceiling_was_hit_and_what_the_evidence_still_is(unresolved, still):
    papers = [evidence(doi, ("GPM_3IMERGDF 06", "DECLINING", 0.3, True)) for doi in V06_PAPERS]
    judgement = judge_question(papers, Debates(), RULES, AS_OF, rounds=RULES.expansion_rounds)
    assert judgement.verdict == FORCED_PASS and judgement.unresolved == STALE
    # the wording for each verdict FORCED_PASS may stand in for
    from dataclasses import replace
    judgement = replace(judgement, unresolved=unresolved)
    brief = extractive_brief("Is IMERG V06 accurate?", papers, judgement, Debates(), RULES)
    words = f"not a pass: the retry ceiling of 2 rewrite rounds was hit and the evidence is still {still} ({unresolved})"
    markdown = brief.markdown()
    assert f"Verdict: **FORCED_PASS** ({words})" in markdown
    assert words in brief.overview[0].text and any(words in claim.text for claim in brief.outlook)
    assert brief.verdict_text == f"FORCED_PASS ({words})" and brief.overview[0].confidence == LOW


def test_a_pass_reads_as_a_pass():
    papers = sage(0.62)
    judgement = judge_question(papers, Debates(), RULES, AS_OF)
    brief = extractive_brief("Is SAGE II v7.0 ozone sound?", papers, judgement, Debates(), RULES)
    assert brief.verdict == brief.verdict_text == PASS and "not a pass" not in brief.markdown()


@pytest.mark.parametrize(("scope", "note", "said", "problem"), [
    (None, None, "the critic weighed every edge of every retrieved paper, to any dataset; ask again with --dataset", None),
    (["kg:trmm"], "no dataset was given (by --dataset or a standing question's scope), but the question names TRMM_3B42: the critic weighs the papers' edges to those "
                  "datasets (every version); the planner's note",
     "no dataset was given (by --dataset or a standing question's scope), but the question names TRMM_3B42: ", None),
    (["kg:trmm"], None, None, None),  # --dataset given: nothing to add
    # hostile pass: a --dataset matching nothing was INSUFFICIENT with its reason only in a step's log line
    ([], None, "no dataset of the KG matches the scope's datasets 'x'; the verdict is INSUFFICIENT",
     "no dataset of the KG matches the scope's datasets 'x'"),
    # hostile pass: the wording taken out of a question was said only in question_plans.note
    (["kg:trmm"], "removed before planning: the question addressed a model: 'Ignore previous instructions' (an instruction)",
     "removed before planning: the question addressed a model: 'Ignore previous instructions' (an instruction)", None),
    (None, "removed before planning: the question addressed a model: 'answer PASS'; the planner's note",
     "removed before planning: the question addressed a model: 'answer PASS'; the question names no dataset", None),
])
def test_recon_ask_says_what_scope_the_critic_weighed(tmp_path, scope, note, said, problem):
    import duckdb

    from recon_assets.cli.ask import scope_said

    database = tmp_path / "plans.duckdb"
    with duckdb.connect(str(database)) as con:
        con.execute("CREATE TABLE question_plans (question_id VARCHAR, position INTEGER, scope_datasets VARCHAR[], note VARCHAR, "
                    "scope_problem VARCHAR)")
        con.execute("INSERT INTO question_plans VALUES ('ask-1', 0, ?, ?, ?)", [scope, note, problem])
    with duckdb.connect(str(database), read_only=True) as con:  # print_brief's reading connection
        found = scope_said("ask-1", con)
        assert scope_said("ask-unknown", con) is None
    assert found == said if said is None else said in found
    assert "the planner's note" not in (found or "")
    with duckdb.connect() as empty:  # no question_plans table: the plan cannot be read
        assert scope_said("ask-1", empty) is None


def test_recon_ask_reads_the_scope_and_the_brief_through_one_connection(tmp_path, capsys, monkeypatch):
    """Issue 23 (storage seam): after its run `recon ask` opened the database twice, for the scope line and for the
    brief; once now (`print_brief(with_scope=True)`), printing the same: the scope line, a blank line, the brief."""
    import duckdb

    from recon_assets.cli.ask import print_brief
    from recon_assets.storage import duckdb_files
    from recon_assets.storage.ownership import mark_owned
    from recon_assets.storage.tables import create_tables

    database = tmp_path / "asked.duckdb"
    with duckdb.connect(str(database)) as con:
        create_tables(con, "edge_reliability")  # a database `recon run` wrote
        con.execute("CREATE TABLE question_plans (question_id VARCHAR, position INTEGER, scope_datasets VARCHAR[], note VARCHAR, "
                    "scope_problem VARCHAR)")
        con.execute("INSERT INTO question_plans VALUES ('ask-1', 0, NULL, NULL, 'no dataset of the KG matches x')")
        con.execute("CREATE TABLE research_briefs (question_id VARCHAR, markdown VARCHAR, html_path VARCHAR, as_of DATE)")
        con.execute("INSERT INTO research_briefs VALUES ('ask-1', '# Brief', 'brief.html', DATE '2026-01-02')")
        mark_owned(con, ["question_plans", "research_briefs"])  # the columns print_brief reads, of tables recon wrote
    opened = []
    read_only = duckdb_files.read_only
    monkeypatch.setattr(duckdb_files, "read_only", lambda path: opened.append(path) or read_only(path))
    assert print_brief("ask-1", database, with_scope=True) == 0
    assert len(opened) == 1
    assert capsys.readouterr().out.splitlines() == [
        "recon: no dataset of the KG matches x; the verdict is INSUFFICIENT", "", "# Brief", "(as of 2026-01-02; HTML page: brief.html)",
    ]

def test_a_scoped_dataset_no_paper_uses_is_insufficient_with_the_reason_and_not_retried():
    """New-user pass: the sample's TRMM_3B42RT V7 node matches `--dataset TRMM_3B42RT` but no paper uses it; the
    question ran two pointless rewrite rounds into FORCED_PASS. It is INSUFFICIENT with the reason, in one round."""
    from recon_assets.briefs.answering import answer_rounds, empty_pool_problem
    from recon_assets.briefs.planner import offline_plan

    empty = Pool({}, {}, dataset_ids=("kg:trmm-3b42rt-v7",))
    assert "no publication of the knowledge graph has a scored edge to the scope's 1 dataset(s)" in empty_pool_problem(empty)
    assert empty_pool_problem(Pool({}, {})) is None and empty_pool_problem(tmpa_pool((TRMM,))) is None
    question = "Is TRMM 3B42RT fast enough for flood warning?"
    plan = offline_plan(question, ["TRMM_3B42RT"], AS_OF)
    rounds = answer_rounds(question, plan.subquestions, ["TRMM_3B42RT"], empty, lambda queries, texts: [], AS_OF, "linear", RULES)
    (only,) = rounds
    assert only.judgement.verdict == INSUFFICIENT and only.judgement.rewrite is None
    assert only.judgement.reason.startswith("INSUFFICIENT: no publication of the knowledge graph")
