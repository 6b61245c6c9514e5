"""The reliability report of the sample run (HTML page, PDF, plots, metadata), its escaping of KG text, and the label
comparisons `recon explain` prints."""

import base64
import io
import json
import re
from datetime import date
from pathlib import Path

import dagster as dg
import duckdb
import pandas as pd
import pytest
from pypdf import PdfReader

from recon_assets.cli.main import explain_doi
from recon_assets.exports import export_folder
from recon_assets.reliability.label_comparisons import label_comparisons
from recon_assets.reliability.labels import LABELS
from recon_assets.report import report_folder
from recon_assets.report.assets import reliability_report
from recon_assets.report.data import gather_report
from recon_assets.report.render import REPORT_SUFFIXES, write_report
from recon_assets.shared.as_of import AsOfDate
from recon_assets.storage.output_files import LATEST_REPORT_STEM
from recon_assets.shared.sql_files import load_sql
from recon_assets.storage.duckdb_store import TableStore
from recon_assets.storage.outputs import OutputFiles
from recon_assets_tests.pipeline_runs import AS_OF

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _report_metadata(sample_run) -> dict:
    event = sample_run.instance.get_latest_materialization_event(dg.AssetKey("reliability_report"))
    return {key: value.value for key, value in event.asset_materialization.metadata.items()}


