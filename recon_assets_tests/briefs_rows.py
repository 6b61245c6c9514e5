"""Evidence rows for the briefs' tests, built from real records: the labelled publications (title, year, first author,
abstract when openly licensed: reference/evaluation/publications.json) of the labelled questions
(question_cases.yaml). Only the scores the tests vary (semantic similarity, citations, edge labels) are given."""

from __future__ import annotations

import json
from functools import cache

from recon_assets.briefs.critic import EdgeAssessment, Evidence
from recon_assets.briefs.question_cases import QUESTION_CASES_FILE
from recon_assets.briefs.retrieval import KG, Candidate, ScoredPaper, score_papers

AS_OF_YEAR = 2026


@cache
def publications() -> dict[str, dict]:
    return json.loads(QUESTION_CASES_FILE.parent.joinpath("publications.json").read_text())


def candidate(labelled_doi: str, semantic: float = 0.8, cited_by_count: int | None = None, source: str = KG, **changes) -> Candidate:
    """The labelled publication `labelled_doi` as a retrieval candidate; `changes` override its fields (its doi too)."""
    record = publications()[labelled_doi]
    fields = dict(
        doi=labelled_doi, title=record["title"], source=source, semantic=semantic, year=int(record["year"]),
        authors=(record["first_author"], "et al.") if record.get("first_author") else (), abstract=record.get("abstract"),
        cited_by_count=cited_by_count, publication_id=f"kg-{labelled_doi}" if source == KG else None,
    )
    return Candidate(**(fields | changes))


def scored(doi: str, **fields) -> ScoredPaper:
    from datetime import date

    return score_papers([candidate(doi, **fields)], date(AS_OF_YEAR, 12, 1), "linear")[0]


def evidence(doi: str, *edges: tuple, **fields) -> Evidence:
    """`doi` scored, with edges given as (dataset, label, reliability, replaced)."""
    paper = scored(doi, **fields)
    return Evidence(paper, tuple(
        EdgeAssessment(dataset, label, reliability, f"{paper.citation} reliability {reliability:.2f} {label}: test reason", replaced)
        for dataset, label, reliability, replaced in edges
    ))
