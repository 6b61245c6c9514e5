"""The labelled research questions (`reference/evaluation/question_cases.yaml`, QUESTION_CASES.md beside it): real
Earth-science questions whose right answer is documented, for measuring the briefs (issue 21, "Measured, not
asserted"). Each is a `questions.Question` with its kind, the verdict a correct critic gives, the papers a correct
brief must treat as stale, the ones it should rely on, foundational ones it must not call stale, the documented
dispute, and its sources."""

from __future__ import annotations

from datetime import date
from importlib.resources import files
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

from recon_assets.briefs.questions import Question, repeated

QUESTION_CASES_FILE = files("recon_assets.reference.evaluation").joinpath("question_cases.yaml")
VERSION_CHAIN, DISPUTE, CONTROL = "version_chain", "dispute", "control"
# The verdict each kind's right answer is (STALE for a question resting on a replaced version, CONTRADICTED for a
# documented dispute, PASS for a control); a control's measured failure is a false STALE.
EXPECTED_VERDICT = {VERSION_CHAIN: "STALE", DISPUTE: "CONTRADICTED", CONTROL: "PASS"}


class LabelledPaper(BaseModel):
    """A publication of the sample by canonical DOI, with the labelled edge (`case`, labelled_edges.csv) or, for a
    paper with no labelled edge (a comment), the labelled pair (`pair`, labelled_pairs.csv) it comes from."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    doi: str
    case: str | None = Field(default=None, pattern=r"^[a-z]-\d{2}$")
    pair: str | None = Field(default=None, pattern=r"^[dk]-\d{2}$")

    @model_validator(mode="after")
    def _sourced(self) -> LabelledPaper:
        if (self.case is None) == (self.pair is None):
            raise ValueError(f"{self.doi}: give exactly one of case and pair")
        return self


class LabelledComment(BaseModel):
    """A published comment (or rebuttal) on the disputed paper: its DOI (None when none is on record), title, year,
    the labelled pair (labelled_pairs.csv) and the authors' reply's DOI when one is on record."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    doi: str | None
    title: str
    year: int
    pair: str = Field(pattern=r"^d-\d{2}$")
    reply_doi: str | None = None


class LabelledDispute(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    original: LabelledPaper
    comments: tuple[LabelledComment, ...] = Field(min_length=1)


class QuestionCase(Question):
    """One labelled question (module docstring)."""

    kind: Literal["version_chain", "dispute", "control"]
    expected_verdict: Literal["PASS", "STALE", "CONTRADICTED"]
    stale: tuple[LabelledPaper, ...] = ()
    rely_on: tuple[LabelledPaper, ...] = ()
    foundational: tuple[LabelledPaper, ...] = ()
    dispute: LabelledDispute | None = None
    sources: tuple[str, ...] = Field(min_length=1)
    note: str = Field(min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> QuestionCase:
        if self.expected_verdict != EXPECTED_VERDICT[self.kind]:
            raise ValueError(f"a {self.kind} case expects {EXPECTED_VERDICT[self.kind]}, not {self.expected_verdict}")
        if self.kind == VERSION_CHAIN and not self.stale:
            raise ValueError("a version_chain case names at least one stale paper")
        if self.kind == DISPUTE and self.dispute is None:
            raise ValueError("a dispute case names its dispute")
        if self.kind == CONTROL and (self.stale or not (self.rely_on or self.foundational)):
            raise ValueError("a control case names papers to rely on and none stale")
        twice = repeated([paper.doi for paper in (*self.stale, *self.rely_on, *self.foundational)])
        if twice:
            raise ValueError(f"a paper has two roles in {self.id}: {twice}")
        return self


class QuestionCases(BaseModel):
    """The file: its labels version, the date its answers hold (as_of) and the cases, ids unique."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    labels_version: int = Field(ge=1)
    as_of: date
    cases: tuple[QuestionCase, ...]

    @model_validator(mode="after")
    def _unique_ids(self) -> QuestionCases:
        twice = repeated([case.id for case in self.cases])
        if twice:
            raise ValueError(f"duplicate case ids: {twice}")
        return self


def read_question_cases(text: str | None = None) -> QuestionCases:
    """The labelled questions of `text` (YAML), by default the packaged question_cases.yaml.

    Raises:
        yaml.YAMLError: not YAML. pydantic.ValidationError: a case out of shape (the error names it).
    """
    return QuestionCases.model_validate(yaml.safe_load(QUESTION_CASES_FILE.read_text() if text is None else text))
