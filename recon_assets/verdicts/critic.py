"""Verdicts over the evidence set of a dataset in a research area, exactly as DOMAIN.md ("Verdicts over an
evidence set") defines them:

- `INSUFFICIENT`: fewer than 3 edges, or fewer than 3 with reliability >= 0.40;
- otherwise **both** checks run, neither short-circuits the other:
  staleness (low reliability across the evidence, or the dataset version is superseded) and
  contradiction (a contradicting pair of publications at least 2 years apart);
  both or only contradiction -> `CONTRADICTED`, only staleness -> `STALE`, neither -> `PASS`;
- evidence expanded (publications citing the dataset DOI, `recon_assets.verdicts.expansion`) up to the
  ceiling of 2 rounds and still insufficient -> `FORCED_PASS`. Only a round that ran counts toward the
  ceiling: one that could not (OpenAlex offline or in error, its budget spent, the dataset without a DOI)
  leaves the verdict `INSUFFICIENT`, its reason naming that round and why it could not run.

Reliabilities are compared with the bar at `RELIABILITY_DECIMALS` decimals, the precision
`reliability.scoring` rounds to, so float noise (0.3999999999999999) never decides a verdict.

"Low reliability across the evidence" is this project's rule (`CriticRules`): an edge is *weak* when its
reliability is below the same 0.40 bar the INSUFFICIENT rule uses to call an edge reliable, or its label is
SUPERSEDED (a retracted publication is SUPERSEDED whatever its score); the evidence is stale when at least
half of it is weak. The label DECLINING is deliberately not counted: it spans reliability 0.35-0.6 and holds
most ordinary, moderately cited papers (19 of the shipped sample's 28 edges as of 2026-11-29), so counting it would call
nearly every dataset stale. Since a sufficient set holds at least 3 reliable edges, the weak-majority
route needs at least 6 edges; smaller sets are stale only through their dataset version.

Every verdict carries a reason naming the edges that drove it ('[Wei et al., 2023] 0.55'), at most
`CriticRules.listed_edges` of them and how many more.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from recon_assets.reliability.scoring import RELIABILITY_DECIMALS, SUPERSEDED, reliability_text

PASS, STALE, CONTRADICTED, INSUFFICIENT, FORCED_PASS = "PASS", "STALE", "CONTRADICTED", "INSUFFICIENT", "FORCED_PASS"
VERDICTS = (PASS, STALE, CONTRADICTED, INSUFFICIENT, FORCED_PASS)
# DOMAIN.md: "the ceiling of 2 rounds" of evidence expansion.
MAX_EXPANSION_ROUNDS = 2
# An edge label that counts as weak evidence whatever the reliability (retractions land here).
WEAK_LABEL = SUPERSEDED


@dataclass(frozen=True)
class CriticRules:
    """The verdict rules. DOMAIN.md fixes min_edges (3), reliable (0.40), min_contradiction_years (2) and the
    ceiling of 2 expansion rounds; weak_share (0.5: a majority of weak edges) and listed_edges are this
    project's choices (module docstring).

    expansion_rounds: rounds tried for an INSUFFICIENT set (0 disables expansion, so INSUFFICIENT stays).

    Raises:
        ValueError: a value out of range.
    """

    min_edges: int = 3
    reliable: float = 0.40
    weak_share: float = 0.5
    min_contradiction_years: int = 2
    expansion_rounds: int = MAX_EXPANSION_ROUNDS
    listed_edges: int = 5

    def __post_init__(self) -> None:
        if not (self.min_edges >= 1 and 0.0 <= self.reliable <= 1.0 and 0.0 < self.weak_share <= 1.0
                and self.min_contradiction_years >= 0 and 0 <= self.expansion_rounds <= MAX_EXPANSION_ROUNDS
                and self.listed_edges >= 1):
            raise ValueError(
                f"critic rules out of range (min_edges >= 1, reliable in [0, 1], weak_share in (0, 1], "
                f"min_contradiction_years >= 0, expansion_rounds in [0, {MAX_EXPANSION_ROUNDS}], listed_edges >= 1): {self}"
            )


@dataclass(frozen=True)
class Edge:
    """One piece of evidence: a scored Dataset->Publication edge, or a publication found by expansion.
    citation: '[Wei et al., 2023]'; reliability in [0, 1]; label as in edge_reliability."""

    citation: str
    reliability: float
    label: str


@dataclass(frozen=True)
class Lifecycle:
    """The dataset's version status (dataset_lineage): superseded, its version, the successor's version and
    since when (ISO date or year) the successor exists; None when unknown."""

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
    """A dataset's verdict. staleness / contradiction are None when they did not run (insufficient evidence);
    n_edges and n_reliable count the whole evidence set judged, expanded publications included;
    expansion_rounds counts the rounds that ran."""

    verdict: str
    staleness: Check | None
    contradiction: Check | None
    n_edges: int
    n_reliable: int
    expansion_rounds: int
    expanded_publications: int
    reason: str


def is_reliable(edge: Edge, rules: CriticRules = CriticRules()) -> bool:
    """True when the edge's reliability, at RELIABILITY_DECIMALS decimals, is at least `rules.reliable`."""
    return round(edge.reliability, RELIABILITY_DECIMALS) >= rules.reliable


