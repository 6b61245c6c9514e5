"""Verdicts over the evidence set of a dataset in a research area, exactly as DOMAIN.md ("Verdicts over an
evidence set") defines them:

- **both** checks run first, neither short-circuits the other: staleness (most of the assessed evidence is weak,
  or the dataset version is superseded) and contradiction (a contradicting pair of publications at least 2 years
  apart, or a recorded comment on one of the set's publications: the 2-year rule does not apply to recorded
  disputes); both or only contradiction -> `CONTRADICTED`, only staleness -> `STALE`;
- only when neither fires is sufficiency decided: fewer than 3 assessed edges (not UNVERIFIED), or fewer than 3
  with reliability >= 0.40 -> `INSUFFICIENT`, else `PASS`;
- evidence expanded (publications citing the dataset DOI, `recon_assets.verdicts.expansion`) up to the ceiling of
  2 rounds and still insufficient -> `FORCED_PASS`. Only a round that ran counts toward the ceiling: one that could
  not (OpenAlex offline or in error, its budget spent, the dataset without a DOI) leaves the verdict
  `INSUFFICIENT`, its reason naming that round and why it could not run. The expanded publications join the
  evidence set, so the checks see them too.

An edge is *assessed* when its label concludes something (not UNVERIFIED) and *weak* when its label flags it
(DECLINING or SUPERSEDED: a negative signal was observed, DOMAIN.md "Labels are findings"); "most" is more than
`VerdictRules.weak_share` (0.5) of the assessed edges. Deciding INSUFFICIENT first, as before, made every dataset
whose evidence is all weak INSUFFICIENT or FORCED_PASS and never STALE.

Reliabilities are compared with the bar at `RELIABILITY_DECIMALS` decimals, the precision `reliability.labels`
rounds to, so float noise (0.3999999999999999) never decides a verdict. Every verdict carries a reason naming the
edges that drove it ('[Wei et al., 2023] 0.55 DECLINING'), at most `VerdictRules.listed_edges` of them and how many more.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import dagster as dg
from pydantic import Field

from recon_assets.lifecycle.lineage import since_text
from recon_assets.reliability.labels import FLAGGED_LABELS, RELIABILITY_DECIMALS, UNVERIFIED
from recon_assets.reliability.reasons import RELIABLE_BAR, reliability_text

PASS, STALE, CONTRADICTED, INSUFFICIENT, FORCED_PASS = "PASS", "STALE", "CONTRADICTED", "INSUFFICIENT", "FORCED_PASS"
VERDICTS = (PASS, STALE, CONTRADICTED, INSUFFICIENT, FORCED_PASS)
# DOMAIN.md: "the ceiling of 2 rounds" of evidence expansion.
MAX_EXPANSION_ROUNDS = 2


class VerdictRules(dg.Config):
    """The verdict rules: the run config of `dataset_verdicts`, stored as JSON on each of its rows. DOMAIN.md fixes
    min_edges (3), reliable (0.40), min_contradiction_years (2) and the ceiling of 2 expansion rounds; weak_share
    (0.5: "most" is a majority) and listed_edges are this project's choices.

    Raises:
        pydantic.ValidationError: a value out of range.
    """

    min_edges: int = Field(default=3, ge=1, description="Assessed edges, and reliable edges, a sufficient evidence set needs.")
    reliable: float = Field(default=RELIABLE_BAR, ge=0.0, le=1.0, description="Reliability from which an edge is reliable evidence.")
    weak_share: float = Field(
        default=0.5, ge=0.0, lt=1.0,
        description="The evidence is stale when more than this share of its assessed edges is weak (DECLINING or SUPERSEDED).",
    )
    min_contradiction_years: int = Field(
        default=2, ge=0, description="Years between a judged contradicting pair's publications (not applied to recorded disputes)."
    )
    expansion_rounds: int = Field(
        default=MAX_EXPANSION_ROUNDS, ge=0, le=MAX_EXPANSION_ROUNDS,
        description="Evidence expansion rounds for INSUFFICIENT sets (1: OpenAlex cache; 2: also OpenAlex); 0 keeps "
        "INSUFFICIENT. FORCED_PASS needs this many rounds to have run.",
    )
    listed_edges: int = Field(default=5, ge=1, description="Edges a reason names before 'and N more'.")


@dataclass(frozen=True)
class Edge:
    """One piece of evidence: a scored Dataset->Publication edge, or a publication found by expansion.
    citation: '[Wei et al., 2023]'; reliability in [0, 1]; label as in edge_reliability."""

    citation: str
    reliability: float
    label: str

    @property
    def assessed(self) -> bool:
        """Its label concludes something (DOMAIN.md: an UNVERIFIED edge is not assessed evidence)."""
        return self.label != UNVERIFIED

    @property
    def weak(self) -> bool:
        """Its label flags it: DECLINING or SUPERSEDED."""
        return self.label in FLAGGED_LABELS


@dataclass(frozen=True)
class Lifecycle:
    """The dataset's version status (dataset_lineage): superseded, its version, the successor's version and
    since when (dataset_lineage.superseded_since: ISO date or year, or 'by <date>' of the first record of a
    supersession whose date is unknown); None when nothing dates it."""

    superseded: bool = False
    version: str | None = None
    successor_version: str | None = None
    since: str | None = None


@dataclass(frozen=True)
class ContradictingPair:
    """A coherence judgement CONTRADICTED: the newer publication contradicts the older one (years may be None)."""

    older_citation: str
    older_year: int | None
    newer_citation: str
    newer_year: int | None


@dataclass(frozen=True)
class RecordedDispute:
    """A published comment on one of the set's publications (Crossref relation or a 'Comment on ...' title):
    `commented` is the publication's citation, `comment` the comment's, `answered` whether its authors replied."""

    commented: str
    comment: str
    answered: bool = False


@dataclass(frozen=True)
class Check:
    """The outcome of one check: flagged or not, and why (naming the edges or pairs that decided it)."""

    flagged: bool
    why: str


@dataclass(frozen=True)
class ExpansionRound:
    """One round of evidence expansion: where it looked (source), what it found or why nothing (note),
    the new publications, scored, and whether it ran (False: it could not look, and `note` says why; such
    a round does not count toward the ceiling of rounds)."""

    source: str
    note: str
    edges: tuple[Edge, ...] = ()
    ran: bool = True


@dataclass(frozen=True)
class Judgement:
    """A dataset's verdict and both checks (they always run); n_edges and n_reliable count the whole evidence set
    judged, expanded publications included; expansion_rounds counts the rounds that ran."""

    verdict: str
    staleness: Check
    contradiction: Check
    n_edges: int
    n_reliable: int
    expansion_rounds: int
    expanded_publications: int
    reason: str


def is_reliable(edge: Edge, rules: VerdictRules) -> bool:
    """True when the edge's reliability, at RELIABILITY_DECIMALS decimals, is at least `rules.reliable`."""
    return round(edge.reliability, RELIABILITY_DECIMALS) >= rules.reliable


