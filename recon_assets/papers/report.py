"""A paper's report: the datasets it uses with their lifecycle, its keywords, its claims with their verdicts, its
citation gaps, its scores with how each was computed, the stages that failed and what was sent where, as an HTML page and a PDF drawn by the reliability report's renderer
(`report.render.sections_html` / `sections_pdf`: the same escaping, fonts and table layout)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from recon_assets.report.figures import LABEL_COLOURS
from recon_assets.report.render import ReportTable, Section, sections_html, sections_pdf
from recon_assets.papers.dataset_evidence import DOI_IN_REFERENCES, GRAPH_LINK, SOURCE_SEPARATOR
from recon_assets.papers.gaps import HIGH, MEDIUM
from recon_assets.papers.parse import DOI_PATTERN
from recon_assets.papers.title import display_name
from recon_assets.reliability.labels import CURRENT, DECLINING, SUPERSEDED, UNVERIFIED

CURRENT_VERSION, REPLACED, UNKNOWN, UNMATCHED = "current", "replaced", "lifecycle unknown", "unmatched"
# A dataset's lifecycle in the colours the reliability report gives CURRENT, SUPERSEDED and UNVERIFIED edges.
LIFECYCLE_COLOURS = {
    CURRENT_VERSION: LABEL_COLOURS[CURRENT], REPLACED: LABEL_COLOURS[SUPERSEDED], UNKNOWN: LABEL_COLOURS[UNVERIFIED],
    UNMATCHED: LABEL_COLOURS[UNVERIFIED],
}
# Claim verdicts and gap severities in the same palette: SUPPORTED as CURRENT, CONTRADICTED and high as SUPERSEDED,
# medium as DECLINING, UNVERIFIED as UNVERIFIED.
VERDICT_COLOURS = {"SUPPORTED": LABEL_COLOURS[CURRENT], "CONTRADICTED": LABEL_COLOURS[SUPERSEDED], UNVERIFIED: LABEL_COLOURS[UNVERIFIED]}
SEVERITY_COLOURS = {HIGH: LABEL_COLOURS[SUPERSEDED], MEDIUM: LABEL_COLOURS[DECLINING]}
REPORT_COLOURS = {**LIFECYCLE_COLOURS, **VERDICT_COLOURS, **SEVERITY_COLOURS}
# Offline, nothing of the paper leaves the machine; the report says so (issue 22, "Privacy").
SENT_OFFLINE = (
    "Nothing of this paper was sent to an online service: its text was parsed, its datasets matched, its keywords, "
    "claims, citation gaps and claim verdicts found on this machine (TF-IDF, the offline extractor, the graph's "
    "publications and the offline judge); neither Groq nor OpenAlex search was sent any of it."
)
# Online (the papers' opt-in, and the Groq judge or OpenAlex online): only the claim paragraphs and, for the
# argumentation, the title, headings, abstract and claims go to Groq; for the keyword refinement the title and the
# TF-IDF terms, for the claim verdicts each claim with the dataset names and its nearest works' titles and abstracts;
# only search texts made of the paper's top terms and dataset names go to OpenAlex search (citation gaps); the rest stays here.
SENT_ONLINE = (
    "Only what the lines below name went to an online service: Groq, for the claims and the argumentation score (the "
    "claim paragraphs, never the references, acknowledgements, funding or data statements; the title, headings, "
    "abstract and claims), for the keywords (the title and the TF-IDF terms) and for the claim verdicts (each claim "
    "with the names of its datasets, beside the titles and abstracts of the graph's works it is judged against), and "
    "OpenAlex search, for the citation gaps (search texts made of the paper's top terms and the names of its datasets, "
    "each quoted in its line); the datasets were matched on this machine."
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


@dataclass(frozen=True)
class PaperFindings:
    """A paper's rows of its optional stages' tables (each empty when the stage failed or found nothing):
    `paper_keywords`, `paper_citation_gaps` and `claim_verdicts`; and its `paper_llm_use` rows (what was sent where;
    empty before paper_claims ran)."""

    keywords: pd.DataFrame
    gaps: pd.DataFrame
    verdicts: pd.DataFrame
    llm_use: pd.DataFrame = field(default_factory=pd.DataFrame)


def paper_sections(
    document: dict, datasets: pd.DataFrame, claims: pd.DataFrame, scores: pd.DataFrame, failures: pd.DataFrame,
    findings: PaperFindings,
) -> list[Section]:
    """The report's sections, in reading order: the paper, its datasets with their lifecycle, its scores with how,
    its keywords, its claims with their verdicts (colour-coded), its citation gaps (colour-coded by severity), the
    stages that failed, and what was sent where.

    Args:
        document: the `paper_documents` row as a mapping.
        datasets, claims, scores, failures: the paper's `paper_datasets`, `paper_claims`, `paper_scores` and
            `paper_stage_failures` rows.
        findings: its keywords, gaps and claim verdicts.
    """
    used = datasets[datasets["matched"]]
    replaced = int(used["superseded"].fillna(False).astype(bool).sum())
    return [
        Section(
            "The paper",
            _named(document)
            + f"Read from the {document['kind'].upper()} {document['source']}: {document['sections']} headings, {document['paragraphs']} paragraphs, "
            f"{document['reference_count']} references, {document['captions']} captions"
            + (f", {document['pages']} pages." if not pd.isna(document["pages"]) else "."),
        ),
        Section(
            "Datasets and their lifecycle",
            f"{len(used)} Dataset node{'' if len(used) == 1 else 's'} of the graph matched ({replaced} on a replaced version), "
            f"{len(datasets) - len(used)} named datasets unmatched (listed with why, and with its lifecycle for a version "
            "the graph lacks of one of its datasets).",
            tables=[ReportTable(
                ("lifecycle", "dataset", "how found", "page", "quote", "lifecycle or why unmatched"),
                [
                    (lifecycle_word(row), " ".join(filter(None, (_cell(row.name), _cell(row.stated_version) or _cell(row.version)))),
                     how_found(row), str(row.page), _cell(row.quote),
                     _cell(row.lifecycle) if row.matched else "; ".join(filter(None, (_cell(row.reason), _cell(row.lifecycle)))))
                    for row in datasets.itertuples(index=False)
                ],
                coloured_column=0,
            )],
        ),
        Section(
            "Scores",
            "CitationEdge's scores (0-10: the formulas of CitationEdge, the single-paper analysis pipeline this project "
            "grew from) and this project's share of dataset uses on current versions (0-1); a score whose inputs are not "
            "assessed is not assessed, not guessed.",
            tables=[ReportTable(
                ("score", "value", "how"),
                [(row.score, _score_value(row, findings.verdicts), row.how) for row in scores.itertuples(index=False)],
            )],
        ),
        _keywords_section(findings.keywords),
        _claims_section(claims, findings.verdicts),
        _gaps_section(findings.gaps),
        Section(
            "Stages that failed",
            "None: every stage completed." if failures.empty else "These optional stages failed; the others completed.",
            tables=[ReportTable(("stage", "why"), [(row.stage, row.error) for row in failures.itertuples(index=False)])] if len(failures) else [],
        ),
        _sent_section(findings.llm_use),
    ]


def _named(document: dict) -> str:
    """The paper's title as the report's opening words, or why it is named by its file name."""
    title = document.get("title")
    if isinstance(title, str) and title.strip():
        return f'"{display_name(title, document["source"])}". '
    return f"No title in the PDF's metadata nor on its first page: named by its file name, {display_name(None, document['source'])}. "


def how_found(row) -> str:
    """The "how found" cell of a `paper_datasets` row, never empty: its found_by with where the quote is ("short name and
    version, quoted from p. 3, 2. Data"), a DOI in the reference list as "reference list, DOI <doi> (p. 12)", a
    link found only in the graph as the graph's relationship. A row without found_by (an unmatched mention stored
    before found_by was kept for those) is "named in the paper, quoted from p. N"."""
    found_by = _cell(row.found_by)
    sources = found_by.split(SOURCE_SEPARATOR) if found_by else []
    section = _cell(row.section)
    where = f"p. {row.page}" + {"": "", "References": ", in the reference list", "caption": ", in a figure or table caption",
                                "knowledge graph": ""}.get(section, f", under {section}")
    parts = []
    for source in sources:
        if source == GRAPH_LINK:
            parts.append(f"{GRAPH_LINK} (in the graph, not the paper's text)")
        elif source == DOI_IN_REFERENCES:
            doi = DOI_PATTERN.search(_cell(row.quote))
            parts.append(f"reference list, DOI {doi.group(0).rstrip('.,;)') if doi else _cell(row.name)} (p. {row.page})")
        else:
            parts.append(f"{source}, quoted from {where}")
    return SOURCE_SEPARATOR.join(parts) if parts else f"named in the paper, quoted from {where}"


# Readable names of the project's judges by their id's prefix (`offline_judge.JUDGE_ID` "offline/<version>",
# `groq_client` "groq/<model>", `steward.steward_judge` "steward/<name>").
_JUDGE_NAMES = {"offline/": "offline judge (wording cues)", "groq/": "Groq ", "steward/": "steward "}


def judge_name(judge: object) -> str:
    """A judge id as the report shows it: "offline judge (wording cues)" for any offline judge version, "Groq
    <model>", "steward <name>"; several ids ("; " or ", " joined) each so; an unknown id as it is; '' for none."""
    ids = [part.strip() for part in re.split(r"[;,]\s*", _cell(judge)) if part.strip()]
    names = []
    for judge_id in ids:
        prefix = next((p for p in _JUDGE_NAMES if judge_id.startswith(p)), None)
        if prefix is None:
            names.append(judge_id)
        elif prefix == "offline/":
            names.append(_JUDGE_NAMES[prefix])
        else:
            names.append((_JUDGE_NAMES[prefix] + judge_id.removeprefix(prefix)).strip())
    return ", ".join(dict.fromkeys(names))


