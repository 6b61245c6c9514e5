"""shared.validation: a refusal, quarantine reason or error row says the rule's own words, not pydantic's type prefix
(noted 2026-12-03: "as_of: Value error, as_of must be a date ...")."""

import pytest
from pydantic import BaseModel, ValidationError, field_validator

from recon_assets.shared.validation import problem_line, problem_message


class _Rule(BaseModel):
    year: int
    name: str = "x"

    @field_validator("name")
    @classmethod
    def _named(cls, value: str) -> str:
        if value == "bad":
            raise ValueError("name must not be 'bad'")
        if value == "odd":  # raised, not asserted: pytest rewrites a test module's assert statements
            raise AssertionError("name must not be 'odd'")
        return value


@pytest.mark.parametrize(
    ("record", "line"),
    [
        ({"year": 2020, "name": "bad"}, "name: name must not be 'bad'"),
        ({"year": 2020, "name": "odd"}, "name: name must not be 'odd'"),
        ({"name": "x"}, "year: Field required"),  # pydantic's own wording for its own types is kept
        ({"year": "soon"}, "year: Input should be a valid integer, unable to parse string as an integer"),
    ],
)
def test_a_problem_line_names_the_field_and_the_rule_s_own_words(record, line):
    with pytest.raises(ValidationError) as raised:
        _Rule.model_validate(record)
    assert problem_line(raised.value.errors()[0], "row") == line


def test_an_error_on_the_whole_object_is_named_by_the_caller_s_word():
    with pytest.raises(ValidationError) as raised:
        _Rule.model_validate("not an object")
    [problem] = raised.value.errors()
    assert problem_line(problem, "the record") == f"the record: {problem_message(problem)}"
    assert problem_message(problem).startswith("Input should be")
