"""The research briefs' planner and synthesizer online (issue 21): one Groq request each, through the coherence judge's
resource (`judgement.resources.GroqJudgeResource`): its model settings, its client (`GroqJudgeClient.ask`: the judge's
retries, pacing, run budget, fallback model and stops, JSON mode, every text the server sends redacted), the daily
budget it shares with the judge and the answer cache llm_answers (`judgement.cached_ask`: keyed by purpose, the
SHA-256 of the messages sent, model and prompt version; the temperature is a constant of each purpose, so it is part of the prompt version:
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
from dataclasses import replace
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
from recon_assets.judgement.cached_ask import ANSWERED, CACHED, ModelAnswer, ask_cached, daily_budget
from recon_assets.judgement.groq_client import FAILED, NOT_SENT
from recon_assets.verdicts.critic import VerdictRules

# llm_answers.purpose of each.
PLANNER, SYNTHESIZER = "brief_planner", "brief_synthesizer"
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
    """Ask the online `groq_judge` (a GroqJudgeResource whose `offline_reason()` is None) once for `messages`
    (`cached_ask.ask_cached`: a stored answer of the same purpose, messages, model and prompt version that `accept`
    takes is used without a request; a new answer `accept` takes is stored in llm_answers), within the day's budget
    left (`cached_ask.daily_budget`). Never raises for a failure of Groq (module docstring).

    Args:
        con: a DuckDB connection or the store's `Tables` (llm_judgements and llm_answers are created when missing).
        log: a logger (its info and warning methods are used); `now`: a callable giving the UTC time (default now).
        client_options: passed to the client (http_client, clock, sleep).

    Raises:
        storage.StaleSchemaError: a stored llm_answers of other columns.
    """
    now = now or (lambda: datetime.now(timezone.utc))
    llm_cache.ensure_table(con)
    day = daily_budget(con, groq_judge.settings, now().date())
    client = groq_judge.client(budget=day.run, log=log.warning, **client_options) if day.run is not None else None
    try:
        answer = ask_cached(
            con, client, purpose=purpose, prompt_version=prompt_version, messages=messages, models=groq_judge.models(),
            max_completion_tokens=max_completion_tokens, temperature=temperature, now=now, why_not=day.spent,
            usable=lambda raw: None if accept(raw) else "not accepted",
        )
    finally:
        if client is not None:
            client.close()
    if answer.status == CACHED:
        log.info(f"{purpose}: the answer of {answer.model} stored in llm_answers is used, no request")
    elif answer.status == ANSWERED:
        log.info(f"{purpose}: answered by {answer.model}: {answer.requests} request(s), {answer.tokens:,} tokens")
    else:
        log.warning(f"{purpose}: {answer.status} after {answer.requests} request(s): {answer.reason}")
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
