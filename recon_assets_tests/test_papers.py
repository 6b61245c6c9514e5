"""Paper analysis, pure modules (recon_assets/papers/): parsing and its bad inputs, dataset detection against real
Dataset records, the offline claim extractor, and CitationEdge's score formulas.

The PDFs here are made at test time (pypdf for the bad inputs, reportlab for a document with known structure): they
test the parser's handling, they are not real papers. Real papers and their measured figures:
recon_assets_tests/fixtures/papers/SOURCES.md and benchmarks/paper_analysis.py.
"""

import io
from pathlib import Path

import pandas as pd
import pytest
from pypdf import PdfWriter
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.platypus import Paragraph as Flowable
from reportlab.platypus import SimpleDocTemplate

from recon_assets.kg.doi import canonical_doi
from recon_assets.papers import claims, datasets, scores
from recon_assets.papers.dataset_catalogue import DatasetCatalogue
from recon_assets.papers.dataset_evidence import GRAPH_LINK, NAME_AND_VERSION, DatasetMatch
from recon_assets.papers.lifecycle_lines import lifecycle_statement, with_graph_links
from recon_assets.papers.parse import DOI_PATTERN, PaperDocument, Paragraph, Reference, UnreadablePaper, parse_pdf

FIXTURES = Path(__file__).parent / "fixtures" / "papers"


def _document_pdf(lines: list[str]) -> bytes:
    """A PDF whose text is `lines`, one paragraph each (reportlab), for the parser's structure tests."""
    buffer = io.BytesIO()
    SimpleDocTemplate(buffer, pagesize=A4).build([Flowable(line, getSampleStyleSheet()["Normal"]) for line in lines])
    return buffer.getvalue()


PAPER_LINES = [
    "Abstract",
    "We evaluate satellite precipitation over the basin against 40 gauges. " * 3,
    "1. Introduction",
    "Satellite precipitation products are widely used in hydrology where gauges are sparse. " * 4,
    "2. Data and Methods",
    "2.1. Precipitation Data",
    "We used the TRMM 3B42 V7 product and MODIS Collection 5 NDVI (MOD13Q1) for 2001-2010. " * 2,
    "Figure 1. Study area and the 40 rain gauges.",
    "Table 2: Error statistics of the three products.",
    "4 CARD32 ALIAS_LIST_OFFSET",
    "3. Results",
    "Results show that 3B42 outperforms the real-time product with an RMSE of 1.2 mm/day. " * 3,
    "References",
    "1. Huffman, G.J.; Adler, R.F. The TRMM Multisatellite Precipitation Analysis. J. Hydrometeorol. 2007, 8, 38-55. https://doi.org/10.1175/JHM560.1",
    "2. Didan, K. MOD13Q1 MODIS/Terra Vegetation Indices 16-Day L3 Global 250m SIN Grid V006. doi:10.5067/MODIS/MOD13Q1.006",
    "3. Funk, C. The climate hazards infrared precipitation with stations. Sci. Data 2015, 2, 150066.",
]


def test_parse_finds_sections_paragraphs_references_and_captions():
    document = parse_pdf(_document_pdf(PAPER_LINES))
    assert [s.title for s in document.sections] == [
        "Abstract", "1. Introduction", "2. Data and Methods", "2.1. Precipitation Data", "3. Results", "References",
    ]
    assert [(c.kind, c.label) for c in document.captions] == [("figure", "1"), ("table", "2")]
    assert [r.doi for r in document.references] == ["10.1175/jhm560.1", "10.5067/modis/mod13q1.006", None]
    data = [p for p in document.paragraphs if p.section == "2.1. Precipitation Data"]
    assert data and data[0].text.startswith("We used the TRMM 3B42 V7 product") and data[0].page == 1


def _pdf(pages: int, encrypt_with: str | None = None) -> bytes:
    writer = PdfWriter()
    for _ in range(pages):
        writer.add_blank_page(width=595, height=842)
    if encrypt_with is not None:
        writer.encrypt(user_password=encrypt_with, owner_password="owner", algorithm="AES-128")
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def _halved(data: bytes) -> bytes:
    return data[: len(data) // 2]


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (lambda: b"", "empty file (0 bytes)"),
        (lambda: b"Title: a manuscript saved as text, named paper.pdf\n" * 20, "not a PDF"),
        (lambda: _pdf(2, encrypt_with="secret"), "encrypted PDF: it needs a password to open"),
        (lambda: _pdf(500), "500 pages, over the page limit of 200"),
        (lambda: _pdf(3), "no text layer: 0 characters over 3 pages"),
        (lambda: _halved(_document_pdf(PAPER_LINES)), "truncated PDF"),
    ],
    ids=["0-byte", "not-a-pdf", "encrypted", "500-pages", "image-only", "truncated"],
)
def test_bad_input_fails_with_one_clear_line(make, says):
    with pytest.raises(UnreadablePaper) as raised:
        parse_pdf(make())
    assert says in str(raised.value) and "\n" not in str(raised.value)


