"""A paper's scores: CitationEdge's four, with the formulas issue 22 states for them, and this project's own figure,
the share of the paper's dataset uses on current versions.

Source of the four formulas: issue 22 ("Scores"), which takes them from CitationEdge, the single-paper analysis
pipeline this project grew from. Scores are on 0-10. Argumentation is judged by the LLM (online, with the papers'
opt-in: `papers.online`); offline it, and the scores built from it (literary, overall), are NOT_ASSESSED rather than
guessed; online, literary's and overall's `how` say they were computed from it and whose it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

NOT_ASSESSED = "not assessed"
SUPPORTED, CONTRADICTED, UNVERIFIED = "SUPPORTED", "CONTRADICTED", "UNVERIFIED"
# CitationEdge's verification score when a paper has no claim to verify (issue 22).
NO_CLAIM_VERIFICATION = 5.0


def citation_score(high_gaps: int, medium_gaps: int) -> float:
    """max(0, 10 - 2 * high_gaps - medium_gaps), on 0-10: each high-severity citation gap costs 2, each medium one 1.

    Source: CitationEdge's citation score, as issue 22 states it. Raises ValueError on a negative count.
    """
    if high_gaps < 0 or medium_gaps < 0:
        raise ValueError(f"gap counts must be >= 0, got {high_gaps}, {medium_gaps}")
    return max(0.0, 10.0 - 2.0 * high_gaps - medium_gaps)


def verification_score(verdicts: Sequence[str]) -> float:
    """max(0, 10 * supported / total - 3 * contradicted / total) over the claim verdicts, or 5.0 with no claim.

    Args: one verdict per claim, each SUPPORTED, CONTRADICTED or UNVERIFIED (UNVERIFIED counts in total only).
    Source: CitationEdge's verification score, as issue 22 states it. Raises ValueError on another verdict.
    """
    unknown = set(verdicts) - {SUPPORTED, CONTRADICTED, UNVERIFIED}
    if unknown:
        raise ValueError(f"unknown verdicts {sorted(unknown)}")
    total = len(verdicts)
    if total == 0:
        return NO_CLAIM_VERIFICATION
    return max(0.0, 10.0 * verdicts.count(SUPPORTED) / total - 3.0 * verdicts.count(CONTRADICTED) / total)


def literary_score(claim_avg: float, argumentation: float | None, citation: float, verification: float) -> float | str:
    """claim_avg * 10 * 0.35 + argumentation * 0.35 + citation * 0.15 + verification * 0.15, on 0-10.

    Args: claim_avg the mean claim confidence (0-1); argumentation the LLM's argumentation score (0-10), None
    offline; citation and verification on 0-10. Returns NOT_ASSESSED when argumentation is None.
    Source: CitationEdge's literary score, as issue 22 states it.
    """
    if argumentation is None:
        return NOT_ASSESSED
    return claim_avg * 10 * 0.35 + argumentation * 0.35 + citation * 0.15 + verification * 0.15


def overall_score(literary: float | str, argumentation: float | None, citation: float, verification: float) -> float | str:
    """The mean of literary, argumentation, citation and verification (0-10); NOT_ASSESSED when literary or
    argumentation is. Source: CitationEdge's overall score, as issue 22 states it."""
    if argumentation is None or literary == NOT_ASSESSED:
        return NOT_ASSESSED
    return (float(literary) + argumentation + citation + verification) / 4


def current_version_share(superseded: Sequence[bool | None]) -> float | None:
    """The share (0-1) of the paper's dataset uses on current versions: 1 - replaced uses / uses whose status is known.

    Args: one flag per dataset use (`paper_datasets.superseded`, matched to a Dataset node or not: a version the graph
    lacks has its lifecycle too), None where the current or replaced status is unknown (no lineage row, a version no
    record attests, a product the graph does not hold); those are left out of both counts. Returns None when no use's
    status is known. This project's own figure (DOMAIN.md "Dataset lifecycle"), not CitationEdge's.
    """
    known = [bool(flag) for flag in superseded if flag is not None]
    if not known:
        return None
    return 1.0 - sum(known) / len(known)


@dataclass(frozen=True)
class PaperScores:
    """A paper's scores, each a number (0-10; current_version_share 0-1) or NOT_ASSESSED (None for
    current_version_share without a dataset use of known status), with how each was computed."""

    citation: float | str
    verification: float | str
    literary: float | str
    overall: float | str
    current_version_share: float | None
    how: dict[str, str]

    def rows(self) -> list[tuple[str, float | None, str]]:
        """(score, value or None when not assessed, how) for each score, in the order citation, verification,
        literary, overall, current_version_share."""
        values = {
            "citation": self.citation, "verification": self.verification, "literary": self.literary,
            "overall": self.overall, "current_version_share": self.current_version_share,
        }
        return [(name, None if value is None or value == NOT_ASSESSED else float(value), self.how[name]) for name, value in values.items()]


