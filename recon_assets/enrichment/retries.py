"""The retry policy shared by the OpenAlex (requests) and Crossref (httpx) clients, built on tenacity.

Transient failures (timeouts, connection errors, HTTP 5xx, a rate-limit 429) are retried `retries` more
times; the wait is the response's `Retry-After` when it gives one (RFC 9110 section 10.2.3, delay-seconds
form), else exponential backoff `backoff` * 2^n seconds.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from tenacity import RetryCallState, Retrying, retry_if_exception, stop_after_attempt, wait_exponential


def retry_after_seconds(response) -> float | None:
    """`Retry-After` of a requests or httpx response in seconds, or None when absent or not a number."""
    try:
        return float(response.headers["Retry-After"])
    except (AttributeError, KeyError, TypeError, ValueError):
        return None


def http_retrying(
    *,
    retries: int,
    backoff: float,
    is_transient: Callable[[BaseException], bool],
    sleep: Callable[[float], None] = time.sleep,
) -> Retrying:
    """A tenacity `Retrying`: up to `retries` + 1 attempts while `is_transient(error)`; re-raises the last error.

    Raises:
        ValueError: `retries` < 0 or `backoff` < 0.
    """
    if retries < 0 or backoff < 0:
        raise ValueError(f"retries and backoff must be >= 0, got {retries} and {backoff}")
    fallback = wait_exponential(multiplier=backoff)

    def wait(state: RetryCallState) -> float:
        error = state.outcome.exception() if state.outcome else None
        asked = retry_after_seconds(getattr(error, "response", None))
        return asked if asked is not None else fallback(state)

    return Retrying(
        stop=stop_after_attempt(retries + 1), wait=wait, retry=retry_if_exception(is_transient), sleep=sleep, reraise=True
    )