def test_the_page_limit_is_a_setting():
    two_pages = _document_pdf(PAPER_LINES * 3)
    assert parse_pdf(two_pages, page_limit=2).pages == 2
    with pytest.raises(UnreadablePaper, match="^2 pages, over the page limit of 1$"):
        parse_pdf(two_pages, page_limit=1)


@pytest.fixture(scope="module")
def catalogue():
    return DatasetCatalogue(pd.read_csv(FIXTURES / "graph_datasets.csv", dtype=str))


def _paper(text: str, references: tuple[str, ...] = ()) -> PaperDocument:
    refs = tuple(Reference(i, r, canonical_doi(m.group(0)) if (m := DOI_PATTERN.search(r)) else None, 9) for i, r in enumerate(references, 1))
    return PaperDocument(9, (), (Paragraph("2. Data", 4, text),), refs, ())


@pytest.mark.parametrize(
    ("text", "references", "matched", "unmatched"),
    [
        ("Daily rainfall came from the TRMM 3B42 V7 product.", (), [("C1281704371-GES_DISC", "short name and version", "7")], []),
        ("Daily totals were summed from 3B42V7 files.", (), [("C1281704371-GES_DISC", "short name and version", "7")], []),
        ("We used version 7 of the 3B42 data set.", (), [("C1281704371-GES_DISC", "short name and version", "7")], []),
        ("The TMPA 3B42 (version 7) estimates were aggregated.", (), [("C1281704371-GES_DISC", "short name and version", "7")], []),
        ("Vegetation came from MOD13Q1.061 composites.", (), [("C1748066515-LPCLOUD", "short name and version", "061")], []),
        ("We used MODIS Collection 6.1 NDVI (MOD13Q1).", (), [("C1748066515-LPCLOUD", "short name and version", "6.1")], []),
        ("Elevation came from the ASTER GDEM V2.", (), [("kg:astgtm-002", "short name and version", "2")], []),
        ("IMERG half-hourly data (GPM_3IMERGHH V06) were used.", (), [("C1598621093-GES_DISC", "short name and version", "06")], []),
        ("Precipitation data are from GPCP (https://doi.org/10.5067/MEASURES/GPCP/DATA304).", (), [("C2211412414-GES_DISC", "DOI in text", None)], []),
        ("NDVI came from MODIS.", ("Didan, K. MOD13Q1 V061. NASA LP DAAC. doi:10.5067/MODIS/MOD13Q1.061",), [("C1748066515-LPCLOUD", "DOI in references", None)], []),
        # replaced versions the graph lacks: listed as unmatched with the version, not dropped
        ("We used MODIS Collection 5 NDVI (MOD13Q1) for 2001-2010.", (), [], [("MOD13Q1", "5", "the graph has MOD13Q1 but not version 5")]),
        ("Rainfall from TRMM 3B42 version 6 was compared.", (), [], [("TRMM 3B42", "6", "the graph has TRMM_3B42 but not version 6")]),
        # the fixture's IMERG V06 is the half-hourly run, but its daily run's catalogue begins after V06 (V07 only), so
        # the daily V06 may well have existed: the paper does not say which (datasets._catalogued_after)
        ("IMERG V06 totals were used.", (), [], [("IMERG", "06", "ambiguous: IMERG 06 is one of GPM_3IMERGHH, GPM_3IMERGDF in the graph; the paper does not say which")]),
        # "Half-hourly" right before the line's name describes GPM_3IMERGHH's entry title ("... Half Hourly ..."); the
        # "daily" after "was aggregated to" describes what was done with it, not the product
        ("Half-hourly IMERG V07 was aggregated to daily totals.", (), [("C2723754847-GES_DISC", "short name and version", "07")], []),
        ("IMERG V07 was aggregated to daily totals.", (), [], [("IMERG", "07", "ambiguous: IMERG 07 is one of GPM_3IMERGDF, GPM_3IMERGHH in the graph; the paper does not say which")]),
        ("We compared GPCP v2.2 with gauges.", (), [], [("GPCP", "2.2", "the graph has GPCP but not version 2.2")]),
        ("NDVI from MOD13Q1 was averaged.", (), [], [("MOD13Q1", None, "named without a version")]),
        ("We also used CHIRPS V2.0 and PERSIANN-CDR version 1.", (), [], [("CHIRPS", "2.0", "no Dataset node of the graph has this name"), ("PERSIANN-CDR", "1", "no Dataset node of the graph has this name")]),
        ("Snow data: doi:10.5067/MODIS/MOD10A1.006.", (), [], [("10.5067/modis/mod10a1.006", None, "NASA data DOI that is no Dataset node of the graph")]),
        ("We used no satellite product; the R2 = 0.8 regression used 25 stations.", (), [], []),
        # hostile pass: a version before a name belongs to it only when the words between tie them ("of the", a word
        # describing it); after a conjunction or a verb it is the earlier name's
        ("We used the TRMM 3B42 Version 7 precipitation product and MERRA-2 hourly fields.", (),
         [("C1281704371-GES_DISC", "short name and version", "7")], []),
        ("The IMERG V06 product outperforms TRMM 3B42 in mountains.", (), [],
         [("IMERG", "06", "ambiguous: IMERG 06 is one of GPM_3IMERGHH, GPM_3IMERGDF in the graph; the paper does not say which"),
          ("TRMM 3B42", None, "named without a version")]),
    ],
)
def test_dataset_detection(catalogue, text, references, matched, unmatched):
    found, missing = datasets.detect_datasets(_paper(text, references), catalogue)
    assert [(m.dataset_id, m.found_by, m.stated_version) for m in found] == matched
    assert [(u.name, u.stated_version, u.reason) for u in missing] == unmatched
    for item in [*found, *missing]:
        assert item.quote and item.page in (4, 9)


