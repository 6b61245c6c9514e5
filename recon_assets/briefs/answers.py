"""The shapes an LLM planner and synthesizer must answer in (Groq JSON object mode), validated with pydantic, and
the reading of a raw answer: anything that is not valid JSON of that shape is unparseable, and the caller falls
back (the planner to the question itself, the synthesizer to the extractive brief). Issue 21: "every answer
validated with a pydantic model; an unparseable answer falls back". Unknown keys are ignored; nothing outside the
model's fields is read."""

from __future__ import annotations

import json
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from recon_assets.briefs.questions import repeated
from recon_assets.shared.validation import problem_line

SUBQUESTION_KINDS = ("foundational", "recent", "contested")
# A sub-question is a search query: RECON's planner asks for "under 20 words"; 300 characters leaves room.
MAX_SUBQUESTION_CHARS = 300
MAX_CLAIM_CHARS = 1_000

Answer = TypeVar("Answer", bound=BaseModel)


class PlannedSubQuestion(BaseModel):
    """One sub-question: its kind (foundational / recent / contested, RECON's temporal types) and its text."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    kind: Literal["foundational", "recent", "contested"]
    text: str = Field(min_length=3, max_length=MAX_SUBQUESTION_CHARS)


class PlannerAnswer(BaseModel):
    """The planner's answer: {"subquestions": [{"kind": ..., "text": ...}, ...]} with 2 or 3 entries of distinct
    kinds (RECON: "exactly 2-3 sub-questions, each a different temporal range")."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    subquestions: list[PlannedSubQuestion] = Field(min_length=2, max_length=3)

    @model_validator(mode="after")
    def _distinct_kinds(self) -> PlannerAnswer:
        kinds = [item.kind for item in self.subquestions]
        if repeated(kinds):
            raise ValueError(f"sub-question kinds must differ, got {kinds}")
        return self


class Claim(BaseModel):
    """One claim of a brief: its text, confidence (HIGH / MEDIUM / LOW, issue 21) and the citations
    '[Smith et al., 2019]' it rests on (checked against the evidence set by `synthesis.check_citations`)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    text: str = Field(min_length=1, max_length=MAX_CLAIM_CHARS)
    confidence: Literal["HIGH", "MEDIUM", "LOW"]
    citations: list[str] = Field(default_factory=list, max_length=10)


class SynthesizerAnswer(BaseModel):
    """The synthesizer's answer: RECON's four sections (src/agents/synthesizer.py: Overview, Key Findings, Active
    Debates, Outlook), each a list of claims."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    overview: list[Claim] = Field(min_length=1, max_length=4)
    key_findings: list[Claim] = Field(min_length=1, max_length=8)
    active_debates: list[Claim] = Field(default_factory=list, max_length=4)
    outlook: list[Claim] = Field(default_factory=list, max_length=4)

    def claims(self) -> list[Claim]:
        """Every claim, section by section."""
        return [*self.overview, *self.key_findings, *self.active_debates, *self.outlook]


def read_answer(model: type[Answer], raw: str | None) -> tuple[Answer | None, str | None]:
    """(the validated answer, None), or (None, why it is unparseable) for text that is not one JSON object of
    `model`'s shape (None, blank, not JSON, a list, a field missing or out of range). Never raises."""
    if raw is None or not raw.strip():
        return None, "empty answer"
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as error:
        return None, f"not JSON: {error.msg} at character {error.pos}"
    if not isinstance(data, dict):
        return None, f"not a JSON object but {type(data).__name__}"
    try:
        return model.model_validate(data), None
    except ValidationError as error:
        return None, f"invalid {model.__name__}: {problem_line(error.errors()[0], 'answer')} ({error.error_count()} error(s))"