def sufficiency(edges: Sequence[Edge], rules: VerdictRules) -> Check:
    """flagged (insufficient) when fewer than `min_edges` assessed edges, or fewer than `min_edges` with
    reliability >= `reliable` (DOMAIN.md; `is_reliable`)."""
    assessed = sum(edge.assessed for edge in edges)
    reliable = sum(is_reliable(edge, rules) for edge in edges)
    flagged = assessed < rules.min_edges or reliable < rules.min_edges
    return Check(
        flagged,
        f"{len(edges)} edge(s), {assessed} assessed (not UNVERIFIED), {reliable} with reliability >= {rules.reliable:.2f} "
        f"({rules.min_edges} of each needed)",
    )


def staleness_check(edges: Sequence[Edge], lifecycle: Lifecycle, rules: VerdictRules) -> Check:
    """Stale when the dataset version is superseded, or more than `weak_share` of the assessed edges are weak
    (`Edge.weak`); both causes are named when both hold, and then only the weak edges are listed (no edge twice). A
    set without assessed edges is never stale by its edges."""
    assessed = [edge for edge in edges if edge.assessed]
    weak = sorted((edge for edge in assessed if edge.weak), key=lambda edge: edge.reliability)
    weak_majority = bool(assessed) and len(weak) / len(assessed) > rules.weak_share
    share = (
        f"{len(weak)} of {len(assessed)} assessed edges weak (labelled DECLINING or SUPERSEDED, at any reliability; "
        f"stale above {rules.weak_share:.0%})"
    )
    causes = []
    if lifecycle.superseded:
        since = since_text(lifecycle.since) if lifecycle.since else ""
        # The edges are listed here only when the weak ones are not listed next: each edge is named once.
        listed = "" if weak_majority else f": {list_edges(sorted(edges, key=lambda edge: edge.reliability), rules)}"
        causes.append(
            f"dataset version {lifecycle.version or '(unknown)'} superseded by {lifecycle.successor_version or 'a successor'}{since}, "
            f"under {_its_edges(len(edges))}{listed}"
        )
    if weak_majority:
        causes.append(f"{share}: {list_edges(weak, rules)}")
    if causes:
        return Check(True, "; ".join(causes))
    return Check(False, f"not stale: dataset version current, {share}")


