"""Verdicts over the papers retrieved for a research question: DOMAIN.md "Verdicts over an evidence set", its
paragraph on research questions, with the dataset critic's vocabulary and rules (`verdicts.critic`: the verdict
strings, `VerdictRules`, `contradiction_check`, `combine`).

- **Staleness** (by weight): each paper weighs its hybrid retrieval score; stale when more than `weak_share` (half) of
  the *assessed* weight (papers with an edge to the question's datasets that is not UNVERIFIED) sits on papers whose
  assessed edges are all flagged (DECLINING or SUPERSEDED) or on replaced dataset versions. "All" and not "any": a
  paper comparing IMERG V06 with V07 has a replaced-version edge and a current one, and it is the current evidence.
- **Contradiction**: two papers of the set judged contradictory by the project's judges at least 2 years apart, or a
  recorded comment on one of the set's papers (`verdicts.critic.contradiction_check`, unchanged).
- Both run first; contradiction wins (`verdicts.critic.combine`). Only when neither fires, **sufficiency**: fewer than
  3 papers, or fewer than 3 with hybrid >= 0.40 -> INSUFFICIENT (RECON `critic_node`: `len(papers) < 3`,
  `hybrid_score >= 0.40`), else PASS.
- A non-PASS verdict is retried with rewritten sub-questions (`REWRITE_FOR`: broaden after INSUFFICIENT, recent after
  STALE, probe_contradiction after CONTRADICTED; RECON `_rewrite_questions`); once `rules.expansion_rounds` (2) rounds
  ran, a non-PASS verdict becomes FORCED_PASS, and `unresolved` keeps what it stands in for (a brief never hides it).
- **RECON's own staleness rule** is recorded beside it: the evidence is stale when its mean age exceeds 24 months
  (RECON `src/agents/critic.py`, `_mean_age_months` and `mean_age > 24`; no dated paper counts as 9999 months), and
  `age_rule_verdict` is the verdict that rule would give in place of the weighted staleness check (the baseline
  "critic with RECON's age rule").
- **The replaced-version rule** is recorded beside it too: the simple rule a user would otherwise apply (DOMAIN.md,
  "Beside every rate stand the simple rules ..."), the weighted staleness check with the labels and scores ignored.
  A paper counts in its weight when it has an edge to the question's datasets (an UNVERIFIED edge too: the rule reads
  no label) and is stale when every such edge is on a replaced dataset version (dataset_lineage as of as_of);
  `version_rule_verdict` is the verdict it gives in place of the weighted staleness check, with the same
  contradiction and sufficiency checks (the baseline "replaced dataset version only"). Both staleness checks are
  `staleness_by_weight` with a `PaperStaleness` (SCORES, REPLACED_VERSION_ONLY); the three verdicts come from one
  decision (`_decide`, then the same ceiling).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date

from recon_assets.briefs.retrieval import ScoredPaper
from recon_assets.reliability.labels import FLAGGED_LABELS, RELIABILITY_DECIMALS, UNVERIFIED
from recon_assets.reliability.reasons import reliability_text
from recon_assets.verdicts.critic import (
    CONTRADICTED,
    FORCED_PASS,
    INSUFFICIENT,
    PASS,
    STALE,
    Check,
    ContradictingPair,
    RecordedDispute,
    VerdictRules,
    combine,
    contradiction_check,
)

# RECON's rewrite strategies (src/agents/critic.py `_rewrite_questions`), one per non-PASS verdict (DOMAIN.md).
BROADEN, RECENT, PROBE_CONTRADICTION = "broaden", "recent", "probe_contradiction"
REWRITE_FOR = {INSUFFICIENT: BROADEN, STALE: RECENT, CONTRADICTED: PROBE_CONTRADICTION}
# RECON's age rule: stale when the mean age of the evidence exceeds 24 months (src/agents/critic.py).
RECON_MAX_MEAN_AGE_MONTHS = 24
# RECON `_mean_age_months` when no paper has a year.
RECON_UNDATED_AGE_MONTHS = 9999.0


@dataclass(frozen=True)
class EdgeAssessment:
    """A paper's scored edge (edge_reliability) to one of the question's datasets: the dataset ('GPM_3IMERGDF 06'),
    its label and reliability in [0, 1], the edge's reason, and whether that dataset version is replaced as of the
    question's as_of (dataset_lineage)."""

    dataset: str
    label: str
    reliability: float
    reason: str
    dataset_replaced: bool = False

    @property
    def assessed(self) -> bool:
        """The label concludes something (not UNVERIFIED)."""
        return self.label != UNVERIFIED

    @property
    def stands(self) -> bool:
        """Assessed, not flagged (DECLINING, SUPERSEDED) and not on a replaced dataset version."""
        return self.assessed and self.label not in FLAGGED_LABELS and not self.dataset_replaced


