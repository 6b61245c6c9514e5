"""Grading briefs against the labelled questions by rule (recon_assets/briefs/grading.py), on cases q-v02 (IMERG V06
-> V07), q-c05 (SAGE II v7.0, old papers on a current version) and q-d02 (Morton et al. 2014, commented by Saleska
et al. 2016)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from recon_assets.briefs.critic import Comment, Debates, debates_in, judge_question
from recon_assets.briefs.grading import by_kind, grade, rates
from recon_assets.briefs.question_cases import read_question_cases
from recon_assets.briefs.synthesis import BriefClaim, extractive_brief
from recon_assets.verdicts.critic import FORCED_PASS, PASS, STALE, VerdictRules
from recon_assets_tests.briefs_rows import evidence

AS_OF = date(2026, 12, 1)
RULES = VerdictRules()
CASES = {case.id: case for case in read_question_cases().cases}


def imerg_evidence(stale_dois=None):
    case = CASES["q-v02"]
    stale_dois = [paper.doi for paper in case.stale[:3]] if stale_dois is None else stale_dois
    stale = [evidence(doi, ("GPM_3IMERGDF 06", "DECLINING", 0.45, True)) for doi in stale_dois]
    current = evidence(case.rely_on[0].doi, ("GPM_3IMERGDF 07", "CURRENT", 0.62, False), semantic=0.6)
    return [*stale, current]


def brief_and_judgement(papers, debates=Debates(), rounds=0):
    judgement = judge_question(papers, debates, RULES, AS_OF, rounds=rounds)
    return extractive_brief("question", papers, judgement, debates, RULES), judgement


def citations(papers, **extra):
    return {item.paper.key: item.paper.citation for item in papers} | extra


def test_a_stale_verdict_catches_staleness_and_the_findings_rest_on_v07():
    papers = imerg_evidence()
    brief, judgement = brief_and_judgement(papers)
    result = grade(CASES["q-v02"], brief, judgement.verdict, judgement.unresolved, citations(papers))
    assert (result.staleness_caught, result.position_accurate, result.stale_retrieved) == (True, True, 3)
    assert result.why.startswith("staleness: verdict STALE")


def test_forced_pass_standing_in_for_stale_still_catches():
    papers = imerg_evidence()
    brief, judgement = brief_and_judgement(papers, rounds=2)
    assert (judgement.verdict, judgement.unresolved) == (FORCED_PASS, STALE)
    assert grade(CASES["q-v02"], brief, judgement.verdict, judgement.unresolved, citations(papers)).staleness_caught


def test_without_a_verdict_the_trust_summary_must_mark_the_stale_papers_and_the_findings_avoid_them():
    papers = imerg_evidence()
    brief, _ = brief_and_judgement(papers)
    assert grade(CASES["q-v02"], brief, None, None, citations(papers)).staleness_caught
    # A brief whose finding quotes a V06 evaluation neither catches the staleness nor is accurate.
    stale_finding = BriefClaim(f"V06 works well {papers[0].paper.citation}", "HIGH", (papers[0].paper.citation,))
    misled = replace(brief, key_findings=(stale_finding, *brief.key_findings))
    result = grade(CASES["q-v02"], misled, PASS, None, citations(papers))
    assert (result.staleness_caught, result.position_accurate) == (False, False)


def test_no_stale_paper_retrieved_is_not_graded_and_counted():
    papers = imerg_evidence(stale_dois=[])
    brief, judgement = brief_and_judgement(papers)
    result = grade(CASES["q-v02"], brief, judgement.verdict, judgement.unresolved, citations(papers))
    assert result.staleness_caught is None and "no stale paper retrieved" in result.why
    assert rates([result])["stale_not_retrieved"] == 1


def test_the_control_is_no_false_stale_for_the_scores_and_one_for_recon_age_rule():
    case = CASES["q-c05"]
    papers = [evidence(paper.doi, ("SAGE2_AEROSOL_O3_NO2_H2O_BINARY 7.0", "CURRENT", 0.55, False)) for paper in case.rely_on]
    brief, judgement = brief_and_judgement(papers)
    scores = grade(case, brief, judgement.verdict, judgement.unresolved, citations(papers))
    age_rule = grade(case, brief, judgement.age_rule_verdict, None, citations(papers))
    assert (scores.false_stale, scores.position_accurate, age_rule.false_stale) == (False, True, True)
    assert str(rates([scores, age_rule])["false_stale_on_controls"]).startswith("50% (1/2; 95% CI")


def test_the_dispute_is_surfaced_only_when_active_debates_name_it():
    case = CASES["q-d02"]
    morton = evidence(case.dispute.original.doi, ("MODIS MAIAC surface reflectance", "DECLINING", 0.5, False))
    saleska = next(comment for comment in case.dispute.comments if comment.doi == "10.1038/nature16457")
    debates = debates_in([morton], [], [Comment(morton.paper.key, "[Saleska et al., 2016]", answered=True)])
    brief, judgement = brief_and_judgement([morton], debates)
    mapping = citations([morton], **{saleska.doi: "[Saleska et al., 2016]"})
    assert grade(case, brief, judgement.verdict, None, mapping).contradiction_surfaced is True
    quiet, judgement = brief_and_judgement([morton])
    result = grade(case, quiet, judgement.verdict, None, mapping)
    assert result.contradiction_surfaced is False and result.staleness_caught is None and result.false_stale is None


@pytest.mark.parametrize("measure", ["staleness_catch", "position_accuracy", "contradiction_surfacing", "false_stale_on_controls"])
def test_a_measure_without_cases_is_not_a_rate_of_zero(measure):
    assert str(rates([])[measure]) == "n/a (0 cases)"


def test_the_version_rule_grades_beside_the_scores_and_its_catch_by_verdict_is_counted_by_kind():
    # Three IMERG V06 evaluations on the replaced version and the V07 study: the version rule calls it stale too; the
    # grade keeps whether the verdict itself caught it (not the trust summary), counted by kind of case.
    papers = imerg_evidence()
    brief, judgement = brief_and_judgement(papers)
    version = grade(CASES["q-v02"], brief, judgement.version_rule_verdict, None, citations(papers))
    control = grade(CASES["q-c05"], brief, PASS, None, citations(papers))
    assert (version.staleness_caught, version.stale_verdict, control.stale_verdict) == (True, True, False)
    found = by_kind([version.kind, control.kind, "dispute"], [version.stale_verdict, control.stale_verdict, True])
    assert {kind: (rate.numerator, rate.denominator) for kind, rate in found.items()} == {
        "version_chain": (1, 1), "dispute": (1, 1), "control": (0, 1)}
    with pytest.raises(ValueError, match="2 kinds for 1 flags"):
        by_kind(["dispute", "control"], [True])
    with pytest.raises(ValueError, match="unknown kind"):
        by_kind(["controls"], [True])