def is_weak(edge: Edge, rules: CriticRules = CriticRules()) -> bool:
    """True when the edge is weak evidence: not reliable (`is_reliable`), or labelled SUPERSEDED."""
    return not is_reliable(edge, rules) or edge.label == WEAK_LABEL


def sufficiency(edges: Sequence[Edge], rules: CriticRules = CriticRules()) -> Check:
    """flagged (insufficient) when fewer than `min_edges` edges, or fewer than `min_edges` with reliability
    >= `reliable` (DOMAIN.md; `is_reliable`)."""
    reliable = sum(is_reliable(edge, rules) for edge in edges)
    flagged = len(edges) < rules.min_edges or reliable < rules.min_edges
    return Check(flagged, f"{len(edges)} edge(s), {reliable} with reliability >= {rules.reliable:.2f} ({rules.min_edges} of each needed)")


def staleness_check(edges: Sequence[Edge], lifecycle: Lifecycle, rules: CriticRules = CriticRules()) -> Check:
    """Stale when the dataset version is superseded, or at least `weak_share` of the edges are weak
    (`is_weak`); both causes are named when both hold. An empty evidence set is never stale by reliability."""
    weak = sorted((edge for edge in edges if is_weak(edge, rules)), key=lambda edge: edge.reliability)
    weak_majority = bool(edges) and len(weak) / len(edges) >= rules.weak_share
    share = (
        f"{len(weak)} of {len(edges)} edges weak (reliability < {rules.reliable:.2f} or {WEAK_LABEL}; "
        f"stale from {rules.weak_share:.0%})"
    )
    causes = []
    if lifecycle.superseded:
        since = f" since {lifecycle.since}" if lifecycle.since else ""
        resting = sorted(edges, key=lambda edge: edge.reliability)
        causes.append(
            f"dataset version {lifecycle.version or '(unknown)'} superseded by {lifecycle.successor_version or 'a successor'}{since}, "
            f"under all {len(edges)} edges: {list_edges(resting, rules)}"
        )
    if weak_majority:
        causes.append(f"{share}: {list_edges(weak, rules)}")
    if causes:
        return Check(True, "; ".join(causes))
    return Check(False, f"not stale: dataset version current, {share}")


def contradiction_check(pairs: Sequence[ContradictingPair], rules: CriticRules = CriticRules()) -> Check:
    """Contradicted when a newer publication contradicts an older one published at least
    `min_contradiction_years` before it (DOMAIN.md). Pairs closer in time, or with an unknown year, do not
    count; the reason says how many there were."""
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
    if not apart:
        return Check(False, f"no contradicting pair at least {rules.min_contradiction_years} years apart{aside}")
    shown = [
        f"{pair.newer_citation} contradicts {pair.older_citation} ({pair.newer_year - pair.older_year} years apart)"
        for pair in apart[: rules.listed_edges]
    ]
    more = f" and {len(apart) - len(shown)} more" if len(apart) > len(shown) else ""
    return Check(True, ", ".join(shown) + more + aside)