@dataclass(frozen=True)
class Evidence:
    """A retrieved paper and its edges to the question's datasets (none for a paper found only in OpenAlex, or a KG
    paper using none of them: unassessed, outside the staleness weight)."""

    paper: ScoredPaper
    edges: tuple[EdgeAssessment, ...] = ()

    @property
    def assessed(self) -> bool:
        return any(edge.assessed for edge in self.edges)

    @property
    def stale(self) -> bool:
        """Assessed, and none of its assessed edges stands (each is flagged or on a replaced version)."""
        return self.assessed and not any(edge.stands for edge in self.edges)

    @property
    def on_replaced_versions(self) -> bool:
        """Has edges to the question's datasets and every one is on a replaced dataset version (labels not read)."""
        return bool(self.edges) and all(edge.dataset_replaced for edge in self.edges)

    @property
    def governing_edge(self) -> EdgeAssessment | None:
        """The edge its trust summary speaks of: the most reliable standing edge; else, for a stale paper, its least
        reliable assessed edge; else its first (UNVERIFIED) edge; None without edges."""
        standing = [edge for edge in self.edges if edge.stands]
        if standing:
            return max(standing, key=lambda edge: edge.reliability)
        assessed = [edge for edge in self.edges if edge.assessed]
        if assessed:
            return min(assessed, key=lambda edge: edge.reliability)
        return self.edges[0] if self.edges else None


@dataclass(frozen=True)
class PaperStaleness:
    """What a weighted staleness check reads of one paper (`staleness_by_weight`): whether it counts in the weight
    (`counts`), whether it is stale (`stale`, only asked of a counted paper), how a stale paper is shown in the reason
    (`shown`, given the paper and the rules), and the words of the reason: what the stale weight is on (`on`) and
    what the papers left out of the weight are (`outside`)."""

    counts: Callable[[Evidence], bool]
    stale: Callable[[Evidence], bool]
    shown: Callable[[Evidence, VerdictRules], str]
    on: str
    outside: str


def _shown_by_score(item: Evidence, rules: VerdictRules) -> str:
    edge = item.governing_edge
    replaced = " on a replaced version" if edge.dataset_replaced else ""
    return f"{item.paper.citation} {edge.dataset} {reliability_text(edge.reliability, [rules.reliable])} {edge.label}{replaced}"


def _shown_by_version(item: Evidence, rules: VerdictRules) -> str:
    return f"{item.paper.citation} {', '.join(dict.fromkeys(edge.dataset for edge in item.edges))} (replaced)"


# The critic's staleness: assessed papers (an edge that is not UNVERIFIED), stale when no assessed edge stands.
SCORES = PaperStaleness(
    counts=lambda item: item.assessed, stale=lambda item: item.stale, shown=_shown_by_score,
    on="on flagged edges or replaced dataset versions", outside="UNVERIFIED or no edge to the question's datasets",
)
# The baseline "replaced dataset version only": labels and scores ignored; every paper with an edge to the question's
# datasets counts, stale when all those edges are on replaced versions.
REPLACED_VERSION_ONLY = PaperStaleness(
    counts=lambda item: bool(item.edges), stale=lambda item: item.on_replaced_versions, shown=_shown_by_version,
    on="on replaced dataset versions only (labels not read)", outside="no edge to the question's datasets",
)


@dataclass(frozen=True)
class JudgedContradiction:
    """A coherence judgement CONTRADICTED between two papers, by their merge keys (canonical DOIs): `newer_key`
    contradicts `older_key`."""

    older_key: str
    newer_key: str


@dataclass(frozen=True)
class Comment:
    """A recorded comment (Crossref relation, 'Comment on ...' title) on the paper `commented_key`: the comment's
    citation and whether its authors' reply is on record."""

    commented_key: str
    comment: str
    answered: bool = False


@dataclass(frozen=True)
class Debates:
    """The contradictions and comments that concern the evidence set, in `verdicts.critic`'s shapes."""

    pairs: tuple[ContradictingPair, ...] = ()
    disputes: tuple[RecordedDispute, ...] = ()


