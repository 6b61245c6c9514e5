"""A paper's report: the datasets it uses with their lifecycle, its claims, its scores with how each was computed,
the stages that failed and what was sent where, as an HTML page and a PDF drawn by the reliability report's renderer
(`report.render.sections_html` / `sections_pdf`: the same escaping, fonts and table layout)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from recon_assets.report.figures import LABEL_COLOURS
from recon_assets.report.render import ReportTable, Section, sections_html, sections_pdf
from recon_assets.reliability.labels import CURRENT, SUPERSEDED, UNVERIFIED

CURRENT_VERSION, REPLACED, UNKNOWN, UNMATCHED = "current", "replaced", "lifecycle unknown", "unmatched"
# A dataset's lifecycle in the colours the reliability report gives CURRENT, SUPERSEDED and UNVERIFIED edges.
LIFECYCLE_COLOURS = {
    CURRENT_VERSION: LABEL_COLOURS[CURRENT], REPLACED: LABEL_COLOURS[SUPERSEDED], UNKNOWN: LABEL_COLOURS[UNVERIFIED],
    UNMATCHED: LABEL_COLOURS[UNVERIFIED],
}
# Offline, nothing of the paper leaves the machine; the report says so (issue 22, "Privacy").
SENT_OFFLINE = (
    "Nothing of this paper was sent to an online service: its text was parsed, its datasets matched and its claims "
    "extracted on this machine (the offline extractor; Groq and OpenAlex search are not used for papers)."
)


@dataclass(frozen=True)
class PaperReportFiles:
    """The files of a paper's report: its HTML page, its PDF and the PDF's page count."""

    html: Path
    pdf: Path
    pdf_pages: int


def lifecycle_word(row) -> str:
    """CURRENT_VERSION, REPLACED, UNKNOWN (matched, no lineage row) or UNMATCHED for a `paper_datasets` row."""
    if not row.matched:
        return UNMATCHED
    if pd.isna(row.superseded):
        return UNKNOWN
    return REPLACED if row.superseded else CURRENT_VERSION


def paper_sections(document: dict, datasets: pd.DataFrame, claims: pd.DataFrame, scores: pd.DataFrame, failures: pd.DataFrame) -> list[Section]:
    """The report's sections, in reading order: the paper, its datasets with their lifecycle, its scores with how,
    its claims, the stages that failed, and what was sent where.

    Args:
        document: the `paper_documents` row as a mapping.
        datasets, claims, scores, failures: the paper's `paper_datasets`, `paper_claims`, `paper_scores` and
            `paper_stage_failures` rows.
    """
    used = datasets[datasets["matched"]]
    replaced = int(used["superseded"].fillna(False).astype(bool).sum())
    return [
        Section(
            "The paper",
            f"{document['kind']} {document['source']}: {document['sections']} headings, {document['paragraphs']} paragraphs, "
            f"{document['reference_count']} references, {document['captions']} captions"
            + (f", {document['pages']} pages." if not pd.isna(document["pages"]) else "."),
        ),
        Section(
            "Datasets and their lifecycle",
            f"{len(used)} Dataset nodes of the graph matched ({replaced} on a replaced version), "
            f"{len(datasets) - len(used)} named datasets unmatched (listed with why).",
            tables=[ReportTable(
                ("lifecycle", "dataset", "how found", "page", "quote", "lifecycle or why unmatched"),
                [
                    (lifecycle_word(row), " ".join(filter(None, (_cell(row.name), _cell(row.stated_version) or _cell(row.version)))),
                     _cell(row.found_by), str(row.page), _cell(row.quote), _cell(row.lifecycle if row.matched else row.reason))
                    for row in datasets.itertuples(index=False)
                ],
                coloured_column=0,
            )],
        ),
        Section(
            "Scores",
            "CitationEdge's scores (0-10) and this project's share of dataset uses on current versions (0-1); a score "
            "whose inputs are not assessed is not assessed, not guessed.",
            tables=[ReportTable(
                ("score", "value", "how"),
                [(row.score, "not assessed" if pd.isna(row.value) else f"{row.value:.2f}", row.how) for row in scores.itertuples(index=False)],
            )],
        ),
        Section(
            "Claims",
            f"{len(claims)} claims" + (f", found by the {claims['extractor'].iloc[0]}; novelty not assessed." if len(claims) else "."),
            tables=[ReportTable(
                ("type", "confidence", "page", "claim", "results"),
                [(row.claim_type, f"{row.confidence:.1f}", str(row.page), row.text, ", ".join(row.results)) for row in claims.itertuples(index=False)],
            )],
        ),
        Section(
            "Stages that failed",
            "None: every stage completed." if failures.empty else "These optional stages failed; the others completed.",
            tables=[ReportTable(("stage", "why"), [(row.stage, row.error) for row in failures.itertuples(index=False)])] if len(failures) else [],
        ),
        Section("What was sent where", SENT_OFFLINE),
    ]


def _cell(value: object) -> str:
    """A table cell's text: '' for a missing value (NULL reads back as None or NaN)."""
    return "" if value is None or (isinstance(value, float) and pd.isna(value)) else str(value)


def write_paper_report(title: str, sections: list[Section], folder: Path, stem: str) -> PaperReportFiles:
    """Write `<stem>.html` and `<stem>.pdf` into `folder` (created if missing); a re-run replaces them.

    Raises:
        OSError: the folder cannot be written (a full disk included).
    """
    folder.mkdir(parents=True, exist_ok=True)
    html, pdf = folder / f"{stem}.html", folder / f"{stem}.pdf"
    html.write_text(sections_html(title, sections, {}, list(LIFECYCLE_COLOURS), LIFECYCLE_COLOURS), encoding="utf-8")
    pages = sections_pdf(title, sections, {}, pdf, LIFECYCLE_COLOURS)
    return PaperReportFiles(html, pdf, pages)
