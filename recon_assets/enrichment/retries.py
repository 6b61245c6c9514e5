"""The retry policy shared by the OpenAlex (requests) and Crossref (httpx) clients, built on tenacity.

Transient failures (timeouts, connection errors, HTTP 5xx, a rate-limit 429) are retried `retries` more
times; the wait is the response's `Retry-After` when it gives one (RFC 9110 section 10.2.3, delay-seconds
form), at most `max_retry_after` seconds (a 5xx asking for an hour is retried sooner, not waited on), else
exponential backoff `backoff` * 2^n seconds.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from tenacity import RetryCallState, Retrying, retry_if_exception, stop_after_attempt, wait_exponential


def transient_status(status_code: int) -> bool:
    """An HTTP status worth retrying: a rate-limit 429 or a server error (5xx)."""
    return status_code == 429 or status_code >= 500


def header_number(response, name: str) -> float | None:
    """The header `name` of a requests or httpx response as a finite number, or None when absent or not one
    ('nan' and 'inf' parse as floats but give no figure to wait for or compare)."""
    try:
        value = float(response.headers[name])
    except (AttributeError, KeyError, TypeError, ValueError):
        return None
    return value if math.isfinite(value) else None


def header_seconds(response, name: str) -> float | None:
    """The header `name` as a number of seconds (`header_number`, 0 or more), or None: a negative wait or
    reset time is nonsense, as if the server had said nothing."""
    seconds = header_number(response, name)
    return seconds if seconds is not None and seconds >= 0 else None


@dataclass(frozen=True)
class RetryPolicy:
    """How an HTTP client retries (module docstring): `retries` further attempts, exponential `backoff` seconds,
    a `Retry-After` waited for up to `max_retry_after` seconds, waiting with `sleep` (tests pass a recorder).

    Raises:
        ValueError: `retries`, `backoff` or `max_retry_after` < 0.
    """

    retries: int = 3
    backoff: float = 1.0
    max_retry_after: float = 60.0
    sleep: Callable[[float], None] = time.sleep

    def __post_init__(self) -> None:
        values = (self.retries, self.backoff, self.max_retry_after)
        if not isinstance(self.retries, int) or not all(math.isfinite(value) and value >= 0 for value in values):
            raise ValueError(
                f"retries (a whole number), backoff and max_retry_after must be finite and >= 0, got "
                f"{self.retries}, {self.backoff} and {self.max_retry_after}"
            )

    def retrying(self, is_transient: Callable[[BaseException], bool]) -> Retrying:
        """A tenacity `Retrying`: up to `retries` + 1 attempts while `is_transient(error)`; re-raises the last error."""
        fallback = wait_exponential(multiplier=self.backoff)

        def wait(state: RetryCallState) -> float:
            error = state.outcome.exception() if state.outcome else None
            asked = header_seconds(getattr(error, "response", None), "Retry-After")
            if asked is None:
                return fallback(state)
            return min(asked, self.max_retry_after)

        return Retrying(
            stop=stop_after_attempt(self.retries + 1), wait=wait, retry=retry_if_exception(is_transient), sleep=self.sleep, reraise=True
        )