def test_the_sample_run_writes_a_self_contained_report_whose_figures_are_the_tables(sample_run):
    metadata = _report_metadata(sample_run)
    html_path, pdf_path = Path(metadata["html"]), Path(metadata["pdf"])
    # One folder per database (review finding: docs/OPERATIONS.md's data/recon.duckdb and data/real.duckdb shared one
    # reports/ folder, and each run overwrote the other's reliability_report_latest), named by the database's file name.
    reports = sample_run.database.resolve().parent / "reports" / sample_run.database.name
    assert html_path.parent == pdf_path.parent == reports
    assert metadata["earlier_runs_removed"] == 0  # the first run: nothing earlier
    assert html_path.name.startswith(f"reliability_report_{AS_OF}_") and pdf_path.suffix == ".pdf"
    assert metadata["latest_html"] == (reports / f"{LATEST_REPORT_STEM}.html").as_uri()
    assert (reports / f"{LATEST_REPORT_STEM}.html").read_bytes() == html_path.read_bytes()
    html = html_path.read_text(encoding="utf-8")

    # Self-contained: every image is a data URI, nothing is fetched.
    assert re.search(r'(?:src|href)="(?!data:)', html) is None and "<link" not in html and "<script" not in html
    images = re.findall(r'src="data:image/png;base64,([^"]+)"', html)
    assert len(images) == 3 and all(base64.b64decode(image).startswith(PNG_SIGNATURE) for image in images)
    for name in ("label_distribution", "reliability_histogram", "evaluation"):
        png = Path(metadata[f"figure_{name}"])
        assert png.stat().st_size > 1000 and png.read_bytes().startswith(PNG_SIGNATURE)

    # Labels per research area: the page's table is the SQL count of edge_reliability.
    expected = pd.DataFrame(
        sample_run.query("SELECT research_area, label, count(*) FROM edge_reliability GROUP BY ALL"), columns=["area", "label", "n"]
    ).pivot_table(index="area", columns="label", values="n", fill_value=0).reindex(columns=list(LABELS), fill_value=0)
    tables = pd.read_html(io.StringIO(html))
    shown = tables[0].set_index("research area")[list(LABELS)]
    assert shown.sort_index().astype(int).equals(expected.sort_index().astype(int).rename_axis("research area").rename_axis(None, axis=1))
    edges = sample_run.query("SELECT count(*) FROM edge_reliability")[0][0]
    assert metadata["edges"] == edges and isinstance(metadata["edges"], int)
    # Review finding: "in 8 research areas" read against the log's 22 partitions; both are named now.
    assert f"{edges} scored Dataset→Publication edges in {len(expected)} of the 22 research-area partitions" in html
    assert metadata["database"] == str(sample_run.database)
    assert {label: metadata[f"edges_{label}"] for label in LABELS} == {
        label: int(expected[label].sum()) for label in LABELS
    }

    # STALE and CONTRADICTED verdicts with why; the most central SUPERSEDED edges.
    flagged = sample_run.query(
        "SELECT count(*) FROM dataset_verdicts WHERE verdict IN ('STALE', 'CONTRADICTED')"
    )[0][0]
    assert f"Of the {flagged} STALE or CONTRADICTED" in html
    verdict_table = next(table for table in tables if "why contradicted" in table.columns)
    assert len(verdict_table) == min(flagged, 50) and set(verdict_table["verdict"]) <= {"STALE", "CONTRADICTED"}
    contradicted = sample_run.query(
        "SELECT contradiction_reason FROM dataset_verdicts WHERE verdict = 'CONTRADICTED' ORDER BY n_edges DESC LIMIT 1"
    )[0][0]
    assert contradicted in set(verdict_table["why contradicted"])
    # Issue 24: '7 (4)' under 'edges (reliable)' stood beside '7 of 7 assessed edges weak': the cell says what it counts
    counts = sample_run.query(load_sql("report_flagged_verdicts"), [["STALE", "CONTRADICTED"], 50])
    assert list(verdict_table["edges"]) == [f"{row[5]}, {row[6]} with reliability ≥ 0.40" for row in counts]
    superseded = sample_run.query(
        "SELECT count(*), max(centrality) FROM edge_reliability WHERE label = 'SUPERSEDED'"
    )[0]
    assert f"{superseded[0]} edges are SUPERSEDED" in html and metadata["superseded_edges"] == superseded[0]
    edge_table = next(table for table in tables if "centrality" in table.columns and "reason" in table.columns)
    assert f"{edge_table['centrality'].iloc[0]:.2f}" == f"{superseded[1]:.2f}"

    # The evaluation beside its base rate, and the lineage.
    base_rate = sample_run.query(
        "SELECT numerator, denominator FROM reliability_evaluation WHERE is_default AND split = 'all' "
        "AND condition = 'offline' AND measure = 'base_rate'"
    )[0]
    assert f"({base_rate[0]}/{base_rate[1]};" in html
    snapshot = sample_run.query("SELECT DISTINCT snapshot_id FROM edge_reliability")[0][0]
    judge = sample_run.query("SELECT DISTINCT judge FROM coherence_judgements")[0][0]
    assert snapshot in html and judge in html and "weights.centrality 0.4" in html
    # the judges' pairs beside those that state a stance (the others are read, but no evidence)
    judges = next(table for table in tables if "coherence judge" in table.columns)
    pairs, stance = sample_run.query("SELECT count(*), count(*) FILTER (verdict <> 'UNVERIFIED') FROM coherence_judgements")[0]
    assert (judges["judged pairs"].sum(), judges["of them with a stance"].sum()) == (pairs, stance) and 0 < stance < pairs

    # The PDF: a real PDF whose pages say the same.
    reader = PdfReader(pdf_path)
    assert len(reader.pages) == metadata["pdf_pages"] >= 2
    text = "".join(page.extract_text() for page in reader.pages)
    assert f"{edges} scored Dataset→Publication edges" in text and snapshot in text and f"Of the {flagged} STALE" in text


HOSTILE_TITLE = "<script>alert('x')</script> {{ 7*7 }} {% raw %}"
HOSTILE_REASON = "<img src=x onerror=alert(1)> & {{ config }}"


