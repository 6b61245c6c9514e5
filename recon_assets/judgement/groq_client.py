"""Groq chat completions for the LLM coherence judge, through the official `groq` SDK (httpx underneath).

`GroqJudgeClient.judge` sends one request for a batch of pairs (prompt and answer checks in
`recon_assets.judgement.llm_prompt`) and returns one `PairOutcome` per pair; no failure escapes it:

- HTTP 400 `json_validate_failed` (Groq's JSON mode rejected the generation): its `failed_generation` is read
  like an answer (a code fence stripped, the complete entries of a cut-off list kept); the pairs it does not
  answer are asked once more, alone, at temperature 0; what still fails becomes a failed pair with the reason.
- empty or None content, or an entry that does not validate: that pair fails with the reason.
- `model_decommissioned` / `model_not_found`: never retried; the fallback model takes over for the rest of the
  run when one is configured, else LLM judging stops for the run with Groq's message.
- a connection that cannot be made (refused, DNS failure, TLS error, no answer within `connect_timeout_seconds`, a
  URL scheme no client speaks: `_UNREACHABLE`): not retried, it will not heal within a run (a wrong GROQ_BASE_URL
  waited 6 minutes through the retries); LLM judging stops for the run at once, `unreachable` says why in one line,
  and every pair not yet judged is reported as not sent, so it keeps the offline judge's verdict.
- 429 and 5xx, timeouts and other connection errors (a connection dropped mid-answer): retried with tenacity (the SDK's own retries are off so that
  one policy owns every wait), at most `retries` more times and never past `request_deadline_seconds`; a
  `retry-after` header (else the "try again in 7.66s" of Groq's message, else `x-ratelimit-reset-tokens`) is
  waited for up to `max_retry_after_seconds`. A 429 on a daily limit ("per day (TPD)" / "(RPD)" in Groq's
  message, or a wait longer than `max_retry_after_seconds`) stops LLM judging for the run: nothing more is
  sent and every pair not yet judged is reported as not sent, with the reason.
- 401/403: the key is refused; LLM judging stops for the run (the key is never in a message).

Every text a server sends (an error's message, a connection error's, an answer, a failed generation) is
`credentials.redact`ed as it is read (`_message`, `_describe`): a server or proxy echoing the key ("... for api key
<key>") never gets it into a reason, a note, a log line or a table; an error leaving `_post` carries it in no cause
(`credentials.redacted_causes`: a body that is no chat completion is quoted by pydantic's ValidationError).

Pacing (`Pacer`): before each request, the configured requests and tokens per minute over the last 60 s,
and Groq's `x-ratelimit-*` headers of the last response (`remaining-requests` is per day, `remaining-tokens`
per minute: https://console.groq.com/docs/rate-limits), decide how long to wait; a day's requests spent
stops the run's judging. Budgets (`RunBudget`): a request is sent only when the run's request and token
budgets still hold it, its tokens estimated as `estimate_tokens` says; after the answer the real usage counts.
"""

from __future__ import annotations

import math
import re
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import SimpleNamespace

import dagster as dg
import groq
import httpx
from pydantic import BaseModel, Field, ValidationError
from tenacity import RetryCallState, Retrying, retry_if_exception, stop_after_attempt, stop_any, wait_exponential

from recon_assets.enrichment.retries import header_number, header_seconds
from recon_assets.judgement.llm_prompt import PROMPT_VERSION, PairAnswer, PairTexts, build_messages, read_answer
from recon_assets.shared.credentials import redact, redacted_causes, remember_secret
from recon_assets.shared.deadlines import DeadlineExceeded, call_with_deadline

DEFAULT_MODEL = "llama-3.3-70b-versatile"
DEFAULT_FALLBACK_MODEL = "llama-3.1-8b-instant"
JUDGED, FAILED, NOT_SENT = "judged", "failed", "not_sent"
# Tokens a chat message costs beyond its text (Llama 3's header tokens), rounded up.
MESSAGE_OVERHEAD_TOKENS = 8
# Prompt tokens per UTF-8 byte assumed before any answer says better: 2 bytes a token is pessimistic for
# English (Llama 3's 128K-token vocabulary reads about 4 characters a token), so budgets are not overrun.
INITIAL_TOKENS_PER_BYTE = 0.5
# Once answers arrive, the estimate is this margin over the highest ratio Groq's usage showed in the run
# (so budgets hold unless a later prompt packs 20 % more tokens per byte than any before it).
TOKENS_PER_BYTE_MARGIN = 1.2
_MODEL_GONE = {"model_decommissioned", "model_not_found"}
# The httpx errors (the SDK's APIConnectionError's cause) of a connection that was never made: refused, DNS failure
# and TLS errors are ConnectError; a proxy refusing; a URL scheme httpx does not speak. Retrying them does not help.
_UNREACHABLE = (httpx.ConnectError, httpx.ConnectTimeout, httpx.ProxyError, httpx.UnsupportedProtocol)
_TRY_AGAIN = re.compile(r"try again in ((?:\d+(?:\.\d+)?(?:ms|h|m|s))+)", re.IGNORECASE)
_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)(ms|h|m|s)")