def test_evidence_from_the_data_section_is_kept_over_the_introduction(catalogue):
    paragraphs = (
        Paragraph("1. Introduction", 1, "Earlier studies used TRMM 3B42 V7 over the region."),
        Paragraph("2. Data and Methods", 3, "Rainfall came from the TRMM 3B42 V7 product at 0.25 degree."),
    )
    (match,) = datasets.detect_datasets(PaperDocument(9, (), paragraphs, (), ()), catalogue)[0]
    assert (match.page, match.section, match.quote) == (3, "2. Data and Methods", "Rainfall came from the TRMM 3B42 V7 product at 0.25 degree.")


def test_a_versioned_mention_elsewhere_keeps_a_versionless_one_out(catalogue):
    found, missing = datasets.detect_datasets(_paper("TRMM 3B42 is widely used. We used the TRMM 3B42 V7 product."), catalogue)
    assert [m.dataset_id for m in found] == ["C1281704371-GES_DISC"] and missing == []


def test_the_graph_s_uses_dataset_links_join_the_text_s_matches_each_dataset_once_with_both_sources(catalogue):
    """A paper given by DOI: the text names TRMM 3B42 V7 and MOD13Q1 without a version; the graph links the
    publication to TRMM 3B42 V7 and MOD13Q1 061. TRMM keeps its text evidence and adds the graph's link; MOD13Q1 061
    is added by the link, and the versionless MOD13Q1 mention is no longer unmatched (the graph says which version)."""
    text = "Rainfall came from the TRMM 3B42 V7 product. NDVI from MOD13Q1 was averaged. We also used CHIRPS V2.0."
    found, missing = datasets.detect_datasets(_paper(text), catalogue)
    assert [u.reason for u in missing] == ["no Dataset node of the graph has this name", "named without a version"]
    linked = {"C1281704371-GES_DISC": ["r7"], "C1748066515-LPCLOUD": ["r8", "r9"]}
    merged, kept = with_graph_links(found, missing, linked, catalogue)
    assert [(m.dataset_id, m.family, m.version, m.found_by, m.stated_version, m.page) for m in merged] == [
        ("C1281704371-GES_DISC", "TRMM_3B42", found[0].version, f"short name and version; {GRAPH_LINK}", "7", 4),
        ("C1748066515-LPCLOUD", "MOD13Q1", catalogue.by_id["C1748066515-LPCLOUD"].version, GRAPH_LINK, None, 1),
    ]
    assert merged[0].quote == found[0].quote and "r8, r9" in merged[1].quote
    assert [(u.name, u.stated_version) for u in kept] == [("CHIRPS", "2.0")]
    assert with_graph_links(found, missing, {}, catalogue) == (found, missing)  # a PDF, or a DOI the graph links to nothing


