"""The reliability report as a self-contained HTML page (Jinja2, autoescaped; plots embedded as base64 PNG, no
external URL) and as a PDF of the same sections (ReportLab; its Paragraph mark-up escaped the same way).

Both are drawn from one list of `Section`s (`report_sections`), so the page and the PDF say the same things. Every
text that comes from the KG, OpenAlex or Crossref (titles, short names, reasons) is data: the HTML template escapes
every value (Jinja2 autoescape), the PDF escapes every cell before ReportLab reads its mark-up.

ReportLab rather than WeasyPrint: it installs from PyPI wheels alone, where WeasyPrint needs Pango from the system
(a fresh machine's `pip install -e .` must run `recon run`, README "Set-up").
"""

from __future__ import annotations

import base64
import bisect
import io
import json
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from pathlib import Path
from xml.sax.saxutils import escape

import jinja2
import matplotlib
import pandas as pd
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import cm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import Image, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from recon_assets.evaluation.measure import comparison_table, CONDITIONS, MEASURES
from recon_assets.evaluation.metrics import measure_text
from recon_assets.kg.research_areas import research_area_slugs
from recon_assets.reliability.labels import LABELS
from recon_assets.reliability.settings import ScoringSettings
from recon_assets.report.data import FLAGGED_VERDICTS, ReportData
from recon_assets.report.figures import (
    LABEL_COLOURS,
    VERDICT_COLOURS,
    evaluation_png,
    label_distribution_png,
    reliability_histogram_png,
)
from recon_assets.shared.display import terminal_text
from recon_assets.storage.output_files import LATEST_REPORT_STEM, REPORT_OUTPUT, copy_whole, run_stem

TEMPLATES = jinja2.Environment(
    loader=jinja2.PackageLoader("recon_assets.report", "templates"),
    autoescape=True,  # every value is text to show, never mark-up (the template's own HTML is the only mark-up)
    undefined=jinja2.StrictUndefined,
)
COLOURS = {**LABEL_COLOURS, **VERDICT_COLOURS}
# DejaVu Sans, shipped inside matplotlib: ReportLab's built-in Helvetica has Latin-1 glyphs only, and titles are not.
PDF_FONT = "DejaVuSans"
PDF_FONT_FILE = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
# DejaVu Sans has no CJK glyph: CJK text goes to ReportLab's Adobe CID fonts (by the first word of the character's
# Unicode name), drawn by the reader's own Asian fonts (not embedded), so the PDF keeps the text searchable. A
# character no PDF font has (emoji) is shown as U+FFFD; the HTML page has it as it is.
CJK_FONTS = {
    "CJK": "STSong-Light", "IDEOGRAPHIC": "STSong-Light", "FULLWIDTH": "STSong-Light",
    "HIRAGANA": "HeiseiMin-W3", "KATAKANA": "HeiseiMin-W3", "HALFWIDTH": "HeiseiMin-W3", "HANGUL": "HYSMyeongJo-Medium",
}
NO_GLYPH = "\ufffd"
# A PDF table cell is at most this share of a page's height: longer text is cut at a word and ends with ELLIPSIS
# (the HTML page shows it whole). A row must fit on one page (ReportLab raises LayoutError otherwise).
MAX_CELL_PAGE_SHARE = 0.5
ELLIPSIS = "…"
# A column is first widened to hold its widest word, up to this share of the page's width (about 40 characters; a
# 10,000-character title without a space cannot have the page): numbers, labels, research areas, dates and ordinary
# words are never broken across lines, a longer run without a space (an unusual DOI, a SHA-256) may be.
MAX_WORD_PAGE_SHARE = 0.2
CELL_PADDING = 3  # points, each side of a table cell


# Each run's report is `<REPORT_OUTPUT>_<as_of>_<run>` + each of REPORT_SUFFIXES (`output_files.run_stem`); the latest
# report's page and PDF keep LATEST_REPORT_STEM, beside them (docs/TABLES.md "The reliability report").
REPORT_SUFFIXES = (".html", ".pdf", "_figures")