def paper_scores(
    high_gaps: int | None,
    medium_gaps: int | None,
    verdicts: Sequence[str] | None,
    claim_confidences: Sequence[float],
    argumentation: float | None,
    superseded: Sequence[bool | None],
    argumentation_by: str | None = None,
) -> PaperScores:
    """All of a paper's scores from its gaps, claim verdicts and confidences, argumentation (the LLM's, 0-10; None
    offline) and the superseded flags of the datasets it uses (`current_version_share`'s: one per use, None where
    the status is unknown); `how` says for each score what went in (the report
    prints it), literary and overall naming where argumentation came from (`argumentation_by`, e.g. "the LLM's
    (Groq, llama-3.3-70b-versatile)").

    Raises:
        ValueError: argumentation outside 0-10 (or not finite).

    Gap counts of None (the citation gaps were not searched) make citation NOT_ASSESSED, verdicts of None (the claims
    were not judged) verification: a stage that did not run is no evidence of zero gaps or of no claim. Either, or
    argumentation None, makes literary and overall NOT_ASSESSED too.
    """
    if argumentation is not None and not 0.0 <= argumentation <= 10.0:
        raise ValueError(f"argumentation must be within 0-10, got {argumentation}")
    citation = NOT_ASSESSED if high_gaps is None or medium_gaps is None else citation_score(high_gaps, medium_gaps)
    verification = NOT_ASSESSED if verdicts is None else verification_score(verdicts)
    claim_avg = sum(claim_confidences) / len(claim_confidences) if claim_confidences else 0.0
    assessed = citation != NOT_ASSESSED and verification != NOT_ASSESSED
    literary = literary_score(claim_avg, argumentation, citation, verification) if assessed else NOT_ASSESSED
    overall = overall_score(literary, argumentation, citation, verification) if assessed else NOT_ASSESSED
    share = current_version_share(superseded)
    argued = argumentation_by or "given"
    # the LLM gives it only online with the opt-in, and may give none then (a failed request, the budget): the stage's
    # row of paper_llm_use says which (hostile pass: "needs ... online" was printed when both were on and Groq failed)
    offline = ("argumentation is the LLM's answer, and there is none (it is asked only with RECON_PAPERS_ONLINE=online and the "
               "Groq judge online; paper_llm_use says why, stage argumentation)")
    missing = "; ".join(
        why for why, absent in (
            ("the citation gaps were not searched", citation == NOT_ASSESSED),
            ("the claims were not judged", verification == NOT_ASSESSED),
            (offline, argumentation is None),
        ) if absent
    )
    how = {
        "citation": "not assessed: the citation gaps were not searched (paper_citation_gaps failed: see the stages that failed)" if citation == NOT_ASSESSED else (
            f"max(0, 10 - 2 x {high_gaps} high - {medium_gaps} medium gaps) = {citation:g}"
        ),
        "verification": "not assessed: the claims were not judged (claim_verdicts failed: see the stages that failed)" if verdicts is None else (
            f"max(0, 10 x {verdicts.count(SUPPORTED)}/{len(verdicts)} supported - 3 x {verdicts.count(CONTRADICTED)}/{len(verdicts)} contradicted) = {verification:g}"
            + _unverified_note(verdicts) if verdicts else f"no claim: {NO_CLAIM_VERIFICATION:g}"
        ),
        "literary": f"not assessed: {missing}" if literary == NOT_ASSESSED else (
            f"{claim_avg:.2f} x 10 x 0.35 + {argumentation:g} x 0.35 + {citation:g} x 0.15 + {verification:g} x 0.15 = {literary:.2f}"
            f" (claim_avg: the mean of {len(claim_confidences)} claim confidences; argumentation {argumentation:g}: {argued})"
        ),
        "overall": f"not assessed: {missing}" if overall == NOT_ASSESSED else (
            f"mean of literary {literary:.2f}, argumentation {argumentation:g}, citation {citation:g}, verification {verification:g} "
            f"= {overall:.2f} (argumentation: {argued})"
        ),
        "current_version_share": _share_how(superseded, share),
    }
    return PaperScores(citation, verification, literary, overall, share, how)


def _unverified_note(verdicts: Sequence[str]) -> str:
    """What verification's `how` adds when claims are UNVERIFIED: they count in the total only, so a low figure from
    them means claims not checked (no work of the graph about them, or none with a stance), not claims refuted."""
    unverified = verdicts.count(UNVERIFIED)
    if not unverified:
        return ""
    return (f"; {unverified} of {len(verdicts)} claims UNVERIFIED (not checked: no evidence found either way), counted in the "
            "total only, so they lower the figure without any claim being contradicted")


def _share_how(superseded: Sequence[bool | None], share: float | None) -> str:
    """current_version_share's `how`: what it counts (every use whose current or replaced status is known, matched to
    a Dataset node or a version the graph lacks) and how many uses of unknown status it leaves out."""
    known = [bool(flag) for flag in superseded if flag is not None]
    unknown = len(superseded) - len(known)
    left_out = f"; {unknown} of unknown status not counted" if unknown else ""
    if share is None:
        return f"not assessed: no dataset use whose current or replaced status is known{left_out}"
    return (f"{len(known) - sum(known)} of {len(known)} dataset uses on current versions (every use whose current or replaced "
            f"status is known, matched to a Dataset node or a version the graph lacks{left_out})")