def _score_value(row, verdicts: pd.DataFrame) -> str:
    """A score's value cell: 'not assessed', or the figure; verification's with its claims' verdict counts beside it
    ("0.00 (0 of 1 claims supported; 1 unverified)"), so a 0.00 from unverified claims reads as not checked, not as
    refuted (CitationEdge's formula counts an UNVERIFIED claim in the total only)."""
    if pd.isna(row.value):
        return "not assessed"
    figure = f"{row.value:.2f}"
    if row.score != "verification" or verdicts.empty:
        return figure
    return f"{figure} ({verdict_counts(verdicts['verdict'].tolist())})"


def verdict_counts(verdicts: list[str]) -> str:
    """"<s> of <n> claims supported; <c> contradicted; <u> unverified" (zero counts of contradicted and unverified left
    out): what the verification figure is made of."""
    total, supported = len(verdicts), verdicts.count("SUPPORTED")
    counted = [f"{supported} of {total} claims supported"]
    counted += [f"{n} {word}" for word, n in (("contradicted", verdicts.count("CONTRADICTED")), ("unverified", verdicts.count(UNVERIFIED))) if n]
    return "; ".join(counted)


def _sent_section(llm_use: pd.DataFrame) -> Section:
    """What was sent where: SENT_OFFLINE when nothing of the paper went out (nor was sent before), else SENT_ONLINE;
    then each stage's line (`paper_llm_use.summary`), claims dropped and wording removed before sending."""
    went_out = not llm_use.empty and bool((llm_use["sent"] | (llm_use["cached_answers"] > 0)).any())
    rows = [] if llm_use.empty else [
        (row.stage, row.summary, "; ".join([*row.drop_reasons, *row.removed]) or "none")
        for row in llm_use.itertuples(index=False)
    ]
    return Section(
        "What was sent where", SENT_ONLINE if went_out else SENT_OFFLINE,
        tables=[ReportTable(("stage", "what was sent where", "claims dropped, wording removed before sending"), rows)] if rows else [],
    )


