"""The judge verdicts and DOMAIN.md's coherence scale ("coherence"): the one place both are said. Every judge (the
offline judge, the LLM judge's prompt and answer check, the steward judgements), the recorded disputes and the
reliability labels read them from here.

    verdict       coherence   DOMAIN.md
    SUPPORTED     1.0         still the consensus
    SUPPORTED     0.7         foundational but refined
    CONTRADICTED  0.5         actively debated
    CONTRADICTED  0.1         contradicted by current consensus
    SUPERSEDED    0.3         substantially superseded
    UNVERIFIED    0.5         no evidence (neutral)

`SCALE` says what the newer publication does at each point, in the words the LLM judge is given. UNVERIFIED's value
is the middle of the scale, so that no evidence pulls a score neither up nor down (DOMAIN.md: "No evidence means
UNVERIFIED with a documented neutral value").
"""

from __future__ import annotations

from typing import Literal, get_args

# A verdict that takes a stance on the older publication's claim (a steward records one of these or nothing).
Stance = Literal["SUPPORTED", "CONTRADICTED", "SUPERSEDED"]
Verdict = Literal[Stance, "UNVERIFIED"]
STANCES: tuple[Stance, ...] = get_args(Stance)
# Every verdict a pair judgement (and so an edge's coherence_status) can carry, in this order wherever listed.
VERDICTS: tuple[Verdict, ...] = get_args(Verdict)
SUPPORTED, CONTRADICTED, SUPERSEDED, UNVERIFIED = VERDICTS
# The verdicts that object to the older publication.
OBJECTIONS: tuple[Verdict, ...] = (CONTRADICTED, SUPERSEDED)

# The points of the scale (DOMAIN.md "coherence").
CONSENSUS_COHERENCE = 1.0  # "still the consensus"
REFINED_COHERENCE = 0.7  # "foundational but refined"
DEBATED_COHERENCE = 0.5  # "actively debated"
SUPERSEDED_COHERENCE = 0.3  # "substantially superseded"
CONTRADICTED_COHERENCE = 0.1  # "contradicted by current consensus"
# UNVERIFIED's documented neutral value: the middle of the scale (module docstring).
NEUTRAL_COHERENCE = 0.5

# The scale, point by point: (verdict, coherence, what the newer publication q does to the older p's claim about the
# dataset d), in the order the LLM judge's prompt lists them (`llm_prompt.SYSTEM_PROMPT` rule 3).
SCALE: tuple[tuple[Verdict, float, str], ...] = (
    (SUPPORTED, CONSENSUS_COHERENCE, "q confirms p's claim"),
    (SUPPORTED, REFINED_COHERENCE, "q refines, corrects or extends p's claim and keeps it"),
    (CONTRADICTED, DEBATED_COHERENCE, "q disputes p's claim and the matter stays open (debated)"),
    (CONTRADICTED, CONTRADICTED_COHERENCE, "q shows p's claim is wrong"),
    (SUPERSEDED, SUPERSEDED_COHERENCE, "q replaces p's result with a newer one that should be used instead"),
    (UNVERIFIED, NEUTRAL_COHERENCE, "q does not bear on p's claim about d, or the texts do not say"),
)
# The coherence values each verdict may carry.
COHERENCE_BY_VERDICT: dict[Verdict, tuple[float, ...]] = {
    verdict: tuple(value for point, value, _ in SCALE if point == verdict) for verdict in VERDICTS
}
