"""A total deadline for one HTTP request, whatever the library: requests (OpenAlex through pyalex), httpx (Crossref)
and httpx2 (Hugging Face through huggingface_hub).

Their timeouts bound each socket operation only: a server that sends one byte every few seconds never trips a 30 s
read timeout, and a request can last for ever (urllib3's `Timeout` docstring says so of its own `total`; httpx
issue #1450, "low-and-slow attack on client", is open for the same reason). Neither library can stop a call from
outside, so `call_with_deadline` runs the call in a worker thread and stops *waiting* for it at the deadline: the
caller gets `DeadlineExceeded` and goes on (the run is never held), wherever the server stalls (connect, status line,
headers or body). The abandoned worker is a daemon thread: it ends with its connection (the server closing it, or
its per-read timeout), at the latest with the process; it holds nothing the caller uses afterwards.

No Dagster import.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class DeadlineExceeded(TimeoutError):
    """A call did not finish within its total deadline; the message says what and how long."""


def call_with_deadline(function: Callable[[], T], *, seconds: float, what: str) -> T:
    """`function()`'s result (or its exception, re-raised), if it finishes within `seconds`.

    Args:
        seconds: the total deadline (> 0).
        what: what is being called, for the message ("GET https://api.openalex.org/works").

    Raises:
        DeadlineExceeded: `function` is still running after `seconds`; it goes on in its daemon thread, unwaited.
        ValueError: `seconds` is not positive.
    """
    if not seconds > 0:
        raise ValueError(f"a deadline must be a positive number of seconds, got {seconds!r}")
    outcome: dict[str, object] = {}

    def work() -> None:
        try:
            outcome["result"] = function()
        except BaseException as error:  # handed to the caller, who decides
            outcome["error"] = error

    worker = threading.Thread(target=work, name=f"deadline: {what}", daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        raise DeadlineExceeded(f"{what} did not finish within its total deadline of {seconds:g}s (a server answering too slowly)")
    if "error" in outcome:
        raise outcome["error"]
    return outcome["result"]