def _keywords_section(keywords: pd.DataFrame) -> Section:
    matched = keywords[keywords["keyword_id"].notna()]
    return Section(
        "Keywords",
        f"{len(keywords)} terms by TF-IDF against the graph's publications, {len(matched)} matched to its GCMD science keywords"
        + (f" ({keywords['method'].iloc[0]})." if len(keywords) else "."),
        tables=[ReportTable(
            ("term", "weight", "GCMD keyword", "match"),
            [(row.term, f"{row.weight:.3f}", _cell(row.keyword_name), _cell(row.match)) for row in keywords.itertuples(index=False)],
        )],
    )


def _claims_section(claims: pd.DataFrame, verdicts: pd.DataFrame) -> Section:
    judged = {row["position"]: row for row in verdicts.to_dict("records")}
    counts = verdicts["verdict"].value_counts().to_dict()

    def verdict_of(position: int) -> tuple[str, str, str]:
        """(verdict, the quoted evidence or why, flags with their reasons) of the claim; not judged when absent."""
        if position not in judged:
            return "", "not judged", ""
        row = judged[position]
        judge = judge_name(row["judge"])  # claim_verdicts.judge keeps the id
        evidence = (f'"{row["evidence"]}" ({_cell(row["evidence_doi"]) or row["evidence_key"]}; {judge})' if _cell(row["evidence"])
                    else f'{row["why"]} ({judge})')
        return row["verdict"], evidence, "; ".join(f"{flag}: {reason}" for flag, reason in zip(row["flags"], row["flag_reasons"]))

    return Section(
        "Claims and their verdicts",
        f"{len(claims)} claims" + (f", found by the {claims['extractor'].iloc[0]}; novelty not assessed." if len(claims) else ".")
        + (" Verdicts against the graph's publications: " + ", ".join(f"{n} {v}" for v, n in sorted(counts.items())) + "." if counts else ""),
        tables=[ReportTable(
            ("verdict", "type", "confidence", "page", "claim", "results", "evidence or why", "flags"),
            [
                (verdict, row.claim_type, f"{row.confidence:.1f}", str(row.page), row.text, ", ".join(row.results), evidence, flags)
                for row in claims.itertuples(index=False) for verdict, evidence, flags in [verdict_of(row.position)]
            ],
            coloured_column=0,
        )],
    )


def _gaps_section(gaps: pd.DataFrame) -> Section:
    counts = gaps["severity"].value_counts()
    return Section(
        "Citation gaps",
        f"{int(counts.get(HIGH, 0))} high and {int(counts.get(MEDIUM, 0))} medium: works of the graph on the paper's keywords "
        "and datasets that its reference list lacks (OpenAlex search, online, is not used).",
        tables=[ReportTable(
            ("severity", "work", "year", "rules", "why"),
            [
                (row.severity, _cell(row.title) or _cell(row.doi) or row.work_key, _cell(_year(row.year)), "; ".join(row.rules), row.why)
                for row in gaps.itertuples(index=False)
            ],
            coloured_column=0,
        )],
    )


def _year(value: object) -> int | None:
    return None if value is None or pd.isna(value) else int(value)


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
    html.write_text(sections_html(title, sections, {}, list(REPORT_COLOURS), REPORT_COLOURS), encoding="utf-8")
    pages = sections_pdf(title, sections, {}, pdf, REPORT_COLOURS)
    return PaperReportFiles(html, pdf, pages)
