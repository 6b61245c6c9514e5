"""Parse quality of `paper_documents` (issue 22): the defects found on the real papers, one test row each.

1. Running heads and feet (journal name, running title, "Terms and Conditions" download notes, page numbers) were
   paragraph text and became keywords ("terms conditions").
2. Control and other invisible characters of a page's text layer (araki2025 prints its minus signs as U+0000, zou2018
   a symbol font's private-use glyphs) reached paragraphs, report cells and the PDF report.
3. A run-in heading ("Abstract. We use", "Abstract The", "Plain Language Summary How") was joined to its text.
4. A caption ran on into the body text after it (zou2018's data paragraph was its Figure 1 caption).
5. AGU's reference lists: the Acknowledgments heading set in the margin beside the list ended it, and entries whose
   text layer drops word spaces ("Akaike,H.(1974).") opened none (araki2025: 5 of 64 found; kim2022: 10 of 88).

The PDFs made here are drawn line by line with reportlab (each string one line of pypdf's text, at a known place on
its page): they test the parser's rules, they are not papers. The real papers are
recon_assets_tests/fixtures/papers/real (sources and licences in ../fixtures/papers/SOURCES.md).
"""

import io
from pathlib import Path

import pytest
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from recon_assets.papers.keywords import document_text, paper_keywords
from recon_assets.papers.parse import parse_pdf, running_lines, visible_text
from recon_assets.shared.display import hidden_characters

REAL = Path(__file__).parent / "fixtures" / "papers" / "real"


def _lines_pdf(pages: list[list[str]], head: tuple[str, ...] = (), foot: tuple[str, ...] = (), raw: str | None = None) -> bytes:
    """A PDF with one page per list, each string drawn as one line (Helvetica 9 pt, 13 pt apart), `head` above and
    `foot` below every page's lines ('{page}' and '{pages}' filled in); `raw`, PDF operators drawn after the first
    page's lines (a text string with bytes reportlab itself would replace)."""
    buffer = io.BytesIO()
    sheet = canvas.Canvas(buffer, pagesize=A4)
    for number, lines in enumerate(pages, start=1):
        sheet.setFont("Helvetica", 9)
        y = 810
        for text in head:
            sheet.drawString(50, y, text.format(page=number, pages=len(pages)))
            y -= 13
        for text in lines:
            y -= 13
            sheet.drawString(50, y, text)
        if raw and number == 1:
            sheet._code.append(raw)  # reportlab's content stream: bytes a drawString would encode away
        for offset, text in enumerate(foot):
            sheet.drawString(50, 40 - 13 * offset, text.format(page=number, pages=len(pages)))
        sheet.showPage()
    sheet.save()
    return buffer.getvalue()


TITLES = ("Introduction", "Study Area", "Drydown Model", "Results", "Discussion")


def _body(page: int) -> list[str]:
    return [
        f"{page + 1}. {TITLES[page]}",
        f"Soil moisture drydown events were fitted over the basin for season {page} with a nonlinear loss model.",
        f"The fitted exponent exceeds one over most grid cells in season {page}, so evapotranspiration slows as",
        "the soil dries.",
    ]


AGU_HEAD = ("Geophysical Research Letters 10.1029/2024GL111403",)
AGU_FOOT = (
    "ARAKI ET AL. {page} of {pages}",
    "Downloaded from https://agupubs.example.org/doi/10.1029/2024GL111403, Wiley Online Library. See the Terms and Conditions",
)


