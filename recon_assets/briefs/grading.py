"""A brief graded against its labelled question, by rule, not by a model (issue 21, "Measured, not asserted"):

- **staleness catch** (version_chain cases): the verdict is STALE (or a FORCED_PASS standing in for STALE); or the
  brief marks every retrieved stale paper LOW in its trust summary and grounds its Key Findings elsewhere (at least
  one finding, none citing a stale paper). A case none of whose stale papers was retrieved has no stale evidence to
  catch: not graded, and counted in `stale_not_retrieved`.
- **position accuracy** (cases naming papers to rely on): the Key Findings cite at least one of them and no stale
  paper.
- **contradiction surfacing** (dispute cases): an Active Debates claim cites the disputed paper and one of its
  recorded comments.
- **false STALE** (control cases): the verdict is STALE (or a FORCED_PASS standing in for it).

Each measure is a `evaluation.metrics.Rate` (with its Wilson interval) over the cases it applies to. The verdict is
an argument, so the same brief grades the baselines of the issue: the critic with RECON's age rule
(`QuestionJudgement.age_rule_verdict`), the replaced-version rule (`QuestionJudgement.version_rule_verdict`) and
retrieval without the critic (verdict None: nothing is caught by a verdict, only by the trust summary). The brief
(its trust summary) is the scores' in every condition, so a baseline's staleness catch can come from the scores'
trust summary: `by_kind` over `CaseGrade.stale_verdict` gives the catch by the verdict alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from recon_assets.briefs.question_cases import CONTROL, DISPUTE, VERSION_CHAIN, QuestionCase
from recon_assets.briefs.synthesis import LOW, Brief, claim_citations
from recon_assets.evaluation.metrics import Rate
from recon_assets.verdicts.critic import STALE

MEASURES = ("staleness_catch", "position_accuracy", "contradiction_surfacing", "false_stale_on_controls")


@dataclass(frozen=True)
class CaseGrade:
    """One case's grades: True / False, or None where the measure does not apply; `why` says each; stale_verdict:
    the verdict is STALE or a FORCED_PASS standing in for it (whatever the kind of case)."""

    case_id: str
    kind: str
    staleness_caught: bool | None
    position_accurate: bool | None
    contradiction_surfaced: bool | None
    false_stale: bool | None
    stale_retrieved: int
    why: str
    stale_verdict: bool = False


def grade(case: QuestionCase, brief: Brief, verdict: str | None, unresolved: str | None, citation_of: Mapping[str, str]) -> CaseGrade:
    """Grade `brief` (with the verdict it was given, None for no critic) against `case`.

    Args:
        citation_of: the citation tag the brief uses for each paper it could cite, by canonical DOI (the evidence's
            keys) and, for a recorded comment without a DOI, by its title. A paper missing from it was not retrieved.
    """
    stale_verdict = STALE in (verdict, unresolved)
    findings = {citation for claim in brief.key_findings for citation in claim_citations(claim)}
    levels = dict(brief.trust_levels)
    stale = [citation_of[paper.doi] for paper in case.stale if paper.doi in citation_of]
    rely = [citation_of[paper.doi] for paper in case.rely_on if paper.doi in citation_of]
    notes = []
    caught = None
    if case.kind == VERSION_CHAIN:
        if stale_verdict:
            caught, why = True, f"verdict {verdict}{f' for {unresolved}' if unresolved else ''}"
        elif not stale:
            why = "no stale paper retrieved: not graded"
        else:
            marked = all(levels.get(citation) == LOW for citation in stale)
            caught = marked and bool(findings) and not findings & set(stale)
            why = f"verdict {verdict}; {len(stale)} stale paper(s) retrieved, {'all' if marked else 'not all'} marked LOW, findings {'elsewhere' if caught else 'not grounded elsewhere'}"
        notes.append(f"staleness: {why}")
    accurate = None
    if case.rely_on:
        accurate = bool(findings & set(rely)) and not findings & set(stale)
        notes.append(f"position: findings cite {len(findings & set(rely))} of {len(rely)} retrieved paper(s) to rely on and {len(findings & set(stale))} stale")
    surfaced = None
    if case.kind == DISPUTE:
        original = citation_of.get(case.dispute.original.doi)
        comments = {citation_of[key] for comment in case.dispute.comments for key in (comment.doi, comment.title) if key in citation_of}
        surfaced = any(
            original in cited and cited & comments
            for cited in ({*claim_citations(claim)} for claim in brief.active_debates)
        )
        notes.append(f"debates: {'name' if surfaced else 'do not name'} the dispute")
    false_stale = stale_verdict if case.kind == CONTROL else None
    if false_stale is not None:
        notes.append(f"control: verdict {verdict}")
    return CaseGrade(case.id, case.kind, caught, accurate, surfaced, false_stale, len(stale), "; ".join(notes), stale_verdict)


def rates(grades: Sequence[CaseGrade]) -> dict[str, Rate | int]:
    """Each measure (MEASURES) as a Rate over the cases it applies to, and `stale_not_retrieved`: the version-chain
    cases left ungraded because no stale paper was retrieved."""
    def rate(values: list[bool | None]) -> Rate:
        graded = [value for value in values if value is not None]
        return Rate(sum(graded), len(graded))

    return {
        "staleness_catch": rate([item.staleness_caught for item in grades]),
        "position_accuracy": rate([item.position_accurate for item in grades]),
        "contradiction_surfacing": rate([item.contradiction_surfaced for item in grades]),
        "false_stale_on_controls": rate([item.false_stale for item in grades]),
        "stale_not_retrieved": sum(item.kind == VERSION_CHAIN and item.staleness_caught is None for item in grades),
    }


def by_kind(kinds: Sequence[str], flags: Sequence[bool]) -> dict[str, Rate]:
    """For each kind of case (version_chain, dispute, control), the share of its cases whose flag is True: e.g. a
    critic variant's staleness check firing (`Check.flagged`, before contradiction wins), or `CaseGrade.stale_verdict`.

    Args:
        kinds: each case's kind; flags: the same cases' flags, same length.

    Raises:
        ValueError: the two lengths differ, or an unknown kind.
    """
    if len(kinds) != len(flags):
        raise ValueError(f"{len(kinds)} kinds for {len(flags)} flags")
    unknown = set(kinds) - {VERSION_CHAIN, DISPUTE, CONTROL}
    if unknown:
        raise ValueError(f"unknown kind(s) of case: {sorted(unknown)}")
    return {kind: Rate(sum(bool(flag) for item, flag in zip(kinds, flags) if item == kind), sum(item == kind for item in kinds))
            for kind in (VERSION_CHAIN, DISPUTE, CONTROL)}