@dataclass(frozen=True)
class ReportFiles:
    """The files of one report: its run's stem (`output_files.run_stem`), its HTML page and PDF, their `latest`
    copies, and its plots as PNG files."""

    stem: str
    html: Path
    pdf: Path
    latest_html: Path
    latest_pdf: Path
    figures: dict[str, Path]
    pdf_pages: int


@dataclass(frozen=True)
class ReportTable:
    """A table of display texts; cells of `coloured_column` (a label or verdict) take their COLOURS colour."""

    columns: tuple[str, ...]
    rows: list[tuple[str, ...]]
    coloured_column: int | None = None


@dataclass(frozen=True)
class Section:
    """One part of the report: a heading, a sentence, a plot (a key of the figures) and tables."""

    title: str
    text: str = ""
    figure: str | None = None
    tables: list[ReportTable] = field(default_factory=list)


def report_figures(data: ReportData) -> dict[str, bytes]:
    """{name: PNG bytes} of the report's three plots: label_distribution, reliability_histogram, evaluation."""
    return {
        "label_distribution": label_distribution_png(data.label_counts),
        "reliability_histogram": reliability_histogram_png(data.reliabilities, _superseded_bar(data.lineage), _reliable_bar(data.verdict_rules)),
        "evaluation": evaluation_png(data.evaluation),
    }


def report_sections(data: ReportData) -> list[Section]:
    """The report's sections, in reading order: labels per research area, reliability, flagged dataset verdicts, the
    most central SUPERSEDED edges, the evaluation, the run's lineage."""
    label_totals = data.label_counts.groupby("label")["edges"].sum()
    edges = int(label_totals.sum())
    per_area = data.label_counts.pivot_table(index="research_area", columns="label", values="edges", aggfunc="sum", fill_value=0)
    per_area = per_area.reindex(columns=list(LABELS), fill_value=0)
    return [
        Section(
            "Labels per research area",
            f"{edges} scored Dataset→Publication edges in {len(per_area)} of the {len(research_area_slugs())} research-area "
            "partitions (the others have no scored edge): "
            + ", ".join(f"{label} {int(label_totals.get(label, 0))}" for label in LABELS) + ".",
            figure="label_distribution",
            tables=[ReportTable(
                ("research area", *LABELS, "edges"),
                [(area, *(str(int(n)) for n in row), str(int(row.sum()))) for area, row in per_area.iterrows()],
            )],
        ),
        Section(
            "Reliability",
            f"reliability = w1 * centrality + w2 * recency + w3 * coherence - lifecycle penalty, over {edges} edges "
            f"(median {_number(data.reliabilities['reliability'].median())}). The dashed line is the SUPERSEDED bar: below "
            "it an edge with a judged contradiction, judged supersession or standing dispute is SUPERSEDED. The dotted "
            "line is the bar from which a dataset verdict counts an edge as reliable evidence.",
            figure="reliability_histogram",
        ),
        Section(
            "Datasets with STALE and CONTRADICTED verdicts",
            f"{sum(data.verdict_counts.values())} (research area, dataset) verdicts: "
            + ", ".join(f"{verdict} {count}" for verdict, count in data.verdict_counts.items())
            + f". Of the {data.flagged_verdicts_total} {' or '.join(FLAGGED_VERDICTS)}, the {len(data.flagged_verdicts)} "
            "resting on the most evidence are listed, with why.",
            tables=[ReportTable(
                ("verdict", "research area", "dataset (DOI)", "edges", "why stale", "why contradicted"),
                [
                    (row.verdict, row.research_area,
                     _join(row.dataset_short_name, row.dataset_version, f"({row.dataset_doi})" if _text(row.dataset_doi) else ""),
                     _edge_counts(row), _text(row.staleness_reason), _text(row.contradiction_reason))
                    for row in data.flagged_verdicts.itertuples()
                ],
                coloured_column=0,
            )],
        ),
        Section(
            "The most central SUPERSEDED edges",
            f"{data.superseded_total} edges are SUPERSEDED; those of the {len(data.central_superseded)} most central "
            "publications, where a superseded finding matters most:",
            tables=[ReportTable(
                ("label", "publication", "year", "dataset", "area", "centrality", "reliability", "reason"),
                [
                    # the DOI first: a title too long for a PDF cell is shortened at its end, the DOI kept
                    ("SUPERSEDED", _join(f"{row.publication_doi}:" if _text(row.publication_doi) else "", row.title),
                     _year(row.publication_year),
                     _text(row.dataset_short_name), row.research_area, _number(row.centrality), _number(row.reliability),
                     _text(row.reason))
                    for row in data.central_superseded.itertuples()
                ],
                coloured_column=0,
            )],
        ),
        Section(
            "Evaluation on the labelled cases",
            "Each rate of the default setting on the I and F cases with its 95 % Wilson interval, beside the base rate "
            "(all scored edges flagged) and the labelled prevalence; online counts only cases with an OpenAlex record. "
            "Then the default beside each baseline rule on the same cases (IF, and I alone), with per-node counts and "
            "the difference default minus the rule and its 95 % interval from resampling dataset nodes.",
            figure="evaluation",
            tables=[
                _evaluation_table(data.evaluation), ReportTable(*comparison_table(data.baselines)), _dispute_table(data.dispute_evaluation),
            ],
        ),
        Section(
            "Lineage of this run",
            f"as_of {data.as_of.isoformat()}" + (f", Dagster run {data.run_id}" if data.run_id else "") + ".",
            tables=[
                # two tables: the seven columns in one left a PDF column narrower than its widest word, and a date
                # or file name was split ('2026-11-2' / '9', found by the hostile pass)
                ReportTable(
                    ("KG snapshot", "source", "format", "as_of", "edges"),
                    [
                        (row.snapshot_id, _text(row.source), _text(row.format), f"{row.as_of:%Y-%m-%d}", str(row.edges))
                        for row in data.lineage.itertuples()
                    ],
                ),
                ReportTable(
                    ("KG snapshot", "SHA-256", "scoring settings"),
                    [(row.snapshot_id, _text(row.sha256), _flat_settings(row.scoring_settings)) for row in data.lineage.itertuples()],
                ),
                ReportTable(
                    ("coherence judge", "prompt version", "judged pairs", "of them with a stance"),
                    [(row.judge, _text(row.prompt_version), str(row.pairs), str(row.stance_pairs)) for row in data.judges.itertuples()],
                ),
                ReportTable(
                    ("verdict rules", "verdicts"),
                    [(_flat_settings(row.verdict_rules), str(row.verdicts)) for row in data.verdict_rules.itertuples()],
                ),
            ],
        ),
    ]


