"""One line per problem of a pydantic `ValidationError`, for refusals, quarantine reasons and error rows; and one
reading of a setting given in seconds (`positive_seconds`), for the waits `recon` reads from the environment.

pydantic words the message of a ValueError or AssertionError raised in a validator with its error type in front
("Value error, as_of must be a date ...", "Assertion failed, ..."; pydantic 2 docs, "Validation Errors":
value_error, assertion_error). The rule's own words are what a user reads: the prefix is taken off.
"""

from __future__ import annotations

import os

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from recon_assets.shared.credentials import shown_setting

# The prefix pydantic puts before a validator's own message, by error type.
_TYPE_PREFIXES = {"value_error": "Value error, ", "assertion_error": "Assertion failed, "}


def problem_message(problem: ErrorDetails) -> str:
    """The message of one item of `ValidationError.errors()`, without pydantic's prefix on a validator's own."""
    return problem["msg"].removeprefix(_TYPE_PREFIXES.get(problem["type"], ""))


def problem_line(problem: ErrorDetails, whole: str) -> str:
    """'field.sub: message' for one item of `ValidationError.errors()`; `whole` names where an error on the whole
    object is (an empty location), e.g. 'row' or 'the record'."""
    return f"{'.'.join(map(str, problem['loc'])) or whole}: {problem_message(problem)}"


def answer_problem(raw: str | None, shape: type[BaseModel]) -> str | None:
    """Why an LLM's answer is unusable: 'empty answer', or 'invalid answer: <field>: <message>' when it is not one JSON
    object of `shape` (its first problem, `problem_line`); None when it is usable. Never raises."""
    if raw is None or not raw.strip():
        return "empty answer"
    try:
        shape.model_validate_json(raw)
    except ValidationError as error:
        return f"invalid answer: {problem_line(error.errors()[0], 'answer')}"
    return None


def positive_seconds(variable: str, default: float) -> float:
    """The environment variable `variable` as a number of seconds: positive and finite; unset or empty, `default`.

    Raises:
        ValueError: anything else ('nan', 'inf', '0', '-1', '5s'), in one line naming `variable` and quoting its value
            (`credentials.shown_setting`).
    """
    text = os.environ.get(variable) or str(default)
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds < float("inf"):
        raise ValueError(f"{variable} must be a positive number of seconds, got {shown_setting(text)}")
    return seconds