class GroqJudgeSettings(dg.Config):
    """How the Groq judge asks (defaults: the issue's free-tier figures for llama-3.3-70b-versatile: 30 requests
    and 12,000 tokens per minute, 1,000 requests and 100,000 tokens per day; https://console.groq.com/docs/rate-limits).

    Subclasses `dagster.Config` so that `GroqJudgeResource` can nest it; no Dagster behaviour is used.

    Raises:
        pydantic.ValidationError: a field outside its bounds.
    """

    model: str = Field(default=DEFAULT_MODEL, min_length=1, description="Groq model id.")
    fallback_model: str | None = Field(
        default=DEFAULT_FALLBACK_MODEL, description="Model used for the rest of the run when `model` is decommissioned; None: none."
    )
    temperature: float = Field(allow_inf_nan=False, default=0.1, ge=0.0, le=2.0, description="Sampling temperature (0 on the json_validate_failed retry).")
    pairs_per_request: int = Field(default=8, ge=1, le=32, description="Pairs judged in one request.")
    completion_tokens_per_pair: int = Field(
        default=250, ge=50, description="max_completion_tokens = 100 + this x pairs in the request (one entry is about 120 tokens)."
    )
    request_deadline_seconds: float = Field(allow_inf_nan=False, default=120.0, gt=0, description="Total time one request may take, retries and waits included.")
    attempt_timeout_seconds: float = Field(allow_inf_nan=False, default=60.0, gt=0, description="Timeout of one HTTP attempt.")
    connect_timeout_seconds: float = Field(
        allow_inf_nan=False, default=10.0, gt=0,
        description="Time to make a connection (TCP and TLS); a server that does not answer within it is unreachable: LLM judging stops for the run.",
    )
    retries: int = Field(default=3, ge=0, le=10, description="Further attempts after a 429, a 5xx, a timeout or a connection error.")
    backoff_seconds: float = Field(allow_inf_nan=False, default=1.0, ge=0, description="First wait when the server gives none, doubled each retry.")
    max_retry_after_seconds: float = Field(
        allow_inf_nan=False, default=60.0, ge=0, description="Longest wait worth making; a 429 asking for longer means a daily limit is spent."
    )
    requests_per_minute: int = Field(default=30, ge=1, description="Requests per minute to stay under.")
    tokens_per_minute: int = Field(default=12_000, ge=100, description="Tokens (prompt + completion) per minute to stay under.")
    max_requests_per_run: int = Field(default=200, ge=0, description="HTTP requests one run may make (retries count).")
    max_tokens_per_run: int = Field(default=60_000, ge=0, description="Tokens one run may spend.")
    daily_requests: int = Field(default=1_000, ge=0, description="Requests a day (UTC) across runs, counted from llm_judgements.")
    daily_tokens: int = Field(default=100_000, ge=0, description="Tokens a day (UTC) across runs, counted from llm_judgements.")
    max_failed_requests_in_row: int = Field(
        default=3, ge=1, description="Requests failing one after another (after their retries) that stop LLM judging for the run: a dead server costs minutes, not hours.",
    )


class DailyLimitReached(Exception):
    """Groq's, or the configured, daily requests or tokens are spent: no more LLM judging in this run."""


class ServerUnreachable(Exception):
    """No connection to the server could be made (`_UNREACHABLE`): no more LLM judging in this run."""


class BudgetReached(Exception):
    """The run's request or token budget cannot hold the next request."""


class MalformedAnswer(Exception):
    """Groq answered 200 with a body that is not a chat completion (a proxy's HTML page, a wrong shape): the pairs
    of the request fail; it is not retried."""


class _Usage(BaseModel):
    prompt_tokens: int = Field(ge=0)
    completion_tokens: int = Field(ge=0)


class _Message(BaseModel):
    content: str | None = None


class _Choice(BaseModel):
    message: _Message
    finish_reason: str | None = None


class _Completion(BaseModel):
    """The fields of Groq's chat completion the judge reads (API reference, "Chat completion object")."""

    id: str | None = None
    model: str | None = None
    choices: list[_Choice]
    usage: _Usage | None = None


class DeadlinePassed(Exception):
    """The request's total deadline passed before an answer."""


@dataclass(frozen=True)
class RequestRecord:
    """One answered request: Groq's completion id, the model that answered, its usage and the pairs it held."""

    request_id: str | None
    model: str
    prompt_tokens: int | None
    completion_tokens: int | None
    latency_ms: float
    pairs: int