def render_html(data: ReportData, figures: dict[str, bytes]) -> str:
    """The self-contained HTML page: the sections, the plots as base64 PNG data URIs, no external resource."""
    return sections_html(f"Edge reliability report, as of {data.as_of.isoformat()}", report_sections(data), figures, LABELS)


def sections_html(title: str, sections: list[Section], figures: dict[str, bytes], legend: Sequence[str], colours: Mapping[str, str] = COLOURS) -> str:
    """A self-contained HTML page of `sections` under `title`: a legend of the `legend` words in their `colours`, the
    plots (`figures`, PNG bytes by name) as base64 data URIs, no external resource; every text autoescaped."""
    encoded = {name: base64.b64encode(png).decode("ascii") for name, png in figures.items()}
    return TEMPLATES.get_template("reliability_report.html.j2").render(
        title=title, sections=sections, figures=encoded, colours=colours, legend=legend,
    )


def render_pdf(data: ReportData, figures: dict[str, bytes], path: Path) -> int:
    """Write the report's sections to a landscape A4 PDF at `path`.

    Returns:
        the number of pages written.
    """
    return sections_pdf(f"Edge reliability report, as of {data.as_of.isoformat()}", report_sections(data), figures, path)


def sections_pdf(title: str, sections: list[Section], figures: dict[str, bytes], path: Path, colours: Mapping[str, str] = COLOURS) -> int:
    """Write `sections` under `title` to a landscape A4 PDF at `path` (every text escaped, `_pdf_markup`), coloured
    cells in their `colours`.

    Returns:
        the number of pages written.
    """
    _register_pdf_fonts()
    styles = getSampleStyleSheet()
    body = ParagraphStyle("body", parent=styles["BodyText"], fontName=PDF_FONT, fontSize=9, leading=11)
    cell = ParagraphStyle("cell", parent=body, fontSize=7, leading=8.5)
    # A section's heading and sentence stay on the page of what follows them (ReportLab's keepWithNext), never alone
    # at a page's foot.
    heading = ParagraphStyle("heading", parent=styles["Heading2"], fontName=PDF_FONT, keepWithNext=1)
    lead = ParagraphStyle("lead", parent=body, keepWithNext=1, spaceAfter=0.2 * cm)
    title_style = ParagraphStyle("title", parent=styles["Title"], fontName=PDF_FONT)
    document = SimpleDocTemplate(
        str(path), pagesize=landscape(A4), leftMargin=1.2 * cm, rightMargin=1.2 * cm, topMargin=1.2 * cm, bottomMargin=1.2 * cm,
        title=title, author="recon_assets",
    )
    story: list = [Paragraph(_pdf_markup(title), title_style)]
    for section in sections:
        story += [Paragraph(_pdf_markup(section.title), heading), Paragraph(_pdf_markup(section.text), lead)]
        if section.figure:
            image = Image(io.BytesIO(figures[section.figure]))
            scale = min(1.0, document.width / image.drawWidth, 0.6 * document.height / image.drawHeight)
            image.drawWidth, image.drawHeight = image.drawWidth * scale, image.drawHeight * scale
            story += [image, Spacer(1, 0.2 * cm)]
        for table in section.tables:
            story += [_pdf_table(table, cell, document.width, MAX_CELL_PAGE_SHARE * document.height, colours), Spacer(1, 0.3 * cm)]
    pages: list[int] = []
    document.build(story, onLaterPages=lambda canvas, _: pages.append(canvas.getPageNumber()),
                   onFirstPage=lambda canvas, _: pages.append(canvas.getPageNumber()))
    return len(pages)


