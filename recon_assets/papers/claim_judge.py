"""A paper's claims judged by Groq against the works of the graph (issue 22, online): each claim with the works it is
judged against, through the edges' own guarded pair judge (`judgement.llm_prompt`: its system rules, fences, answer
schema validated with pydantic, quote checks and `states_stance`), asked through `judgement.cached_ask` (answers kept in
llm_answers and reused, the run's and the day's budget shared with the judges and every other prompt), only when the
paper's text may go out (the papers' opt-in, RECON_PAPERS_ONLINE=online, and the Groq resource online); the caller
checks both. What an answer may do to a verdict is `papers.verdicts.judge_claim`'s (an objection at least as strong as
the offline judge's, never a support: `llm_judge.llm_answer_counts`; and only quoting a sentence of the work about the
claim, `verdicts.MIN_SENTENCE_SIMILARITY`).

A pair as the pair judge reads it: p (the older publication, whose claim is judged) is the claim: the paper's title and
the claim's sentence, year unknown; q (the newer publication, whose text must state the stance) is the work: its title,
abstract and year; d is the datasets the paper uses (`paper_datasets`, names and versions). Before anything is sent,
wording that addresses a model is removed from every text (`judge_address.without_judge_address`) and counted. One
request per claim, holding its works of the nearest TOP_K whose similarity reaches the offline gate less the triage
band (`llm_judge.TriageRules`: 0.5 - 0.1): a work further from the claim is about something else, and asking about it
spends the budget for nothing. A claim with no such work is not sent.

Recorded as one `paper_llm_use` row, stage claim_verdicts (`online.StageUse`): requests, tokens, answers reused,
what was sent where, claims and works sent, answers unusable and why.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from recon_assets.judgement.judge_address import without_judge_address
from recon_assets.judgement.llm_judge import TriageRules
from recon_assets.judgement.llm_prompt import PROMPT_VERSION, PairTexts, build_messages, load_answer, read_answer
from recon_assets.judgement.resources import GroqJudgeResource
from recon_assets.papers.online import FALLBACK, LLM, NOT_SENT, StageUse, groq_asker
from recon_assets.papers.verdicts import Work, WorkJudgement

STAGE = "claim_verdicts"
PURPOSE = "paper_claim_verdicts"
# The pair judge's prompt version with this mapping of a claim onto a pair: a change of either asks again.
CLAIM_PROMPT_VERSION = f"claim-pairs-v1+{PROMPT_VERSION}"
# Works below the offline gate less the triage band are not sent (module docstring).
SEND_FROM_SIMILARITY = TriageRules().min_similarity - TriageRules().similarity_band


@dataclass(frozen=True)
class ClaimToJudge:
    """One claim: its position, sentence and the works it is judged against (`verdicts.Work`, the nearest first),
    with each work's title and abstract by id (what q is given)."""

    position: int
    text: str
    works: Sequence[Work]
    titles: dict[str, str | None] = field(default_factory=dict)
    abstracts: dict[str, str | None] = field(default_factory=dict)
    years: dict[str, int | None] = field(default_factory=dict)


@dataclass
class ClaimJudging:
    """{claim position: {work id: Groq's judgement}} and the stage's `StageUse`."""

    answers: dict[int, dict[str, WorkJudgement]]
    use: StageUse


def _screened(text: str | None, removed: list[str], where: str) -> str | None:
    kept, found = without_judge_address(text)
    if found is not None:
        removed.append(f"{where}: {found.describe()}")
    return kept


def claim_pairs(claim: ClaimToJudge, title: str | None, datasets: str | None, removed: list[str]) -> list[tuple[str, PairTexts]]:
    """[(work id, PairTexts)] of the claim's works to send (module docstring); `removed` gets a line per text whose
    wording addressing a model was removed."""
    sent = [work for work in claim.works if work.similarity >= SEND_FROM_SIMILARITY]
    if not sent:
        return []
    older_title = _screened(title, removed, "the paper's title")
    older = _screened(claim.text, removed, f"claim {claim.position}")
    if not older:
        return []
    return [
        (work.publication_id, PairTexts(
            dataset=datasets, older_title=older_title, older_abstract=older, older_year=None,
            newer_title=_screened(claim.titles.get(work.publication_id), removed, f"title of {work.doi or work.publication_id}"),
            newer_abstract=_screened(claim.abstracts.get(work.publication_id), removed, f"abstract of {work.doi or work.publication_id}"),
            newer_year=claim.years.get(work.publication_id),
        ))
        for work in sent
    ]


def _usable(raw: str | None) -> str | None:
    """Why an answer cannot be read at all (no JSON object with a "judgements" list), else None; a pair's own failure
    (`read_answer`) is that pair's, not the answer's."""
    loaded, note = load_answer(raw)
    if loaded is None:
        return note
    return None if isinstance(loaded.get("judgements"), list) else "answer has no 'judgements' list"


def judge_claims_online(
    con, claims: Sequence[ClaimToJudge], title: str | None, datasets: str | None, groq: GroqJudgeResource, *,
    log: Callable[[str], None], now: Callable[[], datetime] | None = None, **client_options,
) -> ClaimJudging:
    """Groq's judgements of each claim's works (module docstring).

    Args:
        con: a DuckDB connection or the store's Tables (llm_answers and llm_judgements are created when missing).
        datasets: what the model reads as d (None: "(none)").
        log: called with one line per notable event; `client_options` go to the client (http_client, clock, sleep).
    Raises:
        ValueError: `groq` is offline.
    """
    use, answers = StageUse(STAGE), {}
    sent_claims = sent_works = counted = 0
    any_pairs = False
    per_request = groq.settings.pairs_per_request
    with groq_asker(con, groq, "judge_claims_online", log=log, now=now, **client_options) as asker:
        for claim in claims:
            pairs = claim_pairs(claim, title, datasets, use.removed)
            any_pairs = any_pairs or bool(pairs)
            for start in range(0, len(pairs), per_request):
                batch = pairs[start:start + per_request]
                texts = [pair for _, pair in batch]
                tokens = 100 + groq.settings.completion_tokens_per_pair * len(texts)
                requests = use.requests
                asked = asker.ask(use, PURPOSE, CLAIM_PROMPT_VERSION, build_messages(texts), tokens, _usable)
                sent_claims += use.requests > requests and start == 0
                sent_works += len(batch) if use.requests > requests else 0
                if asked.content is None:
                    use.reasons.append(f"claim {claim.position}: {asked.reason}")
                    continue
                results = read_answer(asked.content, texts)
                for index, (work_id, _) in enumerate(batch):
                    result = results[index]
                    if result.answer is None:
                        use.dropped.append(f"claim {claim.position}, {work_id}: {result.failure}")
                        continue
                    answer = result.answer
                    answers.setdefault(claim.position, {})[work_id] = WorkJudgement(
                        answer.verdict, float(answer.coherence), answer.rationale, answer.evidence[0] if answer.evidence else None,
                        f"groq/{asked.model}",
                    )
                    counted += 1
    if use.sent:
        use.reasons.insert(0, f"{sent_claims} claims with {sent_works} works' titles and abstracts sent, {counted} pair answers read")
    use.outcome = LLM if answers else (FALLBACK if use.sent or use.cached else NOT_SENT)
    if not any_pairs:
        use.reasons.append(f"no claim has a work of similarity {SEND_FROM_SIMILARITY:.1f} or more to ask about")
    return ClaimJudging(answers, use)


__all__ = ["ClaimJudging", "ClaimToJudge", "claim_pairs", "judge_claims_online"]