@dataclass(frozen=True)
class PairOutcome:
    """What became of one pair: `status` judged (with `answer`), failed (asked, no valid answer) or not_sent;
    `reason` says why for the last two (and notes a salvaged answer); `request` the request that answered."""

    status: str
    answer: PairAnswer | None = None
    reason: str | None = None
    request: RequestRecord | None = None


@dataclass(frozen=True)
class MessageOutcome:
    """What became of one `GroqJudgeClient.ask` request: `status` judged (`content`: the model's text, unread; `request`
    the answering request), failed (asked, no answer) or not_sent; `reason` says why for the last two."""

    status: str
    content: str | None = None
    reason: str | None = None
    request: RequestRecord | None = None


@dataclass
class RunBudget:
    """Requests and tokens one run may still spend (`max_requests`, `max_tokens`) and what it has spent."""

    max_requests: int
    max_tokens: int
    requests: int = 0
    tokens: int = 0

    def holds(self, tokens: int) -> bool:
        """Whether one more request of `tokens` tokens stays within both budgets."""
        return self.requests + 1 <= self.max_requests and self.tokens + tokens <= self.max_tokens

    def spend(self, requests: int, tokens: int) -> None:
        self.requests += requests
        self.tokens += tokens


def duration_seconds(text: str | None) -> float | None:
    """Seconds of a Go duration as Groq writes it in headers and messages ('7.66s', '2m59.56s', '9m38.016s',
    '1h2m', '250ms'), or None when `text` is not one."""
    if not text:
        return None
    text = text.strip()
    parts = _DURATION_PART.findall(text)
    if not parts or "".join(number + unit for number, unit in parts) != text:
        return None
    scale = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 0.001}
    return sum(float(number) * scale[unit] for number, unit in parts)


def error_body(error: BaseException) -> dict:
    """The `error` object of a Groq error response ({"message", "type", "code", "failed_generation"}), or {}."""
    body = getattr(error, "body", None)
    inner = body.get("error") if isinstance(body, dict) else None
    return inner if isinstance(inner, dict) else {}


def retry_hint_seconds(error: BaseException) -> float | None:
    """How long Groq asks to wait after `error`: the `retry-after` header, else the "try again in <duration>" of
    its message, else `x-ratelimit-reset-tokens`; None when it says nothing."""
    response = getattr(error, "response", None)
    seconds = header_seconds(response, "retry-after")
    if seconds is not None:
        return seconds
    match = _TRY_AGAIN.search(str(error_body(error).get("message") or ""))
    if match:
        return duration_seconds(match.group(1))
    headers = getattr(response, "headers", None)
    return duration_seconds(headers.get("x-ratelimit-reset-tokens")) if headers is not None else None


def is_daily_limit(error: BaseException, max_wait: float) -> bool:
    """Whether `error` is a 429 on a daily limit: Groq's message names "per day" (TPD / RPD), or the wait it
    asks for is longer than `max_wait` seconds (not worth waiting within a run)."""
    if not isinstance(error, groq.RateLimitError):
        return False
    if "per day" in str(error_body(error).get("message") or "").lower():
        return True
    hint = retry_hint_seconds(error)
    return hint is not None and hint > max_wait


def estimate_tokens(messages: Sequence[dict[str, str]], max_completion_tokens: int, tokens_per_byte: float) -> int:
    """Upper estimate of a request's tokens: prompt bytes (UTF-8) x `tokens_per_byte`, MESSAGE_OVERHEAD_TOKENS per
    message, plus the `max_completion_tokens` it allows."""
    size = sum(len(message["content"].encode()) for message in messages)
    return math.ceil(size * tokens_per_byte) + MESSAGE_OVERHEAD_TOKENS * len(messages) + max_completion_tokens