# 1. Running heads and feet.
@pytest.mark.parametrize(
    ("pages", "running"),
    [
        # MDPI: one head on every page, the page number in it
        ([[f"Remote Sens. 2018, 10, 650 {n} of 12", f"body text {'x' * n}"] for n in range(1, 13)], {"remote sens. , , of"}),
        # Copernicus: two heads, even and odd pages, each on half of them (RUNNING_PAGE_SHARE is a quarter)
        ([[f"{7090 + n} M. A. Olsen et al.: Tropospheric column ozone" if n % 2 else f"Atmos. Chem. Phys., 16, {7090 + n}, 2016", "x" * n]
          for n in range(1, 9)], {"m. a. olsen et al.: tropospheric column ozone", "atmos. chem. phys., , ,"}),
        # a line repeated on 2 of 8 pages is no running line (RUNNING_MIN_PAGES is 3)
        ([["Table 2 (continued)" if n < 2 else "y" * n, "x" * n] for n in range(8)], set()),
        # a caption's opening line set at several pages' tops is never one
        ([[f"Figure {n}.", "x" * n] for n in range(1, 6)], set()),
        # a line that repeats only mid-page (more than EDGE_LINES from either end) is kept
        ([[*(c * (n + 1) for c in "abcde"), "Latitude", *(c * (n + 1) for c in "fghij")] for n in range(5)], set()),
        # under RUNNING_MIN_PAGES pages nothing is dropped
        ([["Journal of Tests", "x"], ["Journal of Tests", "y"]], set()),
    ],
    ids=["mdpi-head", "copernicus-alternating", "two-pages-of-eight", "caption-label", "mid-page", "two-page-paper"],
)
def test_running_lines(pages, running):
    assert running_lines(pages) == running


def test_running_heads_feet_and_page_numbers_are_no_paragraph_text_nor_keywords():
    document = parse_pdf(_lines_pdf([_body(page) for page in range(4)], AGU_HEAD, AGU_FOOT))
    text = " ".join(p.text for p in document.paragraphs)
    for printed in ("Terms and Conditions", "Geophysical Research Letters", "ARAKI ET AL", "of 4", "Wiley"):
        assert printed not in text
    assert [s.title for s in document.sections] == ["1. Introduction", "2. Study Area", "3. Drydown Model", "4. Results"]
    assert all(p.text.startswith("Soil moisture drydown events") and p.text.endswith("the soil dries.") for p in document.paragraphs)
    terms = {k.term for k in paper_keywords(document_text(document), [], [], top=50)}
    assert not {t for t in terms if {"terms", "conditions", "wiley", "library", "downloaded", "geophysical"} & set(t.split())}


def test_a_real_paper_s_running_lines_are_dropped_and_no_keyword(araki2025):
    text = " ".join(p.text for p in araki2025.paragraphs)
    assert "Terms and Conditions" not in text and "ARAKIETAL" not in text and "Geophysical Research Letters 10.1029" not in text
    terms = {k.term for k in paper_keywords(document_text(araki2025), [], [], top=50)}
    assert not terms & {"terms conditions", "terms", "conditions", "wiley online", "online library", "onlinelibrary", "arakietal", "agupubs"}


# 2. Invisible characters.
@pytest.mark.parametrize(
    ("text", "visible"),
    [
        ("L(θ,t)=\x00 Δz", "L(θ,t)= Δz"),  # araki2025's minus sign
        ("a\x07b\x1b[31mc\x7fd\x85e", "a b [31mc d e"),  # C0, DEL, C1
        ("tab\there", "tab here"),
        ("line one\r\nline two\rline three", "line one\nline two\nline three"),
        ("zero\u200bwidth\u200c joiner\u200d word\u2060joiner \ufeffbom", "zerowidth joiner wordjoiner bom"),
        ("bidi \u202eoverride\u202c and \u2066isolate\u2069 \u061c\u200e\u200fmarks", "bidi override and isolate marks"),
        ("T(d) = \uf071 \uf03d T0", "T(d) = T0"),  # zou2018: a symbol font's private-use glyphs
        ("evapo\u00ad\ntranspiration, soft\u00adhyphen", "evapo-\ntranspiration, softhyphen"),
        ("Unchanged: ±2σ, 0.05°, “quotes”, N–S, \xa0space", "Unchanged: ±2σ, 0.05°, “quotes”, N–S, \xa0space"),
    ],
    ids=["nul-minus", "c0-del-c1", "tab", "cr-lf", "zero-width", "bidi", "private-use", "soft-hyphen", "visible-kept"],
)
def test_visible_text(text, visible):
    assert visible_text(text) == visible
    assert not [c for c in hidden_characters(visible_text(text)) if c != "U+000A"]