def test_kg_text_in_the_report_is_data_never_markup(sample_run, tmp_path):
    database = sample_run.copy_database(
        tmp_path / "hostile.duckdb",
        f"UPDATE publications SET title = '{HOSTILE_TITLE.replace(chr(39), chr(39) * 2)}' WHERE publication_id IN "
        "(SELECT publication_id FROM edge_reliability WHERE label = 'SUPERSEDED'); "
        f"UPDATE dataset_verdicts SET staleness_reason = '{HOSTILE_REASON}' WHERE verdict = 'STALE'; "
        # Hostile finding: NUL, SOH and ANSI colour codes from the KG reached the page as raw bytes.
        "UPDATE dataset_verdicts SET contradiction_reason = 'nul' || chr(0) || 'byte' || chr(1) || chr(27) || '[31mred' "
        "|| chr(27) || '[0m GRACE' WHERE verdict IN ('STALE', 'CONTRADICTED')",
    )
    with duckdb.connect(str(database), read_only=True) as con:
        data = gather_report(con, as_of=date.fromisoformat(AS_OF), run_id="hostile")
    files = write_report(data, tmp_path / "reports")
    html = files.html.read_text(encoding="utf-8")
    assert "<script" not in html and "<img src=x" not in html
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; {{ 7*7 }} {% raw %}" in html
    assert "&lt;img src=x onerror=alert(1)&gt; &amp; {{ config }}" in html
    assert "nul byte red GRACE" in html and not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", html)
    text = "".join(page.extract_text() for page in PdfReader(files.pdf).pages)
    assert "<script>alert('x')</script>" in text.replace("\n", " ") and "{{ config }}" in text


def test_explain_shows_the_comparisons_that_decided_each_label(sample_run, capsys):
    assert explain_doi("https://doi.org/10.3390/RS12081239", sample_run.database) == 0
    out = capsys.readouterr().out
    assert (
        "why DECLINING: not SUPERSEDED: no judged contradiction, judged supersession or standing dispute | not FOUNDATIONAL: "
        "centrality 0.55 < 0.6 on evidence, field percentile 0.989 < 0.99, age 6 < 10 | negative signal superseded_version "
        "-> DECLINING"
    ) in out


def test_label_comparisons_conclude_every_stored_label_of_the_sample(sample_run):
    with duckdb.connect(str(sample_run.database), read_only=True) as con:
        rows = con.execute("SELECT * FROM edge_reliability").df()
    lines = label_comparisons(rows)
    assert len(lines) == len(rows) and not any("these rules give" in line for line in lines)
    for label, line in zip(rows["label"], lines):
        assert line.endswith(f"-> {label}")
    superseded = [line for label, line in zip(rows["label"], lines) if label == "SUPERSEDED"]
    assert superseded and all(re.search(r"reliability 0\.\d+ < 0\.35 with ", line) for line in superseded)


@pytest.mark.parametrize(
    ("thresholds", "expected"),
    [
        # The run's own settings are read: a lower FOUNDATIONAL bar turns the comparison round.
        ({"foundational_centrality": 0.5}, "centrality 0.55 >= 0.5 on evidence -> FOUNDATIONAL (these rules give FOUNDATIONAL, not the stored DECLINING"),
        (None, "(default thresholds: the stored scoring settings are not readable)"),
    ],
)
def test_explain_compares_with_the_thresholds_the_edge_was_scored_with(sample_run, tmp_path, capsys, thresholds, expected):
    settings = json.loads(sample_run.query("SELECT any_value(scoring_settings) FROM edge_reliability")[0][0])
    if thresholds:
        settings["thresholds"].update(thresholds)
    stored = json.dumps(settings) if thresholds else '{"weights": "not a settings object"}'
    database = sample_run.copy_database(
        tmp_path / "settings.duckdb", f"UPDATE edge_reliability SET scoring_settings = '{stored}'"
    )
    assert explain_doi("10.3390/rs12081239", database) == 0
    assert expected in capsys.readouterr().out


def test_lineage_settings_keep_integers_as_integers():
    """New-user finding: the verdict rules' integer settings printed as floats (min_edges 3.0) in the lineage."""
    from recon_assets.report.render import _flat_settings

    assert _flat_settings('{"min_edges": 3, "weights": {"centrality": 0.4}, "decay": "linear"}') == (
        "min_edges 3, decay linear, weights.centrality 0.4"
    )