class Pacer:
    """Waits so that requests stay under `requests_per_minute` and `tokens_per_minute` over any 60 s, and under
    what Groq's last `x-ratelimit-*` headers say is left. `clock` gives seconds (monotonic); `sleep` waits."""

    def __init__(self, requests_per_minute: int, tokens_per_minute: int, max_wait: float,
                 clock: Callable[[], float], sleep: Callable[[float], None]) -> None:
        self.requests_per_minute, self.tokens_per_minute, self.max_wait = requests_per_minute, tokens_per_minute, max_wait
        self.clock, self.sleep = clock, sleep
        self.sent: deque[tuple[float, int]] = deque()
        self.remaining_requests: float | None = None
        self.requests_reset_at: float | None = None
        self.remaining_tokens: float | None = None
        self.tokens_reset_at: float | None = None
        self.waited_seconds = 0.0

    def observe(self, headers: httpx.Headers | None) -> None:
        """Record the `x-ratelimit-*` headers of a response (absent ones leave what was known)."""
        if headers is None:
            return
        now = self.clock()
        holder = SimpleNamespace(headers=headers)  # header_number reads a response's .headers
        if (remaining := header_number(holder, "x-ratelimit-remaining-requests")) is not None:
            self.remaining_requests = remaining
            reset = duration_seconds(headers.get("x-ratelimit-reset-requests"))
            self.requests_reset_at = now + reset if reset is not None else None
        if (remaining := header_number(holder, "x-ratelimit-remaining-tokens")) is not None:
            self.remaining_tokens = remaining
            reset = duration_seconds(headers.get("x-ratelimit-reset-tokens"))
            self.tokens_reset_at = now + reset if reset is not None else None

    def wait_for(self, tokens: int) -> None:
        """Sleep until a request of `tokens` tokens may go.

        Raises:
            DailyLimitReached: Groq says no request is left and it resets later than `max_wait` seconds from now.
        """
        now = self.clock()
        while self.sent and self.sent[0][0] <= now - 60.0:
            self.sent.popleft()
        waits = [0.0]
        if self.remaining_requests is not None and self.remaining_requests < 1:
            reset = (self.requests_reset_at or math.inf) - now
            if reset > self.max_wait:
                raise DailyLimitReached(
                    "Groq's x-ratelimit-remaining-requests is 0 (requests per day)"
                    + (f"; it resets in {reset:.0f} s" if math.isfinite(reset) else "")
                )
            waits.append(reset)
        if self.remaining_tokens is not None and self.remaining_tokens < tokens and self.tokens_reset_at is not None:
            waits.append(min(self.tokens_reset_at - now, 60.0))
        if len(self.sent) >= self.requests_per_minute:
            waits.append(self.sent[-self.requests_per_minute][0] + 60.0 - now)
        used = sum(spent for _, spent in self.sent)
        for sent_at, spent in self.sent:
            if used + tokens <= self.tokens_per_minute:
                break
            used -= spent
            waits.append(sent_at + 60.0 - now)
        wait = max(waits)
        if wait > 0:
            self.sleep(wait)
            self.waited_seconds += wait
            # What was left has been replenished by the time the wait ends.
            if self.requests_reset_at is not None and self.clock() >= self.requests_reset_at:
                self.remaining_requests = None
            if self.tokens_reset_at is not None and self.clock() >= self.tokens_reset_at:
                self.remaining_tokens = None

    def record(self, tokens: int) -> None:
        """Count a request of `tokens` tokens sent now."""
        self.sent.append((self.clock(), tokens))


@dataclass
class _Answer:
    content: str | None
    finish_reason: str | None
    record: RequestRecord


@dataclass
class ClientTotals:
    """Figures of one client's run (for the asset's metadata)."""

    http_requests: int = 0
    answered_requests: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    retries: int = 0
    json_validate_failed: int = 0
    salvaged_generations: int = 0
    temperature_zero_retries: int = 0
    latency_ms: float = 0.0
    unreachable_pairs: int = 0  # pairs not sent because no connection to the server could be made
    notes: list[str] = field(default_factory=list)