@dataclass(frozen=True)
class QuestionJudgement:
    """One round's verdict over a question's evidence, with every check (they always run) and RECON's age rule.

    rounds: rewrite rounds already run before this one (0, 1, 2); unresolved: the non-PASS verdict a FORCED_PASS
    stands in for (None otherwise); rewrite: the strategy of the next round (None after PASS, FORCED_PASS or a scope
    that matches nothing); age_rule_verdict: the verdict with RECON's age rule as the staleness check;
    version_rule / version_rule_verdict: the replaced-version rule's check (`REPLACED_VERSION_ONLY`) and the verdict
    with it as the staleness check (neither is in `reason`, nor stored by the assets)."""

    verdict: str
    staleness: Check
    contradiction: Check
    sufficiency: Check
    age_rule: Check
    age_rule_verdict: str
    rounds: int
    unresolved: str | None
    rewrite: str | None
    reason: str
    version_rule: Check
    version_rule_verdict: str


def debates_in(evidence: Sequence[Evidence], contradictions: Sequence[JudgedContradiction], comments: Sequence[Comment]) -> Debates:
    """The judged contradictions between two papers of the set and the comments on one of its papers, as
    `verdicts.critic.ContradictingPair` / `RecordedDispute` with the set's citations and years; the rest are left
    out (they concern papers not retrieved)."""
    by_key = {item.paper.key: item.paper for item in evidence}
    pairs = tuple(
        ContradictingPair(by_key[pair.older_key].citation, by_key[pair.older_key].candidate.year,
                          by_key[pair.newer_key].citation, by_key[pair.newer_key].candidate.year)
        for pair in contradictions if pair.older_key in by_key and pair.newer_key in by_key
    )
    disputes = tuple(
        RecordedDispute(by_key[comment.commented_key].citation, comment.comment, comment.answered)
        for comment in comments if comment.commented_key in by_key
    )
    return Debates(pairs, disputes)


def staleness_by_weight(evidence: Sequence[Evidence], rules: VerdictRules, reading: PaperStaleness = SCORES) -> Check:
    """Stale when the stale papers hold more than `rules.weak_share` of the counted papers' summed hybrid score
    (compared at RELIABILITY_DECIMALS decimals); the reason names the stale papers, heaviest first. No counted weight
    is never stale.

    Args:
        reading: which papers count and which are stale: SCORES (the critic: assessed papers, stale when no assessed
            edge stands) or REPLACED_VERSION_ONLY (the baseline: papers with an edge, stale when all are on replaced
            versions).
    """
    assessed = [item for item in evidence if reading.counts(item)]
    stale = sorted((item for item in assessed if reading.stale(item)), key=lambda item: -item.paper.hybrid)
    total = sum(item.paper.hybrid for item in assessed)
    weight = sum(item.paper.hybrid for item in stale)
    unassessed = len(evidence) - len(assessed)
    aside = f"; {unassessed} paper(s) unassessed ({reading.outside})" if unassessed else ""
    if total <= 0:
        return Check(False, f"not stale: no assessed weight ({len(assessed)} assessed paper(s)){aside}")
    share = weight / total
    flagged = round(share, RELIABILITY_DECIMALS) > rules.weak_share
    head = (
        f"{share:.0%} of the assessed hybrid weight ({weight:.2f} of {total:.2f}, {len(stale)} of {len(assessed)} papers) "
        f"{reading.on} (stale above {rules.weak_share:.0%})"
    )
    listed = f": {_list_stale(stale, rules, reading)}" if stale else ""
    return Check(flagged, f"{'' if flagged else 'not stale: '}{head}{listed}{aside}")


def sufficiency_by_hybrid(evidence: Sequence[Evidence], rules: VerdictRules) -> Check:
    """Insufficient (flagged) when fewer than `rules.min_edges` papers, or fewer than `rules.min_edges` with hybrid >=
    `rules.reliable` (0.40), compared at RELIABILITY_DECIMALS decimals."""
    strong = sum(round(item.paper.hybrid, RELIABILITY_DECIMALS) >= rules.reliable for item in evidence)
    flagged = len(evidence) < rules.min_edges or strong < rules.min_edges
    return Check(flagged, f"{len(evidence)} paper(s), {strong} with hybrid >= {rules.reliable:.2f} ({rules.min_edges} of each needed)")