def test_two_databases_in_one_folder_keep_their_own_reports_and_exports(tmp_path: Path) -> None:
    # docs/OPERATIONS.md's two databases in data/, and recon.db beside recon.duckdb (issue 23: it shared reports/recon/)
    names = ("recon.duckdb", "real.duckdb", "recon.db")
    assert [report_folder(tmp_path / name) for name in names] == [tmp_path.resolve() / "reports" / name for name in names]
    assert [export_folder(tmp_path / name) for name in names] == [tmp_path.resolve() / "exports" / name for name in names]


def _report_resources(database: Path) -> dict:
    return {"store": TableStore(database=str(database)), "outputs": OutputFiles(database=str(database)), "as_of": AsOfDate(as_of=AS_OF)}


def test_reports_keep_the_latest_run_and_recon_keep_outputs_earlier_ones(sample_run, tmp_path, monkeypatch):
    """Issue 23: each `recon run` added another report, never removed. With RECON_KEEP_OUTPUTS=1, three runs leave the
    newest run's page, PDF and plots, one earlier run's, and the latest copies (of the newest)."""
    monkeypatch.setenv("RECON_KEEP_OUTPUTS", "1")
    database = sample_run.copy_database(tmp_path / "recon.duckdb")
    runs = [dg.materialize([reliability_report], resources=_report_resources(database)) for _ in range(3)]
    folder = report_folder(database)
    stems = [f"reliability_report_{AS_OF}_{run.run_id[:8]}" for run in runs]
    assert {path.name for path in folder.iterdir()} == {f"{stem}{suffix}" for stem in stems[1:] for suffix in REPORT_SUFFIXES} | {
        f"{LATEST_REPORT_STEM}.html", f"{LATEST_REPORT_STEM}.pdf"
    }
    assert (folder / f"{LATEST_REPORT_STEM}.pdf").read_bytes() == (folder / f"{stems[-1]}.pdf").read_bytes()
    metadata = runs[-1].asset_materializations_for_node("reliability_report")[0].metadata
    assert (metadata["earlier_runs_kept"].value, metadata["earlier_runs_removed"].value) == (1, 1)


# Issue 24: a 10,000-character title failed the PDF step (ReportLab LayoutError) and the tables split words and numbers
# ("CO/NT/RA/DIC/TED", "20/14", "0./27"). Every title the KG can hold: shortened with an ellipsis in a PDF cell, whole
# in the HTML page.
LONG_TITLE = "Drought " * 1250  # 10,000 characters with spaces, no digit (digits are checked whole below)
UNSPACED_TITLE = "x" * 10_000
LONG_REASON = "stale reason " * 770
ANY_TEXT_TITLES = {
    "long": LONG_TITLE,
    "unspaced": UNSPACED_TITLE,
    "rtl": "שלום עולם مرحبا بالعالم",
    "cjk": "中文标题 日本語のタイトル 한국어 제목",
    "emoji": "Sea ice 🌍🛰 from orbit",
    "control": "nul\x00byte \x1b[31mred\x1b[0m bell\x07over\u202eride",
}


def _superseded_with_titles(con: duckdb.DuckDBPyConnection, titles) -> list[str]:
    """Give the first len(titles) scored publications these titles and make their edges SUPERSEDED (the report lists
    SUPERSEDED edges with their titles); their publication ids, in that order."""
    titles = list(titles)
    publications = [row[0] for row in con.execute(
        "SELECT DISTINCT publication_id FROM edge_reliability ORDER BY 1 LIMIT ?", [len(titles)]
    ).fetchall()]
    con.execute("UPDATE edge_reliability SET label = 'SUPERSEDED' WHERE list_contains(?, publication_id)", [publications])
    for publication_id, title in zip(publications, titles, strict=True):
        con.execute("UPDATE publications SET title = ? WHERE publication_id = ?", [title, publication_id])
    return publications