def write_report(data: ReportData, folder: Path) -> ReportFiles:
    """Write the report into `folder` (created if missing): `reliability_report_<as_of>_<run id's first 8>.html` and
    `.pdf`, the plots as `<stem>_figures/<plot>.png`, and copies of the page and PDF as `reliability_report_latest.*`
    (`output_files.copy_whole`: written whole, copies, not links). A re-run of the same run replaces its files; earlier
    runs' files are left for `output_files.prune`.

    Raises:
        OSError: the folder cannot be written (a full disk included).
    """
    stem = run_stem(REPORT_OUTPUT, data.as_of, data.run_id)
    figure_folder = folder / f"{stem}_figures"
    figure_folder.mkdir(parents=True, exist_ok=True)
    figures = report_figures(data)
    figure_files = {name: figure_folder / f"{name}.png" for name in figures}
    for name, png in figures.items():
        figure_files[name].write_bytes(png)
    html, pdf = folder / f"{stem}.html", folder / f"{stem}.pdf"
    html.write_text(render_html(data, figures), encoding="utf-8")
    pages = render_pdf(data, figures, pdf)
    latest_html = copy_whole(html, folder / f"{LATEST_REPORT_STEM}.html")
    latest_pdf = copy_whole(pdf, folder / f"{LATEST_REPORT_STEM}.pdf")
    return ReportFiles(stem, html, pdf, latest_html, latest_pdf, figure_files, pages)