def recon_age_rule(evidence: Sequence[Evidence], as_of: date) -> Check:
    """RECON's staleness rule: mean age in months, (as_of year - publication year) * 12 over the dated papers, above
    24; with no dated paper RECON's 9999 months (stale)."""
    ages = [(as_of.year - item.paper.candidate.year) * 12 for item in evidence if item.paper.candidate.year]
    mean = sum(ages) / len(ages) if ages else RECON_UNDATED_AGE_MONTHS
    flagged = mean > RECON_MAX_MEAN_AGE_MONTHS
    dated = f"{len(ages)} dated paper(s)" if ages else "no dated paper (RECON counts 9999 months)"
    return Check(flagged, f"mean age {mean:.0f} months over {dated} ({'above' if flagged else 'within'} RECON's {RECON_MAX_MEAN_AGE_MONTHS})")


def judge_question(
    evidence: Sequence[Evidence],
    debates: Debates,
    rules: VerdictRules,
    as_of: date,
    rounds: int = 0,
    scope_problem: str | None = None,
) -> QuestionJudgement:
    """The verdict of one round over a question's evidence.

    Args:
        evidence: the merged, scored papers with their edges to the question's datasets.
        debates: `debates_in(...)` of the same evidence.
        rounds: rewrite rounds already run (0 to `rules.expansion_rounds`); at the ceiling a non-PASS verdict is
            FORCED_PASS.
        scope_problem: why the question's scope matches nothing (an unknown dataset, no publication): the verdict is
            INSUFFICIENT with this reason whatever the evidence, and not retried (a rewrite cannot fix the scope).

    Raises:
        ValueError: `rounds` outside 0 .. rules.expansion_rounds.
    """
    if not 0 <= rounds <= rules.expansion_rounds:
        raise ValueError(f"rounds must be between 0 and {rules.expansion_rounds}, got {rounds}")
    staleness = staleness_by_weight(evidence, rules)
    contradiction = contradiction_check(debates.pairs, debates.disputes, rules)
    enough = sufficiency_by_hybrid(evidence, rules)
    age_rule = recon_age_rule(evidence, as_of)
    version_rule = staleness_by_weight(evidence, rules, REPLACED_VERSION_ONLY)
    checks = f"staleness: {staleness.why}; contradiction: {contradiction.why}; sufficiency: {enough.why}; RECON age rule: {age_rule.why}"
    if scope_problem:
        return QuestionJudgement(INSUFFICIENT, staleness, contradiction, enough, age_rule, INSUFFICIENT, rounds, None, None,
                                 f"{INSUFFICIENT}: {scope_problem}; {checks}", version_rule, INSUFFICIENT)
    at_ceiling = rounds >= rules.expansion_rounds > 0

    def decided(staleness_check: Check) -> tuple[str, str | None]:
        """(verdict, the non-PASS verdict a FORCED_PASS stands in for) with `staleness_check` as the staleness check."""
        found = _decide(staleness_check, contradiction, enough)
        return (FORCED_PASS, found) if at_ceiling and found != PASS else (found, None)

    verdict, unresolved = decided(staleness)
    rewrite = REWRITE_FOR.get(verdict) if rules.expansion_rounds > 0 else None
    if unresolved:
        head = f"{FORCED_PASS}: still {unresolved} after the ceiling of {rules.expansion_rounds} rewrite round(s)"
    else:
        head = f"{verdict}{f' (round {rounds})' if rounds else ''}{f', next: rewrite sub-questions ({rewrite})' if rewrite else ''}"
    return QuestionJudgement(verdict, staleness, contradiction, enough, age_rule, decided(age_rule)[0], rounds, unresolved, rewrite,
                             f"{head}; {checks}", version_rule, decided(version_rule)[0])


def _decide(staleness: Check, contradiction: Check, enough: Check) -> str:
    """DOMAIN.md's order: both checks first (contradiction wins), then sufficiency."""
    fired = combine(staleness, contradiction)
    if fired:
        return fired
    return INSUFFICIENT if enough.flagged else PASS


def _list_stale(stale: Sequence[Evidence], rules: VerdictRules, reading: PaperStaleness) -> str:
    shown = [reading.shown(item, rules) for item in stale[: rules.listed_edges]]
    more = f" and {len(stale) - len(shown)} more" if len(stale) > len(shown) else ""
    return ", ".join(shown) + more