def _its_edges(count: int) -> str:
    """'its one edge', 'both its edges', 'all 3 edges' (a new user read 'under all 2 edges' in a report)."""
    return {1: "its one edge", 2: "both its edges"}.get(count, f"all {count} edges")


def contradiction_check(pairs: Sequence[ContradictingPair], disputes: Sequence[RecordedDispute], rules: VerdictRules) -> Check:
    """Contradicted when a newer publication contradicts an older one published at least `min_contradiction_years`
    before it, or a published comment on one of the set's publications is recorded (DOMAIN.md: the 2-year rule
    does not apply to recorded disputes, which usually follow within months). Judged pairs closer in time, or
    with an unknown year, do not count; the reason says how many there were."""
    apart = [
        pair for pair in pairs
        if pair.older_year is not None and pair.newer_year is not None
        and pair.newer_year - pair.older_year >= rules.min_contradiction_years
    ]
    apart.sort(key=lambda pair: (pair.older_year - pair.newer_year, pair.newer_citation, pair.older_citation))
    ignored = len(pairs) - len(apart)
    aside = (
        f" ({ignored} contradicting pair(s) less than {rules.min_contradiction_years} years apart or of unknown year not counted)"
        if ignored else ""
    )
    found = [
        f"{dispute.comment} comments on {dispute.commented}{' (answered by its authors: debated)' if dispute.answered else ''}"
        for dispute in disputes
    ] + [f"{pair.newer_citation} contradicts {pair.older_citation} ({pair.newer_year - pair.older_year} years apart)" for pair in apart]
    if not found:
        return Check(False, f"no recorded dispute and no contradicting pair at least {rules.min_contradiction_years} years apart{aside}")
    shown = found[: rules.listed_edges]
    more = f" and {len(found) - len(shown)} more" if len(found) > len(shown) else ""
    return Check(True, ", ".join(shown) + more + aside)


def combine(staleness: Check, contradiction: Check) -> str | None:
    """The stronger signal wins: contradiction (alone or with staleness) -> CONTRADICTED, staleness alone -> STALE;
    None when neither fired (sufficiency decides)."""
    if contradiction.flagged:
        return CONTRADICTED
    return STALE if staleness.flagged else None


def needs_more_evidence(
    edges: Sequence[Edge], lifecycle: Lifecycle, pairs: Sequence[ContradictingPair], disputes: Sequence[RecordedDispute], rules: VerdictRules
) -> bool:
    """Whether expanding the evidence could change the verdict: neither check fires and the set is insufficient."""
    fired = combine(staleness_check(edges, lifecycle, rules), contradiction_check(pairs, disputes, rules))
    return fired is None and sufficiency(edges, rules).flagged