def _parts(document) -> list[str]:
    return [s.title for s in document.sections] + [p.text for p in document.paragraphs] + [r.text for r in document.references] + [c.text for c in document.captions]


def test_control_characters_of_a_text_layer_reach_no_part_of_the_document():
    raw = "BT /F1 9 Tf 50 600 Td (Bell\\007 nul\\000 escape\\033 delete\\177 end of the line.) Tj ET"
    document = parse_pdf(_lines_pdf([_body(0)], raw=raw))
    assert any("Bell nul escape delete end of the line." in p.text for p in document.paragraphs)
    assert not [part for part in _parts(document) if hidden_characters(part)]


@pytest.mark.parametrize("paper", ["araki2025", "zou2018"])
def test_a_real_paper_s_invisible_characters_reach_no_part_of_it(paper, request):
    # araki2025 prints 36 U+0000, zou2018 10 private-use glyphs (U+F071 ...) in their text layers
    document = request.getfixturevalue(paper)
    assert not [part[:80] for part in _parts(document) if hidden_characters(part) or any("\ue000" <= c <= "\uf8ff" for c in part)]


# 3. Run-in headings.
@pytest.mark.parametrize(
    ("line", "heading"),
    [
        ("Abstract. We evaluate satellite precipitation against 40 gauges over the basin.", "Abstract"),  # Copernicus
        ("Abstract: We evaluate satellite precipitation against 40 gauges over the basin.", "Abstract"),  # MDPI
        ("Abstract We evaluate satellite precipitation against 40 gauges over the basin.", "Abstract"),  # AGU
        ("Plain Language Summary We evaluate satellite precipitation against 40 gauges.", "Plain Language Summary"),
        ("Abstract thinking: we evaluate satellite precipitation against 40 gauges.", None),  # no heading
    ],
    ids=["copernicus", "mdpi", "agu", "agu-summary", "a-word-not-a-heading"],
)
def test_a_run_in_heading_is_its_own_section(line, heading):
    document = parse_pdf(_lines_pdf([["Satellite precipitation over a test basin", line, *_body(0)]]))
    titles = [s.title for s in document.sections]
    assert titles == ([heading] if heading else []) + ["1. Introduction"]
    if heading:
        under = [p for p in document.paragraphs if p.section == heading]
        assert len(under) == 1 and under[0].text.startswith("We evaluate satellite precipitation")
    else:
        assert any(p.text.endswith(line) and p.section == "" for p in document.paragraphs)


def test_an_abstract_number_in_a_reference_list_is_no_heading():
    # AGU meeting abstracts are cited as "Abstract H21A-01": past the first RUN_IN_PAGES pages no run-in heading is read
    pages = [_body(0), _body(1), [
        "References",
        "Smith, J. (2010). Rain over the test basin from satellites. Eos Trans. AGU, 91(52), Fall Meet. Suppl.,",
        "Abstract H21A-01.",
        "Jones, K. (2011). Gauges of the test basin. Journal of Tests, 3, 1-9.",
    ]]
    document = parse_pdf(_lines_pdf(pages))
    assert [s.title for s in document.sections] == ["1. Introduction", "2. Study Area", "References"]
    assert [r.text[:5] for r in document.references] == ["Smith", "Jones"] and document.references[0].text.endswith("Abstract H21A-01.")


def test_a_real_paper_s_abstract_is_its_own_section(zou2018, araki2025):
    abstract = [p for p in zou2018.paragraphs if p.section == "Abstract"]
    assert abstract and abstract[0].text.startswith("Satellite thermal remote sensing provides land surface temperatures")
    assert [s.title for s in araki2025.sections][:3] == ["Abstract", "Plain Language Summary", "1. Introduction"]


