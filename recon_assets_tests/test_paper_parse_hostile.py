"""Hostile inputs to the paper parse, quote, dataset and claim-verdict code (issue 22): each row an input that broke it
(a crash, text lost without a stated reason, or cost quadratic in the input's length), made up for the rule it breaks.

Time bounds are CPU seconds (`time.process_time`) with room for a shared machine: each input took 2-15 s before its
fix and takes milliseconds after, so a bound of 1 s tells the two apart without timing noise deciding the test.
"""

import io
import time

import pytest
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from benchmarks.paper_analysis import REPO_ROOT, load_datasets
from recon_assets.papers.dataset_catalogue import DatasetCatalogue
from recon_assets.papers.dataset_names import is_glossary
from recon_assets.papers.parse import UnreadablePaper, _references, _structure, parse_pdf, running_lines, visible_text
from recon_assets.papers.verdicts import cites
from recon_assets.shared.excerpt import excerpt

CMR = REPO_ROOT / "recon_assets" / "reference" / "cmr" / "cmr_collections_version_families.csv"
BOUND = 1.0  # CPU seconds


def _cpu(function, *args):
    start = time.process_time()
    result = function(*args)
    return result, time.process_time() - start


def _pdf(pages: list[list[str]]) -> bytes:
    buffer = io.BytesIO()
    sheet = canvas.Canvas(buffer, pagesize=A4)
    for lines in pages:
        sheet.setFont("Helvetica", 9)
        for row, text in enumerate(lines):
            sheet.drawString(50, 797 - 13 * row, text)
        sheet.showPage()
    sheet.save()
    return buffer.getvalue()


def test_a_long_run_of_spaces_costs_linear_time_in_visible_text():
    # 40,000 spaces (a wide layout's gap) took 14.7 s: the control-run pattern was entered at each space of the run.
    text = " " * 40_000 + "a \x01 b"
    visible, seconds = _cpu(visible_text, text)
    assert visible == " " * 40_000 + "a b"
    assert seconds < BOUND


def test_an_author_year_entry_that_never_ends_costs_linear_time_and_keeps_its_lines():
    # 10,000 lines, none ending the entry (no "." or ")" at a line's end, no DOI): each line joined the whole entry
    # again to look for a DOI (about 5 s); every line is still kept, in one entry.
    lines = [(9, f"Surname, A. B., & Other, C. ({1990 + i % 30}). A title that runs on and on") for i in range(10_000)]
    references, seconds = _cpu(_references, lines)
    assert seconds < BOUND
    assert len(references) == 1 and references[0].text.count("Surname, A. B.") == 10_000


def test_a_long_appendix_after_a_numbered_reference_list_costs_linear_time_and_is_kept():
    # After the References, a named heading (Appendix) is an aside; each of its lines re-read every reference line to
    # find the list's numbers (2,000 entries x 5,000 lines: 2.1 s; here 899 x 12,000).
    page = ["1. Introduction", "Text of the paper.", "References"]
    page += [f"[{n}] Author, A. Title of the work. J. Things (2000) 1-2." for n in range(1, 900)]
    page += ["Appendix"] + [f"Appendix line {n} reads like body text and is long enough to be one." for n in range(12_000)]
    document, seconds = _cpu(_structure, ["\n".join(page)])
    assert seconds < BOUND
    assert len(document.references) == 899
    assert sum(p.text.count("Appendix line") for p in document.paragraphs if p.section == "Appendix") == 12_000


def test_rows_alike_but_for_their_numbers_are_no_running_lines():
    # A table's rows that differ only in their numbers, at every page's top and filling it, were taken for a running
    # head (digits aside) and all dropped: 300 pages of text gave no paragraph. The head set once a page still goes.
    pages = [["Journal of Hydrology 12 (2020)"] + [f"Station {p}{k} reads {k}.{p} mm over {p + k} days" for k in range(40)] for p in range(6)]
    assert running_lines(pages) == {"journal of hydrology ()"}
    document = parse_pdf(_pdf(pages))
    assert sum(p.text.count("Station") for p in document.paragraphs) == 240
    assert not any("Journal of Hydrology" in p.text for p in document.paragraphs)


def test_a_pdf_of_running_heads_only_is_unreadable_with_its_reason():
    # Every line a running head: an empty document came back with no error.
    data = _pdf([["Journal of Hydrology", "Running Title of the Paper", "Terms and Conditions of use apply"]] * 5)
    with pytest.raises(UnreadablePaper, match="no body text: every line of its 5 pages is a running head"):
        parse_pdf(data)


@pytest.mark.parametrize(
    ("sentence", "limit", "quote"),
    [
        # cut back to a tab or line break, not to the last ASCII space only ('…fourth\tfif…')
        ("first second third\tfourth\tfifth sixth seventh", 15, "…fourth…"),
        ("first second third\nfourth\nfifth sixth seventh", 15, "…fourth…"),
    ],
)
def test_an_excerpt_cuts_at_any_white_space(sentence, limit, quote):
    assert excerpt(sentence, 19, 25, limit) == quote


@pytest.mark.parametrize(
    "text",
    [
        "V" * 40_000,  # a table's rule read as capitals: 2.3 s at 20,000 (quadratic)
        "-".join(["ABCD"] * 5000) + " v1",
    ],
)
def test_a_long_run_of_capitals_costs_linear_time_in_is_glossary(text):
    glossary, seconds = _cpu(is_glossary, text)
    assert not glossary and seconds < BOUND


@pytest.fixture(scope="module")
def cmr():
    return DatasetCatalogue(load_datasets(CMR))


def test_a_long_token_with_digits_costs_linear_time_in_name_mentions(cmr):
    # "(.*\d.*?)(V\d...)" on a 40,000-character token ("AAA1AAA1..."), a name's glued version looked for: about 5 s.
    text = "AAa1" * 10_000 + " Soil"
    found, seconds = _cpu(lambda: list(cmr.mentions(text)))
    assert found == [] and seconds < BOUND
    assert [name for name, _, _ in cmr.mentions("Rainfall from 3B42V7 fields.")] == [cmr.by_key["3B42"]]


@pytest.mark.parametrize(("claim", "number", "cited"), [("as shown [1-2-3]", 1, True), ("as shown [1-2-3]", 3, True), ("as shown [1-2-3]", 4, False)])
def test_a_bracket_with_a_typo_d_range_is_read_not_raised(claim, number, cited):
    # '[1-2-3]' raised AttributeError (one range expected per part), failing the paper's whole claim table.
    assert cites(claim, number, "Surname, A. (2000). Title.") is cited