def judge(
    edges: Sequence[Edge],
    lifecycle: Lifecycle,
    pairs: Sequence[ContradictingPair],
    rules: VerdictRules,
    rounds: Sequence[ExpansionRound] = (),
    disputes: Sequence[RecordedDispute] = (),
) -> Judgement:
    """The verdict over `edges` plus the publications found by the expansion `rounds` already run.

    Args:
        edges: the dataset's scored edges in the research area.
        pairs: its CONTRADICTED coherence judgements in the research area.
        rounds: expansion rounds tried for it (none when no expansion was needed); a set still insufficient after
            `rules.expansion_rounds` rounds that ran is FORCED_PASS, otherwise INSUFFICIENT (a round that could not
            run, `ExpansionRound.ran` False, does not count).
        disputes: recorded comments on its publications.

    Returns:
        The Judgement, its reason opening with the verdict.
    """
    expanded = [edge for round_ in rounds for edge in round_.edges]
    evidence = [*edges, *expanded]
    ran = sum(round_.ran for round_ in rounds)
    counts = dict(
        n_edges=len(evidence), n_reliable=sum(is_reliable(edge, rules) for edge in evidence),
        expansion_rounds=ran, expanded_publications=len(expanded),
    )
    expansion = _expansion_text(rounds, rules)
    staleness = staleness_check(evidence, lifecycle, rules)
    contradiction = contradiction_check(pairs, disputes, rules)
    verdict = combine(staleness, contradiction)
    if verdict == CONTRADICTED:
        body = f"{contradiction.why}; {'also stale: ' if staleness.flagged else ''}{staleness.why}"
        return Judgement(verdict, staleness, contradiction, reason=f"{verdict}: {body}{expansion}", **counts)
    if verdict == STALE:
        return Judgement(verdict, staleness, contradiction, reason=f"{verdict}: {staleness.why}; {contradiction.why}{expansion}", **counts)
    enough = sufficiency(evidence, rules)
    if not enough.flagged:
        reliable = sorted((edge for edge in evidence if is_reliable(edge, rules)), key=lambda edge: -edge.reliability)
        body = f"{enough.why}: {list_edges(reliable, rules)}; {staleness.why}; {contradiction.why}"
        return Judgement(PASS, staleness, contradiction, reason=f"{PASS}: {body}{expansion}", **counts)
    ceiling = ran >= rules.expansion_rounds > 0
    verdict = FORCED_PASS if ceiling else INSUFFICIENT
    if ceiling:
        head = f"still insufficient after the ceiling of {rules.expansion_rounds} expansion round(s), {enough.why}"
    elif rounds:
        head = f"{enough.why}; only {ran} of {rules.expansion_rounds} expansion round(s) ran"
    else:
        head = enough.why
    strongest = sorted(evidence, key=lambda edge: -edge.reliability)
    evidence_text = f"evidence {list_edges(strongest, rules)}" if evidence else "no evidence"
    reason = f"{verdict}: {head}{expansion}; {staleness.why}; {contradiction.why}; {evidence_text}"
    return Judgement(verdict, staleness, contradiction, reason=reason, **counts)


def list_edges(edges: Sequence[Edge], rules: VerdictRules) -> str:
    """'[Wei et al., 2023] 0.55 CURRENT, [Li, 2020] 0.31 SUPERSEDED and 3 more': the first `rules.listed_edges`
    edges in the given order, each with its reliability and label."""
    shown = [f"{edge.citation} {reliability_text(edge.reliability, [rules.reliable])} {edge.label}" for edge in edges[: rules.listed_edges]]
    more = f" and {len(edges) - len(shown)} more" if len(edges) > len(shown) else ""
    return ", ".join(shown) + more


def _expansion_text(rounds: Sequence[ExpansionRound], rules: VerdictRules) -> str:
    """' (expansion: round 1, OpenAlex cache: ...; round 2, OpenAlex could not run: ...)', or '' without rounds."""
    if not rounds:
        return ""
    texts = [
        f"round {number}, {round_.source}{'' if round_.ran else ' could not run'}: {round_.note}"
        + (f": {list_edges(sorted(round_.edges, key=lambda edge: -edge.reliability), rules)}" if round_.edges else "")
        for number, round_ in enumerate(rounds, start=1)
    ]
    return f" (expansion: {'; '.join(texts)})"