@pytest.mark.parametrize(
    ("lineage", "line"),
    [
        ({"superseded": True, "successor_family": "GPM_3IMERGHH", "successor_version": "07", "superseded_since": "2019", "succession_basis": "curated"},
         "uses TRMM_3B42 V7: replaced by GPM_3IMERGHH (now 07) (since 2019, on the authority of curated)"),
        ({"superseded": False}, "uses TRMM_3B42 V7: current"),
        ({}, "uses TRMM_3B42 V7: lifecycle unknown (no dataset_lineage row)"),
    ],
)
def test_lifecycle_statement(lineage, line):
    match = DatasetMatch("C1281704371-GES_DISC", "TRMM_3B42", "V7", NAME_AND_VERSION, "V7", "q", 3)
    assert lifecycle_statement(match, lineage) == line


@pytest.mark.parametrize(
    ("sentence", "claim_type", "results", "confidence"),
    [
        ("Results show that 3B42 outperforms the real-time product with an RMSE of 1.2 mm/day.", claims.COMPARATIVE, ("RMSE of 1.2 mm/day",), 0.8),
        ("We propose a new method to merge gauge and satellite rainfall at daily scale.", claims.METHODOLOGICAL, (), 0.5),
        ("The drying trend is attributed to a weakening of the monsoon circulation over the basin.", claims.THEORETICAL, (), 0.5),
        ("Annual rainfall decreased by 12% between 2001 and 2010 across the northern catchments.", claims.EMPIRICAL, ("12%",), 0.7),
        ("These biases may be caused by orographic enhancement that satellites miss entirely.", None, (), None),
        ("The basin covers 3,200 km2 and has 40 rain gauges operated since the 1970s era.", claims.EMPIRICAL, ("3,200 km2",), 0.7),
    ],
)
def test_offline_claim_extractor(sentence, claim_type, results, confidence):
    found = claims.extract_claims(PaperDocument(1, (), (Paragraph("3. Results", 5, sentence),), (), ()))
    if claim_type is None:
        assert found == []
        return
    (claim,) = found
    assert (claim.claim_type, claim.results, claim.confidence, claim.page) == (claim_type, results, confidence, 5)
    assert claim.novelty == scores.NOT_ASSESSED and claim.extractor == claims.OFFLINE_EXTRACTOR


def test_claims_skip_statements_about_the_paper():
    paragraphs = tuple(Paragraph(section, 9, "We show that the product improved by 20% over ten basins in the study.") for section in ("Funding", "Data Availability Statement", "Acknowledgments"))
    assert claims.extract_claims(PaperDocument(9, (), paragraphs, (), ())) == []


def test_a_repeated_sentence_is_one_claim():
    """Hostile pass: a sentence repeated 20 times made 20 claims, each counted in verification's total."""
    sentence = "We show that the product improved by 20% over ten basins in the study."
    paragraphs = (Paragraph("Results", 3, " ".join([sentence] * 20)), Paragraph("Discussion", 5, sentence.upper()))
    found = claims.extract_claims(PaperDocument(9, (), paragraphs, (), ()))
    assert [(claim.text, claim.page) for claim in found] == [(sentence, 3)]


@pytest.mark.parametrize(("high", "medium", "expected"), [(0, 0, 10.0), (2, 1, 5.0), (3, 5, 0.0), (6, 0, 0.0)])
def test_citation_score(high, medium, expected):
    assert scores.citation_score(high, medium) == expected


@pytest.mark.parametrize(
    ("verdicts", "expected"),
    [([], 5.0), (["SUPPORTED"] * 4, 10.0), (["SUPPORTED", "CONTRADICTED", "UNVERIFIED", "UNVERIFIED"], 1.75), (["CONTRADICTED"] * 2, 0.0)],
)
def test_verification_score(verdicts, expected):
    assert scores.verification_score(verdicts) == pytest.approx(expected)


def test_literary_and_overall_online_and_offline():
    assert scores.literary_score(0.8, 6.0, 5.0, 10.0) == pytest.approx(0.8 * 10 * 0.35 + 6 * 0.35 + 5 * 0.15 + 10 * 0.15)
    assert scores.overall_score(7.15, 6.0, 5.0, 10.0) == pytest.approx((7.15 + 6 + 5 + 10) / 4)
    offline = scores.paper_scores(1, 2, ["SUPPORTED", "UNVERIFIED"], [0.7, 0.5], None, [True, False, False])
    assert (offline.citation, offline.verification, offline.literary, offline.overall) == (6.0, 5.0, scores.NOT_ASSESSED, scores.NOT_ASSESSED)
    assert offline.current_version_share == pytest.approx(2 / 3)
    assert "not assessed" in offline.how["literary"] and offline.how["current_version_share"] == (
        "2 of 3 dataset uses on current versions (every use whose current or replaced status is known, matched to a Dataset node "
        "or a version the graph lacks)"
    )