def test_any_text_renders_in_the_pdf_with_words_and_numbers_whole(sample_run, tmp_path):
    database = sample_run.copy_database(tmp_path / "any_text.duckdb")
    with duckdb.connect(str(database)) as con:
        # the report lists SUPERSEDED edges with their titles: six publications' edges made SUPERSEDED to show them
        _superseded_with_titles(con, ANY_TEXT_TITLES.values())
        con.execute("UPDATE dataset_verdicts SET dataset_short_name = ?, staleness_reason = ? WHERE verdict = 'STALE'",
                    [UNSPACED_TITLE, LONG_REASON])
        data = gather_report(con, as_of=date.fromisoformat(AS_OF), run_id="any-text")
    assert set(ANY_TEXT_TITLES.values()) <= set(data.central_superseded["title"])
    files = write_report(data, tmp_path / "reports")

    html = files.html.read_text(encoding="utf-8")
    for name, title in ANY_TEXT_TITLES.items():
        if name != "control":
            assert title.strip() in html, name  # whole on the page
    assert "nul byte red bell over ride" in html and LONG_REASON.strip() in html and UNSPACED_TITLE in html

    text = "".join(page.extract_text() for page in PdfReader(files.pdf).pages)
    words = text.split()
    ellipsis = "\N{HORIZONTAL ELLIPSIS}"
    assert f"Drought Drought{ellipsis}" in text.replace("\n", " ") and text.count("Drought") < 1250
    # a shortened title keeps its publication's DOI (it was cut off with the title's end)
    assert all(f"{doi}:" in text.replace("\n", "") for doi in data.central_superseded["publication_doi"].dropna())
    assert re.search(f"stale reason stale( reason)?{ellipsis}", text.replace("\n", " "))
    unspaced = [run.replace("\n", "") for run in re.findall(r"x{20}[x\n]*", text)]  # broken where it must be
    assert unspaced and all(len(run) < len(UNSPACED_TITLE) for run in unspaced)
    assert {"עולם", "بالعالم"} <= set(words) | {word[::-1] for word in words}  # right-to-left, in either reading order
    assert {"中文标题", "日本語のタイトル", "한국어", "제목"} <= set(words)  # CJK: kept as text by the CID fonts
    assert "Sea ice \ufffd\ufffd from orbit" in text.replace("\n", " ")  # no PDF font draws an emoji: U+FFFD
    assert "nul byte red bell over ride" in text.replace("\n", " ") and not re.search(r"[\x00-\x08\x0b-\x1f\x7f]", text)

    # Numbers and label words are whole tokens, as often as the tables hold them, never split across lines.
    edges = data.central_superseded
    expected = [
        "SUPERSEDED"] * len(edges) + [str(int(year)) for year in edges["publication_year"].dropna()] + [
        f"{value:.2f}" for value in (*edges["centrality"], *edges["reliability"])
    ] + list(data.flagged_verdicts["verdict"]) + [str(int(count)) for count in data.lineage["edges"]] + [
        f"{day:%Y-%m-%d}" for day in data.lineage["as_of"]]
    for token in set(expected):
        assert words.count(token) >= expected.count(token), token
        # the old PDF read back 'CO\nNT\nRA\nDIC\nTED', '20\n14', '0.\n27', '16\n4', '2026-11-2\n9'
        split = r"(?<![\w.])" + "\n?".join(map(re.escape, token)) + r"(?![\w.])"
        assert not [found for found in re.findall(split, text) if "\n" in found], token


# Issue 24, left over: a publication title made only of combining characters was reported to collapse the "most
# central SUPERSEDED edges" table and split the words of other cells. Zero-width text measures 0 points in the column
# widths (ReportLab's stringWidth, through Paragraph.minWidth and the line widths), so it cannot take room from the
# other columns: these rows hold that, with and without the publication's DOI in the cell.
ZERO_WIDTH_TITLES = {
    "combining only": "\u0301" * 300,
    "combining only, spaced": "\u0301\u0302 " * 1500,
    "zero-width characters": "\u200b\u200d\u2060\ufeff" * 300,
    "combining only, no DOI": "\u0308" * 2000,
}


