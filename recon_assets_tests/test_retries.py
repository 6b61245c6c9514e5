"""RetryPolicy: the retry rules shared by the OpenAlex and Crossref clients."""

import math
from types import SimpleNamespace

import pytest

from recon_assets.enrichment.retries import RetryPolicy


class Transient(Exception):
    def __init__(self, retry_after: str | None):
        super().__init__("503")
        self.response = SimpleNamespace(headers={} if retry_after is None else {"Retry-After": retry_after})


def _waits(policy_kwargs: dict, retry_after: str | None) -> list[float]:
    """The waits between three failing attempts and a success."""
    waits: list[float] = []
    failures = iter([Transient(retry_after)] * 3)

    def attempt():
        failure = next(failures, None)
        if failure:
            raise failure
        return "ok"

    policy = RetryPolicy(**({"retries": 3, "backoff": 1.0, "max_retry_after": 60.0, "sleep": waits.append} | policy_kwargs))
    assert policy.retrying(lambda error: isinstance(error, Transient))(attempt) == "ok"
    return waits


@pytest.mark.parametrize(
    ("retry_after", "waits"),
    [
        (None, [1.0, 2.0, 4.0]),  # exponential backoff
        ("5", [5.0, 5.0, 5.0]),  # the server's Retry-After
        ("3600", [60.0, 60.0, 60.0]),  # cut to max_retry_after
        # bug fixed: a negative or NaN Retry-After reached time.sleep, which raised and ended the retries
        ("-1", [1.0, 2.0, 4.0]),
        ("nan", [1.0, 2.0, 4.0]),
        ("-inf", [1.0, 2.0, 4.0]),
    ],
)
def test_retry_waits(retry_after, waits):
    assert _waits({}, retry_after) == waits


@pytest.mark.parametrize(
    "kwargs",
    [{"retries": -1}, {"backoff": -0.5}, {"max_retry_after": -1}, {"retries": math.nan}, {"retries": 2.5},
     {"backoff": math.inf}, {"max_retry_after": math.nan}],
)
def test_a_policy_out_of_range_is_refused(kwargs):
    """bug fixed: NaN passed the `min(...) < 0` check (retries=nan never stopped, max_retry_after=nan lifted the cap)."""
    with pytest.raises(ValueError, match="must be finite and >= 0"):
        RetryPolicy(**kwargs)