def _pdf_table(table: ReportTable, style: ParagraphStyle, width: float, max_cell_height: float, colours: Mapping[str, str] = COLOURS) -> Table:
    """A ReportLab table `width` points wide whose every cell is a Paragraph of escaped text (no text is mark-up),
    wrapped at spaces in columns that hold their widest word (`_column_widths`), each cell at most `max_cell_height`
    points high (`_fitted`); the cells of its coloured column in their `colours`."""
    header = [Paragraph(f"<b>{_pdf_markup(column)}</b>", style) for column in table.columns]
    body = [[Paragraph(_pdf_markup(cell), style) for cell in row] for row in table.rows]
    widths = _column_widths([header, *body], width)
    rows = [[_fitted(text, paragraph, widths[index] - 2 * CELL_PADDING, max_cell_height) for index, (text, paragraph)
             in enumerate(zip(row, paragraphs))] for row, paragraphs in zip(table.rows, body)] or [
        [Paragraph("no rows", style)] + [""] * (len(table.columns) - 1)
    ]
    pdf = Table([header, *rows], colWidths=widths, repeatRows=1)
    commands = [
        ("GRID", (0, 0), (-1, -1), 0.25, colors.grey), ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#EEEEEE")),
        ("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), CELL_PADDING),
        ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PADDING),
    ]
    if table.coloured_column is not None:
        column = table.coloured_column
        commands += [
            ("BACKGROUND", (column, number), (column, number), colors.HexColor(colours[row[column]]))
            for number, row in enumerate(table.rows, start=1) if row[column] in colours
        ]
    pdf.setStyle(TableStyle(commands))
    return pdf


def _column_widths(cells: list[list[Paragraph]], width: float) -> list[float]:
    """Column widths in points summing to `width`, much as a browser lays out a table: each column gets its share of
    the page up to its widest word (`Paragraph.minWidth`), then as much more toward its widest word (at most
    MAX_WORD_PAGE_SHARE of `width`) as the page allows, then toward the mean width of its cells on one line (each
    counted at most `width`, so one outsized title does not starve the reasons), the room shared in proportion to
    what each column lacks; room left over is shared in proportion to the widths."""
    columns = list(zip(*cells))
    padding = 2 * CELL_PADDING
    words = [max(cell.minWidth() for cell in column) + padding for column in columns]
    lines = [sum(min(width, max(_line_widths(cell))) for cell in column) / len(column) + padding for column in columns]
    widths = [min(word, width / len(columns)) for word in words]
    widths = _widened(widths, [min(word, MAX_WORD_PAGE_SHARE * width) for word in words], width)
    widths = _widened(widths, lines, width)
    return [column * width / sum(widths) for column in widths]


def _widened(widths: list[float], targets: list[float], width: float) -> list[float]:
    """`widths` raised toward `targets`, the room left in `width` shared in proportion to each one's shortfall."""
    shortfalls = [max(0.0, target - current) for current, target in zip(widths, targets)]
    room = width - sum(widths)
    share = min(1.0, room / sum(shortfalls)) if sum(shortfalls) and room > 0 else 0.0
    return [current + shortfall * share for current, shortfall in zip(widths, shortfalls)]


def _line_widths(paragraph: Paragraph) -> list[float]:
    """The widths in points of `paragraph`'s lines when it is not wrapped (ReportLab's own measure)."""
    paragraph.wrap(1e9, 1e9)
    return paragraph.getActualLineWidths0() or [0.0]


def _fitted(text: str, paragraph: Paragraph, width: float, max_height: float) -> Paragraph:
    """`paragraph` (of `text`) when it fits `width` x `max_height` points; otherwise a Paragraph of the longest start
    of `text` that fits with ELLIPSIS after it, cut at its last space unless that drops more than half of it (a text
    without spaces is cut where it must)."""
    if paragraph.wrap(width, max_height)[1] <= max_height:
        return paragraph
    style = paragraph.style

    def overflows(length: int) -> bool:
        return Paragraph(_pdf_markup(text[:length] + ELLIPSIS), style).wrap(width, max_height)[1] > max_height

    length = bisect.bisect_left(range(len(text)), True, key=overflows) - 1
    head = text[:max(length, 0)]
    words = head.rsplit(" ", 1)
    if len(words) == 2 and len(words[1]) < len(head) // 2:
        head = words[0]
    return Paragraph(_pdf_markup(head.rstrip() + ELLIPSIS), style)


def _register_pdf_fonts() -> None:
    """Register the PDF's fonts with ReportLab once: DejaVu Sans (embedded) and the CID fonts of CJK_FONTS."""
    registered = pdfmetrics.getRegisteredFontNames()
    if PDF_FONT not in registered:
        pdfmetrics.registerFont(TTFont(PDF_FONT, str(PDF_FONT_FILE)))
    for name in set(CJK_FONTS.values()) - set(registered):
        pdfmetrics.registerFont(UnicodeCIDFont(name))