def test_a_title_of_combining_or_zero_width_characters_leaves_the_other_cells_words_whole(sample_run, tmp_path):
    database = sample_run.copy_database(tmp_path / "zero_width.duckdb")
    with duckdb.connect(str(database)) as con:
        publications = _superseded_with_titles(con, ZERO_WIDTH_TITLES.values())
        con.execute("UPDATE edge_reliability SET publication_doi = NULL WHERE publication_id = ?", [publications[-1]])
        data = gather_report(con, as_of=date.fromisoformat(AS_OF), run_id="zero-width")
    rows = data.central_superseded[data.central_superseded["title"].isin(ZERO_WIDTH_TITLES.values())]
    assert set(rows["title"]) == set(ZERO_WIDTH_TITLES.values())
    files = write_report(data, tmp_path / "reports")

    text = "".join(page.extract_text() for page in PdfReader(files.pdf).pages)
    table = text[text.index("The most central SUPERSEDED edges"):text.index("Evaluation on the labelled cases")]
    words = table.split()
    # every word of the other cells of these rows, as often as they hold it, never split across lines
    expected = [
        word for row in rows.itertuples()
        for cell in ("SUPERSEDED", str(int(row.publication_year)), row.dataset_short_name, row.research_area,
                     f"{row.centrality:.2f}", f"{row.reliability:.2f}", row.reason)
        for word in str(cell).split()
    ]
    for word in set(expected):
        assert words.count(word) >= expected.count(word), word
        if len(word) >= 4:
            split = r"(?<![\w.])" + "\n?".join(map(re.escape, word)) + r"(?![\w.])"
            assert not [found for found in re.findall(split, table) if "\n" in found], word
    # the DOIs of the rows that have one stay whole beside their title
    assert all(f"{doi}:" in table.replace("\n", "") for doi in rows["publication_doi"].dropna())


def test_a_condition_with_no_rate_measured_says_so_and_why_in_the_plot(monkeypatch):
    """Issue 24: offline (no OpenAlex record), the online half of the evaluation plot was an empty panel with a row of
    small 'not measured (0 cases)'; it says in one note that nothing was measured and why."""
    from recon_assets.report import figures

    drawn = []
    monkeypatch.setattr(figures, "_png", drawn.append)  # keep the figure to read its texts
    rows = [("online", "base_rate", 0.52, 0.45, 0.6)] + [("online", m, None, None, None) for m in figures.PLOTTED_RATES] + [
        ("offline", measure, None if measure == "retraction_catch" else 0.5, 0.4, 0.6) for measure in figures.PLOTTED_RATES
    ]
    figures.evaluation_png(pd.DataFrame(rows, columns=["condition", "measure", "value", "ci_low", "ci_high"]))
    online, offline = drawn[0].axes
    assert [text.get_text() for text in online.texts] == ["not measured\n(no labelled I or F case has a citation record as of as_of)"]
    assert [text.get_text() for text in offline.texts] == ["not measured (0 cases)"]  # the one rate without cases


def test_the_histogram_draws_the_superseded_and_the_reliable_evidence_bars_each_named(monkeypatch):
    """New-user passes (2026-12-04, 12-05): the report's "SUPERSEDED bar 0.35" and `recon explain`'s "0.40 bar" read
    as one bar; the histogram draws and names both, and the section says what each decides."""
    from recon_assets.report import figures

    drawn = []
    monkeypatch.setattr(figures, "_png", drawn.append)
    figures.reliability_histogram_png(pd.DataFrame({"reliability": [0.2, 0.5], "label": ["SUPERSEDED", "CURRENT"]}), 0.35, 0.4)
    (axes,) = drawn[0].axes
    bars = {line.get_label(): (line.get_xdata()[0], line.get_linestyle()) for line in axes.get_lines()}
    assert bars == {"SUPERSEDED bar 0.35": (0.35, "--"), "reliable-evidence bar 0.40 (verdicts)": (0.4, ":")}
    assert {text.get_text() for text in axes.get_legend().get_texts()} >= set(bars)
