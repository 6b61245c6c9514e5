"""One prompt asked of Groq the way every online prompt besides the pair judge asks it (the briefs' planner and
synthesizer, a paper's claims and argumentation): a stored answer of the same purpose, messages, model and prompt
version is reused (`llm_cache.cached_answer`, table llm_answers); otherwise the prompt goes through one
`GroqJudgeClient.ask` (its retries, pacing, run budget, fallback model and stops) and a usable answer is stored. The
run's budget is what the day has left (`daily_budget`): requests and tokens counted over llm_judgements and
llm_answers (`llm_cache.usage_on_day`), so the judge and every prompt share one daily budget.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime

from recon_assets.judgement import llm_cache
from recon_assets.judgement.groq_client import JUDGED, NOT_SENT, GroqJudgeClient, GroqJudgeSettings, RunBudget

# ModelAnswer.status besides groq_client's NOT_SENT and FAILED: asked and answered, or read from llm_answers.
ANSWERED, CACHED = "answered", "cached"


@dataclass(frozen=True)
class ModelAnswer:
    """One prompt's outcome: `status` answered, cached (read from llm_answers: no request), not_sent or failed;
    `content` the model's text (answered or cached); `problem` why an answered text is unusable (the caller's
    `usable`; None: usable, and stored); `reason` why it was not sent or failed, or that the answer was cut; `model`
    the Groq model that answered (None without an answer); `requests` the HTTP requests made (retries count; 0 when
    cached or not sent); `prompt_tokens` and `completion_tokens` Groq's usage of the answering request (0 without one)."""

    status: str
    content: str | None = None
    reason: str | None = None
    model: str | None = None
    requests: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    problem: str | None = None

    @property
    def tokens(self) -> int:
        """Prompt plus completion tokens."""
        return self.prompt_tokens + self.completion_tokens


@dataclass(frozen=True)
class DayBudget:
    """What is left today (UTC) of the daily budget: `requests_left` and `tokens_left` (0 or less: spent), the budget a
    run may spend (`run`: the settings' per-run figures capped by what is left; None when spent) and, when spent,
    why (`spent`, one line)."""

    requests_left: int
    tokens_left: int
    run: RunBudget | None
    spent: str | None


def daily_budget(con, settings: GroqJudgeSettings, day: date) -> DayBudget:
    """The daily budget left on `day` (UTC) after every request stored for `settings.model` that day in
    llm_judgements and llm_answers (`llm_cache.usage_on_day`), and the run budget it allows.

    Args:
        con: a DuckDB connection or the store's `Tables` holding both tables (`llm_cache.ensure_table`).
    """
    spent_requests, spent_tokens = llm_cache.usage_on_day(con, settings.model, day)
    left = (settings.daily_requests - spent_requests, settings.daily_tokens - spent_tokens)
    if min(left) <= 0:
        return DayBudget(*left, None, f"daily LLM budget spent: {spent_requests} of {settings.daily_requests} requests and "
                                      f"{spent_tokens:,} of {settings.daily_tokens:,} tokens used today (UTC)")
    return DayBudget(*left, RunBudget(min(settings.max_requests_per_run, left[0]), min(settings.max_tokens_per_run, left[1])), None)


def ask_cached(
    con,
    client: GroqJudgeClient | None,
    *,
    purpose: str,
    prompt_version: str,
    messages: Sequence[dict[str, str]],
    models: Sequence[str],
    max_completion_tokens: int,
    usable: Callable[[str | None], str | None],
    now: Callable[[], datetime],
    temperature: float | None = None,
    why_not: str | None = None,
) -> ModelAnswer:
    """`messages` answered: the first of `models` with a stored llm_answers row for this `purpose` and
    `prompt_version` that `usable` takes, else one `client.ask`, whose answer is stored when `usable` takes it
    (`usable(content)` gives why it is not, None when it is). `client` None: nothing is sent (`why_not` says why) and
    only a stored answer can answer. Never raises for a failure of Groq.

    Args:
        con: a DuckDB connection or the store's `Tables` (`llm_cache.ensure_table` done).
        now: gives the UTC time an answer is stored with; `temperature` None: the settings'.

    Raises:
        storage.StaleSchemaError: a stored llm_answers of other columns.
    """
    digest = llm_cache.messages_sha256(messages)
    stored = llm_cache.cached_answer(con, purpose, digest, models, prompt_version)
    if stored is not None and usable(stored["content"]) is None:
        return ModelAnswer(CACHED, stored["content"], model=stored["model"])
    if client is None:
        return ModelAnswer(NOT_SENT, reason=why_not)
    before = client.totals.http_requests
    outcome = client.ask(messages, max_completion_tokens=max_completion_tokens, temperature=temperature)
    requests = client.totals.http_requests - before
    if outcome.status != JUDGED:
        return ModelAnswer(outcome.status, reason=outcome.reason, requests=requests)
    record = outcome.request
    problem = usable(outcome.content)
    if problem is None:
        llm_cache.store_answer(con, {
            "purpose": purpose, "input_sha256": digest, "model": record.model, "prompt_version": prompt_version,
            "content": outcome.content, "request_id": record.request_id, "prompt_tokens": record.prompt_tokens,
            "completion_tokens": record.completion_tokens, "latency_ms": record.latency_ms, "answered_at": now(),
        })
    return ModelAnswer(ANSWERED, outcome.content, outcome.reason, record.model, requests, record.prompt_tokens or 0,
                       record.completion_tokens or 0, problem)