# 4. Captions end where the body text starts again.
CAPTION_PAGE = [
    "2.1. Study Area and Data",
    "The Yangtze River Delta was chosen as the study area as this region is characterized by diverse",
    "terrains and land cover types and therefore suitable for the test of annual temperature cycles.",
    "Figure 1. Information on the study area (the Yangtze River Delta, YRD). (a-c) denote the general",
    "location, digital elevation model, and land cover type map, respectively.",
    "The satellite data used in this study are from the MODIS collection-5 products generated in four",
    "years ranging from 2010 to 2013: the daily land surface temperature product MYD11A1 and the",
    "sixteen-day NDVI product MYD13A2, both at the spatial resolution of one kilometre over the delta.",
    "Table 1. Seasonal mean percentages (%) of valid LST data over the YRD from 2010 to 2013.",
    "Season Spring Summer Autumn Winter",
    "Day 31.5 17.6 31.1 24.5",
    "Data from Table 1 show that the summer has the fewest clear-sky observations of the four seasons.",
]


def test_a_caption_ends_where_the_body_text_starts_again():
    document = parse_pdf(_lines_pdf([CAPTION_PAGE]))
    assert [(c.kind, c.label) for c in document.captions] == [("figure", "1"), ("table", "1")]
    assert document.captions[0].text.endswith("land cover type map, respectively.")
    assert document.captions[1].text.endswith("over the YRD from 2010 to 2013.")
    assert not [c for c in document.captions if "MYD11A1" in c.text or "clear-sky" in c.text]
    data = [p for p in document.paragraphs if p.text.startswith("The satellite data used in this study")]
    assert data and data[0].section == "2.1. Study Area and Data" and "MYD13A2" in data[0].text
    # a paragraph that starts with "Data" and names a table is body text: only a "Figure N" / "Table N" label opens a caption
    assert any(p.text.endswith("the fewest clear-sky observations of the four seasons.") for p in document.paragraphs)


def test_a_real_paper_s_data_paragraph_is_no_caption(zou2018):
    assert not [c.label for c in zou2018.captions if "collection-5" in c.text or "MYD11A1" in c.text]
    figure = [c for c in zou2018.captions if (c.kind, c.label) == ("figure", "1")]
    assert figure and all(c.text.endswith("land cover type map, respectively.") for c in figure)
    data = [p for p in zou2018.paragraphs if "(MODIS) collection-5 products" in p.text]
    assert data and {p.section for p in data} == {"2.1. Study Area and Data"}


# 5. AGU reference lists.
REFERENCE_PAGES = [
    [
        *_body(0),
        "References",
        "Akaike,H.(1974).Anewlookatthestatisticalmodelidentification.IEEETransactionsonAutomaticControl,19(6),716-723.https://doi.org/10.",
        "1109/tac.1974.1100705",
        "Allred, B. W., Bestelmeyer, B. T., Boyd, C. S., et al. (2021). Improving Landsat predictions of rangeland fractional",
        "cover with multitask learning and uncertainty. Methods in Ecology and Evolution, 12(5), 841-849. https://doi.org/10.1111/",
        "2041-210x.13564",
        "Araki,R.,Morgan,B.,McMillan,H.,&Caylor,K.(2025).RY4GIT/smap-drydown:v1.0.Zenodo.https://doi.org/10.",
        "5281/ZENODO.14532741",
        "Acknowledgments",
        "Morgan and Caylor were supported by a grant from the Zegar Family Foundation.",
        "We thank Andrew Feldman and an anonymous reviewer for their valuable feedback.",
    ],
    [
        "Laio,F.,Porporato,A.,Ridolfi,L.,&Rodriguez-Iturbe,I.(2001).Plantsinwater-controlledecosystems.AdvancesinWater",
        "Resources,24(7),707-723.https://doi.org/10.1016/s0309-1708(01)00005-7",
        "WMO. (2009). Manual on estimation of probable maximum precipitation (PMP). World Meteorological Organization.",
        "O'Gorman, P. A., & Schneider, T. (2009). The physical basis for increases in precipitation extremes. Proceedings",
        "of the National Academy of Sciences, 106(35), 14773-14777. https://doi.org/10.1073/pnas.0907610106",
    ],
]