def _pdf_markup(text: str) -> str:
    """`text` as ReportLab Paragraph mark-up that shows exactly it: escaped, runs of CJK characters in their CID font
    (CJK_FONTS), any character no PDF font draws as NO_GLYPH."""
    glyphs = pdfmetrics.getFont(PDF_FONT).face.charToGlyph

    def font(character: str) -> str | None:
        if ord(character) in glyphs:
            return PDF_FONT
        return CJK_FONTS.get(unicodedata.name(character, "").split(" ")[0])

    runs = []
    for name, characters in groupby(text, key=font):
        run = "".join(characters)
        if name is None:
            runs.append(NO_GLYPH * len(run))
        elif name == PDF_FONT:
            runs.append(escape(run))
        else:
            runs.append(f'<font name="{name}">{escape(run)}</font>')
    return "".join(runs)


def _evaluation_table(evaluation: pd.DataFrame) -> ReportTable:
    """Every measure of the default setting, one column per condition ('92% (50/54; 95% CI 82%-97%)')."""
    by = {(row["condition"], row["measure"]): measure_text(row) for _, row in evaluation.iterrows()}
    return ReportTable(
        ("measure", *CONDITIONS, "what it is"),
        [(measure, *(by.get((condition, measure), "n/a") for condition in CONDITIONS), meaning) for measure, meaning in MEASURES.items()],
    )


def _dispute_table(dispute_evaluation: pd.DataFrame) -> ReportTable:
    """The measures on the labelled dispute pairs, each with its target and whether it is met."""
    return ReportTable(
        ("dispute measure", "value", "target", "met", "what it is"),
        [
            (row["measure"], measure_text(row), _text(row["target"]), "" if pd.isna(row["met"]) else ("yes" if row["met"] else "no"), row["what"])
            for _, row in dispute_evaluation.iterrows()
        ],
    )


def _edge_counts(verdict) -> str:
    """'7, 4 with reliability >= 0.40': a verdict's edges and, of them, those its rules count as reliable (the
    sufficiency count, DOMAIN.md). Not the complement of the weak edges its staleness reason counts: those are labelled
    DECLINING or SUPERSEDED, at any reliability (a DECLINING edge to a superseded version can score 0.41)."""
    return f"{verdict.n_edges}, {verdict.n_reliable_edges} with reliability ≥ {verdict.reliable_bar:.2f}"


def _superseded_bar(lineage: pd.DataFrame) -> float | None:
    """The SUPERSEDED reliability bar the most edges were scored with (the lineage's first row), None without edges."""
    if lineage.empty:
        return None
    return ScoringSettings.model_validate_json(lineage["scoring_settings"].iloc[0]).thresholds.superseded_reliability


def _reliable_bar(verdict_rules: pd.DataFrame) -> float | None:
    """The reliable-evidence bar (VerdictRules.reliable) the most verdicts were given with (`report_verdict_rules`
    orders by verdicts), None without verdicts."""
    if verdict_rules.empty:
        return None
    return float(json.loads(verdict_rules["verdict_rules"].iloc[0])["reliable"])


def _flat_settings(settings_json: str) -> str:
    """'weights.centrality 0.4, weights.recency 0.3, ..., decay linear': a stored settings JSON, one line."""
    flat = pd.json_normalize(json.loads(settings_json))
    # Column by column: a row taken across columns would turn an integer setting into a float (3 -> 3.0).
    return ", ".join(f"{key} {flat[key].iloc[0]}" for key in flat.columns)


def _text(value: object) -> str:
    """A cell's text: '' for a missing value; control characters from the KG or OpenAlex (NUL, escape sequences)
    removed or replaced by a space, as on the console (`shared.display.terminal_text`)."""
    return "" if value is None or (not isinstance(value, (list, tuple)) and pd.isna(value)) else terminal_text(value)


def _join(*parts: object) -> str:
    return " ".join(text for text in map(_text, parts) if text)


def _number(value: object) -> str:
    return "n/a" if pd.isna(value) else f"{float(value):.2f}"


def _year(value: object) -> str:
    return "n.d." if pd.isna(value) else str(int(value))
