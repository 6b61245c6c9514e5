"""The research briefs' planner and synthesizer online (issue 21): one Groq request each, through the coherence judge's
resource (`judgement.resources.GroqJudgeResource`): its model settings, its client (`GroqJudgeClient.ask`: the judge's
retries, pacing, run budget, fallback model and stops, JSON mode, every text the server sends redacted), the daily
budget it shares with the judge (`llm_cache.usage_on_day`, over llm_judgements and llm_answers) and the answer cache
llm_answers (`llm_cache.cached_answer` / `store_answer`, keyed by purpose, the SHA-256 of the messages sent, model and
prompt version; the temperature is a constant of each purpose, so it is part of the prompt version:
`planner.PLANNER_PROMPT_VERSION`, `synthesis.SYNTHESIZER_PROMPT_VERSION`). Only answers that validate are stored, as
the judge stores only the pairs it judged; a stored answer is used again without a request.

Offline (no GROQ_API_KEY, or RECON_GROQ=offline: `GroqJudgeResource.offline_reason`) nothing is read or written here
and the plan and brief are the offline ones, exactly. Online:

- **not sent** (the day's or the run's budget spent, Groq's daily limit, a refused key, an unreachable server): the
  offline plan and the extractive brief, each noting why the model was not asked; the run goes on.
- **failed** (an error after the retries, a body that is no chat completion, Groq's JSON mode rejecting the
  generation): the planner falls back to the question itself and the synthesizer to the extractive brief, as an
  unparseable answer does (`planner.plan_from_answer`, `synthesis.brief_from_answer`), the reason kept.
- **answered**: `plan_from_answer` / `brief_from_answer` read it, with their checks.

`ModelAnswer` carries the requests and tokens of each, for the plan and brief rows and the assets' metadata.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, timezone

from recon_assets.briefs.critic import Debates, Evidence, QuestionJudgement
from recon_assets.briefs.planner import (
    LLM,
    PLANNER_COMPLETION_TOKENS,
    PLANNER_PROMPT_VERSION,
    PLANNER_TEMPERATURE,
    Plan,
    fallback_plan,
    offline_plan,
    plan_from_answer,
    planner_messages,
)
from recon_assets.briefs.synthesis import (
    SYNTHESIZER_COMPLETION_TOKENS,
    SYNTHESIZER_PROMPT_VERSION,
    SYNTHESIZER_TEMPERATURE,
    Brief,
    brief_from_answer,
    extractive_brief,
    synthesizer_messages,
)
from recon_assets.judgement import llm_cache
from recon_assets.judgement.groq_client import FAILED, JUDGED, NOT_SENT, RunBudget
from recon_assets.verdicts.critic import VerdictRules

# llm_answers.purpose of each.
PLANNER, SYNTHESIZER = "brief_planner", "brief_synthesizer"
# ModelAnswer.status besides groq_client's NOT_SENT and FAILED: asked and answered, or read from llm_answers.
ANSWERED, CACHED = "answered", "cached"


@dataclass(frozen=True)
class ModelAnswer:
    """One planner or synthesizer request: `status` answered, cached (read from llm_answers: no request), not_sent or
    failed; `content` the model's text (answered or cached; unread here); `reason` why it was not sent or failed (or
    that the answer was cut); `model` the Groq model that answered (None without an answer); `requests` the HTTP
    requests made (retries count; 0 when cached or not sent); `prompt_tokens` and `completion_tokens` Groq's usage of
    the answering request (0 without one)."""

    status: str
    content: str | None = None
    reason: str | None = None
    model: str | None = None
    requests: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def tokens(self) -> int:
        """Prompt plus completion tokens."""
        return self.prompt_tokens + self.completion_tokens


def ask_model(
    con,
    groq_judge,
    purpose: str,
    prompt_version: str,
    messages: Sequence[dict[str, str]],
    *,
    temperature: float,
    max_completion_tokens: int,
    accept: Callable[[str | None], bool],
    log,
    now: Callable[[], datetime] | None = None,
    **client_options,
) -> ModelAnswer:
    """Ask the online `groq_judge` (a GroqJudgeResource whose `offline_reason()` is None) once for `messages`, reusing
    a stored answer of the same purpose, messages, model and prompt version that `accept` takes; a new answer that
    `accept` takes is stored in llm_answers. Never raises for a failure of Groq (module docstring).

    Args:
        con: a DuckDB connection or the store's `Tables` (llm_judgements and llm_answers are created when missing).
        log: a logger (its info and warning methods are used); `now`: a callable giving the UTC time (default now).
        client_options: passed to the client (http_client, clock, sleep).

    Raises:
        storage.StaleSchemaError: a stored llm_answers of other columns.
    """
    now = now or (lambda: datetime.now(timezone.utc))
    llm_cache.ensure_table(con)
    digest = llm_cache.messages_sha256(messages)
    stored = llm_cache.cached_answer(con, purpose, digest, groq_judge.models(), prompt_version)
    if stored is not None and accept(stored["content"]):
        log.info(f"{purpose}: the answer of {stored['model']} stored in llm_answers is used, no request")
        return ModelAnswer(CACHED, stored["content"], model=stored["model"])
    settings = groq_judge.settings
    spent_requests, spent_tokens = llm_cache.usage_on_day(con, settings.model, now().date())
    left = (settings.daily_requests - spent_requests, settings.daily_tokens - spent_tokens)
    if min(left) <= 0:
        reason = (f"daily LLM budget spent: {spent_requests} of {settings.daily_requests} requests and {spent_tokens:,} of "
                  f"{settings.daily_tokens:,} tokens used today (UTC)")
        log.warning(f"{purpose}: {reason}")
        return ModelAnswer(NOT_SENT, reason=reason)
    budget = RunBudget(min(settings.max_requests_per_run, left[0]), min(settings.max_tokens_per_run, left[1]))
    client = groq_judge.client(budget=budget, log=log.warning, **client_options)
    try:
        outcome = client.ask(messages, max_completion_tokens=max_completion_tokens, temperature=temperature)
    finally:
        client.close()
    requests = client.totals.http_requests
    if outcome.status != JUDGED:
        log.warning(f"{purpose}: {outcome.status} after {requests} request(s): {outcome.reason}")
        return ModelAnswer(outcome.status, reason=outcome.reason, requests=requests)
    record = outcome.request
    answer = ModelAnswer(ANSWERED, outcome.content, outcome.reason, record.model, requests, record.prompt_tokens or 0,
                         record.completion_tokens or 0)
    if outcome.content is not None and accept(outcome.content):
        llm_cache.store_answer(con, {
            "purpose": purpose, "input_sha256": digest, "model": record.model, "prompt_version": prompt_version,
            "content": outcome.content, "request_id": record.request_id, "prompt_tokens": record.prompt_tokens,
            "completion_tokens": record.completion_tokens, "latency_ms": record.latency_ms, "answered_at": now(),
        })
    log.info(f"{purpose}: answered by {record.model}: {requests} request(s), {answer.tokens:,} tokens")
    return answer


def plan_question(con, groq_judge, question: str, terms: Sequence[str | None], session_questions: Sequence[str], as_of: date,
                  log, *, addressed: bool = False, **client_options) -> tuple[Plan, ModelAnswer | None]:
    """The plan of `question` (already without wording addressing a model: `planner.question_text`) and the planner's
    request (None when none was made): offline, or when `addressed` (the whole question addressed a model, so no
    model reads it), the offline plan (`planner.offline_plan`); online, the LLM planner at PLANNER_TEMPERATURE in JSON
    mode (`planner_messages`, `plan_from_answer` with the scope's `terms`), falling back as the module docstring says.

    Raises:
        storage.StaleSchemaError: see `ask_model`.
    """
    offline = offline_plan(question, terms, as_of)
    if groq_judge.offline_reason() or addressed:
        return offline, None
    answer = ask_model(
        con, groq_judge, PLANNER, PLANNER_PROMPT_VERSION, planner_messages(question, terms, session_questions),
        temperature=PLANNER_TEMPERATURE, max_completion_tokens=PLANNER_COMPLETION_TOKENS,
        accept=lambda raw: plan_from_answer(raw, question, terms).source == LLM, log=log, **client_options,
    )
    if answer.status == NOT_SENT:
        return replace(offline, note=f"the LLM planner was not asked: {answer.reason}"), answer
    if answer.status == FAILED:
        return fallback_plan(question, f"the LLM planner's request failed: {answer.reason}"), answer
    return plan_from_answer(answer.content, question, terms), answer


def write_brief(con, groq_judge, question: str, evidence: Sequence[Evidence], judgement: QuestionJudgement, debates: Debates,
                rules: VerdictRules, log, **client_options) -> tuple[Brief, ModelAnswer | None]:
    """The brief of `question` over its last round's `evidence` and the synthesizer's request (None when none was
    made): offline the extractive brief (`synthesis.extractive_brief`); online the LLM synthesizer at
    SYNTHESIZER_TEMPERATURE in JSON mode (`synthesizer_messages`, `brief_from_answer` with its checks), the extractive
    brief saying why when the model was not asked or its request failed.

    Raises:
        storage.StaleSchemaError: see `ask_model`.
    """
    if groq_judge.offline_reason():
        return extractive_brief(question, evidence, judgement, debates, rules), None
    answer = ask_model(
        con, groq_judge, SYNTHESIZER, SYNTHESIZER_PROMPT_VERSION, synthesizer_messages(question, evidence, judgement, debates, rules),
        temperature=SYNTHESIZER_TEMPERATURE, max_completion_tokens=SYNTHESIZER_COMPLETION_TOKENS,
        accept=lambda raw: not brief_from_answer(raw, question, evidence, judgement, debates, rules).extractive, log=log, **client_options,
    )
    if answer.status == NOT_SENT:
        return extractive_brief(question, evidence, judgement, debates, rules, f"The model was not asked: {answer.reason}."), answer
    if answer.status == FAILED:
        return extractive_brief(question, evidence, judgement, debates, rules, f"The model's request failed: {answer.reason}."), answer
    return brief_from_answer(answer.content, question, evidence, judgement, debates, rules), answer