class GroqJudgeClient:
    """Judge batches of pairs with Groq (module docstring).

    Args:
        settings: `GroqJudgeSettings`.
        api_key: the Groq API key (never logged, never in a message).
        base_url: API root; None lets the SDK read GROQ_BASE_URL, else https://api.groq.com.
        budget: the run's `RunBudget` (default: the settings' per-run figures).
        http_client: an httpx.Client for the SDK (tests and the benchmark pass their own; respx patches any).
        clock, sleep: monotonic seconds and a waiting function (tests pass a fake clock).
        log: called with one line per notable event (fallback, daily limit, salvage).
    """

    def __init__(
        self,
        settings: GroqJudgeSettings,
        *,
        api_key: str,
        base_url: str | None = None,
        budget: RunBudget | None = None,
        http_client: httpx.Client | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        log: Callable[[str], None] | None = None,
    ) -> None:
        self.settings = settings
        self.model = settings.model
        self.budget = budget or RunBudget(settings.max_requests_per_run, settings.max_tokens_per_run)
        self.clock, self.sleep = clock, sleep
        self.log = log or (lambda line: None)
        self.pacer = Pacer(settings.requests_per_minute, settings.tokens_per_minute, settings.max_retry_after_seconds, clock, sleep)
        self.totals = ClientTotals()
        self.stopped: str | None = None
        self.unreachable: str | None = None  # why no connection could be made, when that stopped LLM judging
        self._failures_in_row = 0
        self.tokens_per_byte = INITIAL_TOKENS_PER_BYTE
        self._highest_ratio = 0.0
        remember_secret(api_key)  # redacted from every text, whichever variable it came from
        self._client = groq.Groq(
            api_key=api_key, base_url=base_url, max_retries=0, timeout=settings.attempt_timeout_seconds, http_client=http_client
        )

    @property
    def judge_id(self) -> str:
        """`groq/<model>` of the model now answering (the fallback after a decommissioned model)."""
        return f"groq/{self.model}"

    def close(self) -> None:
        self._client.close()

    def judge(self, pairs: Sequence[PairTexts]) -> list[PairOutcome]:
        """One outcome per pair of `pairs` (at most `pairs_per_request`), in order; never raises for a failure
        of Groq or of the answer (module docstring).

        Raises:
            ValueError: more pairs than `pairs_per_request`, or none.
        """
        if not pairs or len(pairs) > self.settings.pairs_per_request:
            raise ValueError(f"judge takes 1 to {self.settings.pairs_per_request} pairs, got {len(pairs)}")
        if self.stopped:
            outcomes = [PairOutcome(NOT_SENT, reason=self.stopped) for _ in pairs]
        else:
            fitting, reason = self._fitting(pairs)
            outcomes = self._judge_once(pairs[:fitting], self.settings.temperature, retry_json=True) if fitting else []
            outcomes += [PairOutcome(NOT_SENT, reason=self.stopped or reason) for _ in pairs[fitting:]]
        if self.unreachable:
            self.totals.unreachable_pairs += sum(outcome.status == NOT_SENT for outcome in outcomes)
        return outcomes

    def _completion_tokens(self, pairs: int) -> int:
        return 100 + self.settings.completion_tokens_per_pair * pairs

    def _estimate(self, pairs: Sequence[PairTexts]) -> int:
        return estimate_tokens(build_messages(pairs), self._completion_tokens(len(pairs)), self.tokens_per_byte)

    def _fitting(self, pairs: Sequence[PairTexts]) -> tuple[int, str]:
        """How many of `pairs`, from the start, one request can hold within the run budget and tokens per minute,
        and why the others wait. 0 sets `stopped` when the run budget cannot hold even one pair."""
        for count in range(len(pairs), 0, -1):
            estimate = self._estimate(pairs[:count])
            if estimate <= self.settings.tokens_per_minute and self.budget.holds(estimate):
                return count, "the run budget cannot hold this pair in the same request"
        estimate = self._estimate(pairs[:1])
        if estimate > self.settings.tokens_per_minute:
            # This pair alone is too long for a minute's tokens: it is reported, the run goes on.
            return 0, f"one request for this pair needs about {estimate:,} tokens, more than tokens_per_minute ({self.settings.tokens_per_minute:,})"
        self.stopped = (
            f"run budget spent: {self.budget.requests} of {self.budget.max_requests} requests and {self.budget.tokens:,} "
            f"of {self.budget.max_tokens:,} tokens used, the next request needs about {estimate:,}"
        )
        self._note(self.stopped)
        return 0, self.stopped

    def _judge_once(self, pairs: Sequence[PairTexts], temperature: float, *, retry_json: bool) -> list[PairOutcome]:
        try:
            answer = self._ask(pairs, temperature)
        except groq.APIStatusError as error:
            code = error_body(error).get("code")
            if code in _MODEL_GONE:  # model_decommissioned is a 400, model_not_found a 404
                return self._model_gone(pairs, error, temperature, retry_json)
            if code == "json_validate_failed":
                return self._salvage(pairs, error_body(error), temperature, retry_json)
            if error.status_code in (401, 403):
                self.stopped = f"Groq refused the API key (HTTP {error.status_code}): check GROQ_API_KEY"
                self._note(self.stopped)
                return [PairOutcome(NOT_SENT, reason=self.stopped) for _ in pairs]
            if is_daily_limit(error, self.settings.max_retry_after_seconds):
                return self._stop_daily(pairs, f"Groq daily limit reached: {_message(error)}")
            return self._failed_request(pairs, _describe(error))
        except DailyLimitReached as error:
            return self._stop_daily(pairs, str(error))
        except BudgetReached as error:
            self.stopped = str(error)
            return [PairOutcome(NOT_SENT, reason=self.stopped) for _ in pairs]
        except ServerUnreachable as error:
            self.unreachable = str(error)
            self.stopped = f"Groq unreachable: {self.unreachable}; LLM judging stops for this run"
            self._note(self.stopped)
            return [PairOutcome(NOT_SENT, reason=self.stopped) for _ in pairs]
        except (DeadlinePassed, groq.APIConnectionError, MalformedAnswer) as error:
            return self._failed_request(pairs, _describe(error))
        self._failures_in_row = 0
        cut = " (answer cut at max_completion_tokens)" if answer.finish_reason == "length" else ""
        results = read_answer(answer.content, pairs)
        return [
            PairOutcome(JUDGED, result.answer, request=answer.record) if result.answer
            else PairOutcome(FAILED, reason=f"{result.failure}{cut}", request=answer.record)
            for result in (results[index] for index in range(len(pairs)))
        ]

    def _failed_request(self, pairs: Sequence[PairTexts], reason: str) -> list[PairOutcome]:
        """The pairs of a request that failed after its retries; `max_failed_requests_in_row` such requests one after
        another stop LLM judging for the run (a server that is down answers no better on the next request)."""
        self._failures_in_row += 1
        if self._failures_in_row >= self.settings.max_failed_requests_in_row:
            self.stopped = f"{self._failures_in_row} Groq requests failed in a row (last: {reason}): LLM judging stops for this run"
            self._note(self.stopped)
        return [PairOutcome(FAILED, reason=reason) for _ in pairs]

    def _salvage(self, pairs: Sequence[PairTexts], body: dict, temperature: float, retry_json: bool) -> list[PairOutcome]:
        """json_validate_failed: read `failed_generation`; ask the pairs it does not answer once more at temperature 0."""
        self.totals.json_validate_failed += 1
        generation = body.get("failed_generation")
        results = read_answer(redact(generation) if isinstance(generation, str) else None, pairs)
        salvaged = {index for index, result in results.items() if result.answer}
        if salvaged:
            self.totals.salvaged_generations += 1
            self._note(f"json_validate_failed: {len(salvaged)} of {len(pairs)} pairs read from failed_generation")
        outcomes = [
            PairOutcome(JUDGED, results[index].answer, reason="salvaged from failed_generation") if index in salvaged
            else PairOutcome(FAILED, reason=f"json_validate_failed, failed_generation unusable: {results[index].failure}")
            for index in range(len(pairs))
        ]
        unresolved = [index for index in range(len(pairs)) if index not in salvaged]
        if unresolved and retry_json and not self.stopped:
            self.totals.temperature_zero_retries += 1
            retried = self._judge_once([pairs[index] for index in unresolved], 0.0, retry_json=False)
            for index, outcome in zip(unresolved, retried):
                if outcome.status == FAILED:
                    outcome = PairOutcome(FAILED, reason=f"json_validate_failed, then at temperature 0: {outcome.reason}", request=outcome.request)
                outcomes[index] = outcome
        return outcomes

    def _model_gone(self, pairs: Sequence[PairTexts], error: groq.APIStatusError, temperature: float, retry_json: bool) -> list[PairOutcome]:
        message = _message(error)
        fallback = self.settings.fallback_model
        if fallback and fallback != self.model:
            self._note(f"model {self.model} is unavailable ({error_body(error).get('code')}): {message} Falling back to {fallback}.")
            self.model = fallback
            return self._judge_once(pairs, temperature, retry_json=retry_json)
        self.stopped = f"model {self.model} is unavailable and no other model is configured: {message}"
        self._note(self.stopped)
        return [PairOutcome(FAILED, reason=self.stopped) for _ in pairs]

    def _stop_daily(self, pairs: Sequence[PairTexts], reason: str) -> list[PairOutcome]:
        self.stopped = f"{reason}; LLM judging stops for this run"
        self._note(self.stopped)
        return [PairOutcome(NOT_SENT, reason=self.stopped) for _ in pairs]

    def _note(self, line: str) -> None:
        self.totals.notes.append(line)
        self.log(line)

    def ask(self, messages: Sequence[dict[str, str]], *, max_completion_tokens: int, temperature: float | None = None) -> MessageOutcome:
        """One JSON-mode chat completion for `messages` that the caller built (and whose answer it reads and
        validates), under this client's retries, pacing, run budget, fallback model and stops (module docstring);
        never raises for a failure of Groq. `temperature` None: the settings'. A json_validate_failed answer is a
        failed request here (its failed_generation is not read: the caller's schema is not known here)."""
        if self.stopped:
            return MessageOutcome(NOT_SENT, reason=self.stopped)
        estimate = estimate_tokens(messages, max_completion_tokens, self.tokens_per_byte)
        if estimate > self.settings.tokens_per_minute:
            return MessageOutcome(NOT_SENT, reason=f"the request needs about {estimate:,} tokens, more than tokens_per_minute ({self.settings.tokens_per_minute:,})")
        if not self.budget.holds(estimate):
            self.stopped = (f"run budget spent: {self.budget.requests} of {self.budget.max_requests} requests and {self.budget.tokens:,} "
                            f"of {self.budget.max_tokens:,} tokens used, the next request needs about {estimate:,}")
            self._note(self.stopped)
            return MessageOutcome(NOT_SENT, reason=self.stopped)
        try:
            answer = self._ask_messages(messages, max_completion_tokens, self.settings.temperature if temperature is None else temperature, 1)
        except groq.APIStatusError as error:
            code = error_body(error).get("code")
            fallback = self.settings.fallback_model
            if code in _MODEL_GONE and fallback and fallback != self.model:
                self._note(f"model {self.model} is unavailable ({code}): {_message(error)} Falling back to {fallback}.")
                self.model = fallback
                return self.ask(messages, max_completion_tokens=max_completion_tokens, temperature=temperature)
            if code in _MODEL_GONE or error.status_code in (401, 403) or is_daily_limit(error, self.settings.max_retry_after_seconds):
                why = ("model unavailable and no other model configured" if code in _MODEL_GONE
                       else f"Groq refused the API key (HTTP {error.status_code}): check GROQ_API_KEY" if error.status_code in (401, 403)
                       else "Groq daily limit reached")
                self.stopped = f"{why}: {_describe(error)}; LLM use stops for this run"
                self._note(self.stopped)
                return MessageOutcome(NOT_SENT if code not in _MODEL_GONE else FAILED, reason=self.stopped)
            self.totals.json_validate_failed += code == "json_validate_failed"
            return MessageOutcome(FAILED, reason=self._failed_request([None], _describe(error))[0].reason)
        except (DailyLimitReached, BudgetReached, ServerUnreachable) as error:
            self.unreachable = str(error) if isinstance(error, ServerUnreachable) else self.unreachable
            self.stopped = f"{error}; LLM use stops for this run"
            self._note(self.stopped)
            return MessageOutcome(NOT_SENT, reason=self.stopped)
        except (DeadlinePassed, groq.APIConnectionError, MalformedAnswer) as error:
            return MessageOutcome(FAILED, reason=self._failed_request([None], _describe(error))[0].reason)
        self._failures_in_row = 0
        cut = "answer cut at max_completion_tokens" if answer.finish_reason == "length" else None
        return MessageOutcome(JUDGED, answer.content, cut, answer.record)

    def _ask(self, pairs: Sequence[PairTexts], temperature: float) -> _Answer:
        """One chat completion for `pairs` (`_ask_messages`)."""
        return self._ask_messages(build_messages(pairs), self._completion_tokens(len(pairs)), temperature, len(pairs))

    def _ask_messages(self, messages: Sequence[dict[str, str]], max_tokens: int, temperature: float, pairs: int) -> _Answer:
        """One chat completion for `messages` (`pairs`: the items it holds, for the record), retried as the module
        docstring says.

        Raises:
            groq.APIStatusError: a non-transient status, or a transient one after the last attempt.
            groq.APIConnectionError: the last attempt timed out, or its connection broke.
            ServerUnreachable: no connection could be made (never retried).
            DailyLimitReached, BudgetReached, DeadlinePassed: see their docs.
        """
        estimate = estimate_tokens(messages, max_tokens, self.tokens_per_byte)
        prompt_bytes = sum(len(message["content"].encode()) for message in messages)
        self.pacer.wait_for(estimate)
        deadline = self.clock() + self.settings.request_deadline_seconds

        def past_deadline(state: RetryCallState) -> bool:
            return self.clock() + (state.upcoming_sleep or 0.0) >= deadline

        def transient(error: BaseException) -> bool:
            if isinstance(error, groq.RateLimitError):
                return not is_daily_limit(error, self.settings.max_retry_after_seconds)
            return isinstance(error, (groq.InternalServerError, groq.APIConnectionError))

        fallback_wait = wait_exponential(multiplier=self.settings.backoff_seconds, max=self.settings.max_retry_after_seconds)

        def wait(state: RetryCallState) -> float:
            error = state.outcome.exception() if state.outcome else None
            hint = retry_hint_seconds(error) if error is not None else None
            return fallback_wait(state) if hint is None else min(hint, self.settings.max_retry_after_seconds)

        retrying = Retrying(
            stop=stop_any(stop_after_attempt(self.settings.retries + 1), past_deadline),
            wait=wait, retry=retry_if_exception(transient), sleep=self._sleep_counted, reraise=True,
        )
        for attempt in retrying:
            with attempt:
                if attempt.retry_state.attempt_number > 1:
                    self.totals.retries += 1
                    self.pacer.wait_for(estimate)
                remaining = deadline - self.clock()
                if remaining <= 0:
                    raise DeadlinePassed(f"request deadline of {self.settings.request_deadline_seconds:g} s passed")
                if not self.budget.holds(estimate):
                    raise BudgetReached(
                        f"run budget spent: {self.budget.requests} of {self.budget.max_requests} requests and "
                        f"{self.budget.tokens:,} of {self.budget.max_tokens:,} tokens used"
                    )
                return self._post(messages, temperature, max_tokens, estimate, prompt_bytes, pairs, min(remaining, self.settings.attempt_timeout_seconds))
        raise AssertionError("tenacity re-raises the last error")  # pragma: no cover

    def _sleep_counted(self, seconds: float) -> None:
        self.sleep(seconds)
        self.pacer.waited_seconds += seconds

    def _unreachable_reason(self, cause: BaseException) -> str:
        """One line, `redact`ed: the server (scheme, host and port of the base URL, nothing else of it) and what the
        connection met ('[Errno 111] Connection refused', a DNS or TLS error, no answer in time)."""
        url = self._client.base_url
        server = f"{url.scheme}://{url.host}" + (f":{url.port}" if url.port else "")
        if isinstance(cause, httpx.ConnectTimeout):
            return redact(f"no connection to {server} within {self.settings.connect_timeout_seconds:g} s")
        detail = next((line.strip() for line in str(cause).splitlines() if line.strip()), type(cause).__name__)
        return redact(f"cannot connect to {server}: {detail[:200]}")

    @redacted_causes()
    def _post(self, messages, temperature: float, max_tokens: int, estimate: int, prompt_bytes: int, pairs: int, timeout: float) -> _Answer:
        """One HTTP attempt; counts it against the budget and the pacing window, whatever its outcome."""
        started = self.clock()
        self.totals.http_requests += 1
        self.pacer.record(estimate)
        try:
            # the SDK's timeout bounds each read; the deadline bounds the whole answer (a server dripping bytes)
            raw = call_with_deadline(
                lambda: self._client.chat.completions.with_raw_response.create(
                    model=self.model, messages=messages, temperature=temperature, max_completion_tokens=max_tokens,
                    response_format={"type": "json_object"},
                    timeout=httpx.Timeout(timeout, connect=min(self.settings.connect_timeout_seconds, timeout)),
                ),
                seconds=timeout, what="Groq chat completion",
            )
        except DeadlineExceeded as error:
            self.budget.spend(1, estimate)
            raise DeadlinePassed(f"no whole answer within {timeout:.0f} s (a server answering too slowly)") from error
        except groq.APIStatusError as error:
            self.pacer.observe(error.response.headers)
            # A rejected generation (json_validate_failed) was generated, so it is charged as estimated.
            self.budget.spend(1, estimate if error_body(error).get("code") == "json_validate_failed" else 0)
            raise
        except groq.APIConnectionError as error:
            self.budget.spend(1, 0)
            if isinstance(error.__cause__, _UNREACHABLE):
                raise ServerUnreachable(self._unreachable_reason(error.__cause__)) from error
            raise
        self.pacer.observe(raw.headers)
        try:
            completion = _Completion.model_validate(raw.http_response.json())
        except (ValueError, ValidationError) as error:  # not JSON, or not a chat completion's shape
            self.budget.spend(1, estimate)
            kind = raw.http_response.headers.get("content-type", "no content type")
            raise MalformedAnswer(f"Groq answered HTTP {raw.http_response.status_code} ({kind}) with a body that is not a chat completion") from error
        latency_ms = (self.clock() - started) * 1000.0
        usage = completion.usage
        if usage and (usage.prompt_tokens > 10 * estimate or usage.completion_tokens > 10 * max_tokens):
            # an impossible count (10x what was sent or allowed) would spend the day's budget on one answer
            self._note(f"Groq reported {usage.prompt_tokens:,} prompt and {usage.completion_tokens:,} completion tokens for a request "
                       f"estimated at {estimate:,}: the estimate is counted instead")
            usage = None
        prompt_tokens = usage.prompt_tokens if usage else None
        completion_tokens = usage.completion_tokens if usage else None
        spent = (prompt_tokens or 0) + (completion_tokens or 0) if usage else estimate
        self.budget.spend(1, spent)
        if prompt_tokens:
            self._highest_ratio = max(self._highest_ratio, prompt_tokens / max(prompt_bytes, 1))
            self.tokens_per_byte = TOKENS_PER_BYTE_MARGIN * self._highest_ratio
        self.totals.answered_requests += 1
        self.totals.prompt_tokens += prompt_tokens or 0
        self.totals.completion_tokens += completion_tokens or 0
        self.totals.latency_ms += latency_ms
        choice = completion.choices[0] if completion.choices else None
        record = RequestRecord(completion.id, completion.model or self.model, prompt_tokens, completion_tokens, latency_ms, pairs)
        content = redact(choice.message.content) if choice and choice.message.content is not None else None
        return _Answer(content, choice.finish_reason if choice else None, record)


def _message(error: BaseException) -> str:
    """Groq's message of `error` (its body's `error.message`, else the SDK's text), `credentials.redact`ed: a server
    may echo the key in it."""
    return redact(error_body(error).get("message") or getattr(error, "message", None) or error)


def _describe(error: BaseException) -> str:
    """A short reason for a failed request: status, Groq's error code and message (cut to 300 characters), redacted."""
    if isinstance(error, groq.APIStatusError):
        body = error_body(error)
        code = f" {body['code']}" if body.get("code") else ""
        return f"HTTP {error.status_code}{code}: {_message(error)[:300]}"
    if isinstance(error, groq.APITimeoutError):
        return "request timed out"
    if isinstance(error, groq.APIConnectionError):
        return f"connection error: {redact(error)[:200]}"
    return redact(error)[:300]


__all__ = [
    "DEFAULT_FALLBACK_MODEL", "DEFAULT_MODEL", "FAILED", "JUDGED", "NOT_SENT", "PROMPT_VERSION", "GroqJudgeClient",
    "GroqJudgeSettings", "MessageOutcome", "PairOutcome", "RequestRecord", "RunBudget", "duration_seconds", "estimate_tokens",
]