def combine(staleness: Check, contradiction: Check) -> str:
    """The stronger signal wins: contradiction (alone or with staleness) -> CONTRADICTED, staleness alone
    -> STALE, neither -> PASS."""
    if contradiction.flagged:
        return CONTRADICTED
    return STALE if staleness.flagged else PASS


def judge(
    edges: Sequence[Edge],
    lifecycle: Lifecycle,
    pairs: Sequence[ContradictingPair],
    rules: CriticRules = CriticRules(),
    rounds: Sequence[ExpansionRound] = (),
) -> Judgement:
    """The verdict over `edges` plus the publications found by the expansion `rounds` already run.

    Args:
        edges: the dataset's scored edges in the research area.
        pairs: its CONTRADICTED coherence judgements in the research area.
        rounds: expansion rounds tried for it (none when the KG edges alone were sufficient); a set still
            insufficient after `rules.expansion_rounds` rounds that ran is FORCED_PASS, otherwise
            INSUFFICIENT (a round that could not run, `ExpansionRound.ran` False, does not count).

    Returns:
        The Judgement, its reason opening with the verdict.
    """
    expanded = [edge for round_ in rounds for edge in round_.edges]
    evidence = [*edges, *expanded]
    enough = sufficiency(evidence, rules)
    ran = sum(round_.ran for round_ in rounds)
    counts = dict(
        n_edges=len(evidence), n_reliable=sum(is_reliable(edge, rules) for edge in evidence),
        expansion_rounds=ran, expanded_publications=len(expanded),
    )
    expansion = _expansion_text(rounds, rules)
    if enough.flagged:
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
        reason = f"{verdict}: {head}{expansion}; {evidence_text}"
        return Judgement(verdict, None, None, reason=reason, **counts)
    staleness = staleness_check(evidence, lifecycle, rules)
    contradiction = contradiction_check(pairs, rules)
    verdict = combine(staleness, contradiction)
    reliable = sorted((edge for edge in evidence if is_reliable(edge, rules)), key=lambda edge: -edge.reliability)
    if verdict == CONTRADICTED:
        body = f"{contradiction.why}; {'also stale: ' if staleness.flagged else ''}{staleness.why}"
    elif verdict == STALE:
        body = f"{staleness.why}; {contradiction.why}"
    else:
        body = f"{enough.why}: {list_edges(reliable, rules)}; {staleness.why}; {contradiction.why}"
    return Judgement(verdict, staleness, contradiction, reason=f"{verdict}: {body}{expansion}", **counts)


def list_edges(edges: Sequence[Edge], rules: CriticRules = CriticRules()) -> str:
    """'[Wei et al., 2023] 0.55, [Li, 2020] 0.31 SUPERSEDED and 3 more': the first `rules.listed_edges`
    edges in the given order, each with its reliability (and the label when it is SUPERSEDED)."""
    shown = [
        f"{edge.citation} {reliability_text(edge.reliability, [rules.reliable])}{f' {WEAK_LABEL}' if edge.label == WEAK_LABEL else ''}"
        for edge in edges[: rules.listed_edges]
    ]
    more = f" and {len(edges) - len(shown)} more" if len(edges) > len(shown) else ""
    return ", ".join(shown) + more


def _expansion_text(rounds: Sequence[ExpansionRound], rules: CriticRules) -> str:
    """' (expansion: round 1, OpenAlex cache: ...; round 2, OpenAlex could not run: ...)', or '' without rounds."""
    if not rounds:
        return ""
    texts = [
        f"round {number}, {round_.source}{'' if round_.ran else ' could not run'}: {round_.note}"
        + (f": {list_edges(sorted(round_.edges, key=lambda edge: -edge.reliability), rules)}" if round_.edges else "")
        for number, round_ in enumerate(rounds, start=1)
    ]
    return f" (expansion: {'; '.join(texts)})"


