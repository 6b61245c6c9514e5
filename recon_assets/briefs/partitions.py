"""The questions' dynamic partitions (issue 21): one per standing question of the question file (its id) and one per
ad-hoc question (`ask-<hash>`, added by `recon ask`); the question file, read by the sensor and by `question_plans`.

The question file is package data (briefs/questions.yaml) unless RECON_QUESTIONS_FILE names another.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

import dagster as dg
from pydantic import Field

from recon_assets.briefs.questions import QuestionFile, read_question_file

QUESTIONS_PARTITIONS = "questions"
question_partitions = dg.DynamicPartitionsDefinition(name=QUESTIONS_PARTITIONS)
PACKAGED_QUESTIONS = files("recon_assets.briefs").joinpath("questions.yaml")


class QuestionFileResource(dg.ConfigurableResource):
    """The question file: `path` (RECON_QUESTIONS_FILE), default the packaged briefs/questions.yaml."""

    path: str = Field(default="", description="A question file (YAML, briefs/questions.py); empty: the packaged briefs/questions.yaml.")

    def text(self) -> str:
        """The file's text.

        Raises:
            OSError: it cannot be read (its path named by the error).
        """
        return Path(self.path).read_text(encoding="utf-8") if self.path else PACKAGED_QUESTIONS.read_text(encoding="utf-8")

    def read(self) -> QuestionFile:
        """The file read (`questions.read_question_file`).

        Raises:
            OSError: it cannot be read. questions.QuestionFileError: not a question file as a whole.
        """
        return read_question_file(self.text())

    def where(self) -> str:
        return self.path or str(PACKAGED_QUESTIONS)