def test_scores_refuse_bad_input():
    with pytest.raises(ValueError, match="gap counts"):
        scores.citation_score(-1, 0)
    with pytest.raises(ValueError, match="unknown verdicts"):
        scores.verification_score(["PASS"])
    assert scores.current_version_share([]) is None


@pytest.mark.parametrize(
    ("superseded", "share", "how"),
    [
        # a replaced version the graph lacks counts like a matched one; a use of unknown status counts in neither
        ([False, True, None], 0.5, "1 of 2 dataset uses on current versions (every use whose current or replaced status is "
                                    "known, matched to a Dataset node or a version the graph lacks; 1 of unknown status not counted)"),
        ([None, None], None, "not assessed: no dataset use whose current or replaced status is known; 2 of unknown status not counted"),
        ([], None, "not assessed: no dataset use whose current or replaced status is known"),
    ],
)
def test_current_version_share_counts_the_uses_whose_status_is_known(superseded, share, how):
    computed = scores.paper_scores(0, 0, [], [], None, superseded)
    assert computed.current_version_share == (pytest.approx(share) if share is not None else None)
    assert computed.how["current_version_share"] == how


def test_benchmark_scores_detection_against_the_ground_truth(tmp_path):
    """benchmarks/paper_analysis.py on a generated document (testing the scorer, not a real paper's figure): the
    text states TRMM 3B42 V7 and MODIS Collection 5 (a version the graph lacks, still a detection), and its data
    citation (reference 2, a 10.5067 DOI) MOD13Q1 V006 (a second stated version, as SOURCES.md counts them); the
    ground truth adds IMERG V07, which the text does not name, so recall is 3 of 4 at precision 1."""
    from benchmarks.paper_analysis import report

    (tmp_path / "generated.pdf").write_bytes(_document_pdf(PAPER_LINES))
    (tmp_path / "papers.csv").write_text("file,doi,licence,source,sections,references\ngenerated.pdf,,,test,6,3\n")
    (tmp_path / "paper_datasets.csv").write_text(
        "file,family,version,page,quote\ngenerated.pdf,TRMM_3B42,7,1,q\ngenerated.pdf,MOD13Q1,005,1,q\ngenerated.pdf,MOD13Q1,006,1,q\n"
        "generated.pdf,GPM_3IMERGHH,07,1,q\n"
    )
    result = report(tmp_path, FIXTURES / "graph_datasets.csv", [])
    assert result["real_papers"] == 1
    assert {k: result["datasets"][k] for k in ("true_positives", "stated", "detected", "precision", "recall")} == {
        "true_positives": 3, "stated": 4, "detected": 3, "precision": 1.0, "recall": 0.75,
    }
    (paper,) = result["papers"]
    assert (paper["sections"], paper["own_sections"], paper["references"], paper["references_with_doi"]) == (6, 6, 3, 2)


def test_benchmark_names_a_replaced_successor_with_the_current_version_as_the_product_does():
    """Review row (issue 22): the benchmark's line for a matched dataset read only the lineage fields, so a successor
    since replaced was named alone ("replaced by ML2O3 V004"); it now goes through `lifecycle_statement` as the
    product's lines do. A catalogue of ML2O3 V003, V004 and V005 (V004 and V005 as the CMR extract holds them; V003
    made up one release before, so the chain is three versions deep)."""
    from benchmarks.paper_analysis import matched_lifecycle

    title = "MLS/Aura Level 2 Ozone (O3) Mixing Ratio {} (ML2O3) at GES DISC"
    catalogue = DatasetCatalogue(pd.DataFrame({
        "dataset_id": ["C-ML2O3-003", "C1251101678-GES_DISC", "C1729925806-GES_DISC"],
        "short_name": ["ML2O3"] * 3,
        "long_name": [title.format(v) for v in ("V003", "V004", "V005")],
        "doi": [None, "10.5067/Aura/MLS/DATA2017", "10.5067/Aura/MLS/DATA2516"],
    }))
    oldest = next(k for k in catalogue.by_family["ML2O3"] if k.dataset_id == "C-ML2O3-003")
    match = DatasetMatch(oldest.dataset_id, "ML2O3", oldest.version, NAME_AND_VERSION, "3", "MLS ozone version 3", 4, "Data")
    superseded, line = matched_lifecycle(match, catalogue)
    assert superseded is True
    assert "replaced by ML2O3 V004 (now V005)" in line