def test_an_agu_reference_list_resumes_after_the_acknowledgments_beside_it():
    document = parse_pdf(_lines_pdf(REFERENCE_PAGES))
    assert [r.text.split("(")[0].split(",")[0].rstrip(". ") for r in document.references] == ["Akaike", "Allred", "Araki", "Laio", "WMO", "O'Gorman"]
    assert [r.doi for r in document.references] == [
        "10.1109/tac.1974.1100705", "10.1111/2041-210x.13564", "10.5281/zenodo.14532741", "10.1016/s0309-1708(01)00005-7", None,
        "10.1073/pnas.0907610106",
    ]
    assert [r.page for r in document.references] == [1, 1, 1, 2, 2, 2]
    assert not [r for r in document.references if "Zegar" in r.text or "reviewer" in r.text]
    assert [p.text[:22] for p in document.paragraphs if p.section == "Acknowledgments"] == ["Morgan and Caylor were"]
    assert [s.title for s in document.sections] == ["1. Introduction", "References", "Acknowledgments"]


@pytest.mark.parametrize(("paper", "found", "own"), [("araki2025", 64, 64), ("kim2022", 88, 88)])
def test_a_real_agu_paper_s_references_are_found(paper, found, own, request):
    # before: araki2025 5 of its 64, kim2022 10 of its 88 (papers.csv's own counts)
    document = request.getfixturevalue(paper)
    assert len(document.references) == found == own
    assert sum(r.doi is not None for r in document.references) >= 0.85 * own
    assert not [r.text[:60] for r in document.references if "Acknowledgments" in r.text or "supported by" in r.text]


@pytest.fixture(scope="module")
def araki2025():
    return parse_pdf((REAL / "araki2025_grl_smap_drydown.pdf").read_bytes())


@pytest.fixture(scope="module")
def zou2018():
    return parse_pdf((REAL / "zou2018_remotesensing_atc_modis_c5.pdf").read_bytes())


@pytest.fixture(scope="module")
def kim2022():
    return parse_pdf((REAL / "kim2022_earths_future_tpw_extremes.pdf").read_bytes())


# 6. A table's numbered rows after a heading ("3 Evergreen broadleaf forest" after "2.3. Description of SMART") took
# the chapter numbers, so the paper's own "3. Results and Discussion" no longer followed (kim2020: 10 of its 15).
@pytest.mark.parametrize(
    ("rows", "sections"),
    [
        (["3 Evergreen broadleaf forest", "4 Deciduous broadleaf forest"], ["1. Introduction", "2. Data", "3. Results"]),
        (["3. Evergreen Broadleaf Forest"], ["1. Introduction", "2. Data", "3. Evergreen Broadleaf Forest"]),  # written as a heading: taken
    ],
    ids=["undotted-rows-after-dotted-headings", "dotted-row"],
)
def test_a_numbered_heading_writes_its_number_as_the_paper_s_do(rows, sections):
    lines = ["1. Introduction", *_body(0)[1:], "2. Data", *_body(1)[1:], *rows, "3. Results", *_body(2)[1:]]
    assert [s.title for s in parse_pdf(_lines_pdf([lines])).sections] == sections


def test_a_real_paper_s_table_rows_are_no_headings():
    document = parse_pdf((REAL / "kim2020_remotesensing_smart_lai.pdf").read_bytes())
    titles = [s.title for s in document.sections]
    assert len(titles) == 15 and "3. Results and Discussion" in titles and "4. Conclusions" in titles
    assert not [t for t in titles if "forest" in t or "shrublands" in t]


# 7. A heading naming a chemical formula was taken for a table row ("4.3 Verification of HNO3", skachko2016; "3.1
# Methane (CH4)", siskind2016), and a sentence's last word on a line of its own for a named heading ("data.").
def test_formula_headings_are_headings_and_a_lower_case_word_is_none():
    lines = [
        "1 Introduction", *_body(0)[1:3], "data.", "2 Verification of HNO3", *_body(1)[1:3], "2.1 Methane (CH4)", *_body(2)[1:],
        "3 MOD13Q1 250m 16-day", "4 CARD32 ALIAS_LIST_OFFSET",
    ]
    assert [s.title for s in parse_pdf(_lines_pdf([lines])).sections] == ["1 Introduction", "2 Verification of HNO3", "2.1 Methane (CH4)"]
