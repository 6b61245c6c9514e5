"""The general version grammar of paper detection (issue 22, round 7: `papers.version_grammar`) and the association of
a product with the nearest version (`papers.datasets`). Every sentence is written for the grammar; none is taken from
a paper in fixtures/papers/ (those are measured by benchmarks/paper_analysis.py)."""

import pytest

from benchmarks.paper_analysis import REPO_ROOT, load_datasets
from recon_assets.papers import datasets
from recon_assets.papers.dataset_catalogue import DatasetCatalogue
from recon_assets.papers.parse import Paragraph, PaperDocument
from recon_assets.papers.version_grammar import VERSION, listed_after, listed_before, shorthand_of, versions_in

CMR = REPO_ROOT / "recon_assets" / "reference" / "cmr" / "cmr_collections_version_families.csv"


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("granules of version 7", ["7"]),
        ("the Version 3.3 files", ["3.3"]),
        ("the ver. 2 grid", ["2"]),
        ("data of release 5", ["5"]),
        ("the collection-6 tiles", ["6"]),
        ("the 2nd edition 4 maps", ["4"]),
        ("fields at version v4.2", ["4.2"]),
        ("fields at version (v) 4.2", ["4.2"]),
        ("fields at version V07B", ["07B"]),
        ("tiles of C6.1", ["6.1"]),
        ("the RL06 solutions", ["06"]),
        ("a V.5 grid and a v04.2x grid", ["5", "04.2x"]),
        ("the [v3.3] record", ["3.3"]),
        ("the product ABC12Q3.061 tiles", ["061"]),
        ("(retrieval version v3.3)", ["3.3"]),
        ("version 5.12.4 of the system", ["5.12.4"]),
        # round 13: "version" as the subject of "is" / "was"; a model's still excluded
        ("the data version used here is 3.3 and the version was 2.2", ["3.3", "2.2"]),
        ("the model version used here is 3.3", []),
        ("the versions 2.2 and 3.3, releases 4 and 5, collections 5 and 6", ["2.2", "4", "5"]),
        # exclusions: cross-references, programs and models, years, words that only contain the letters
        ("as Fig. C2 and Table V1 show (Eq. C3; p. V4)", []),
        ("runs of the WRF version 3.9.1 and Python v3.8", []),
        ("the model version 2 and the code release 4", []),
        ("the version 2019 record", []),
        ("Covid-19 and CV5 and revision 3", []),
        ("the previous version 2.2 and an earlier v3.3 and the former collection 5", []),
    ],
)
def test_the_version_grammar_reads_each_spelling_and_excludes_other_numbers(text, numbers):
    assert [m.group(1) for m in versions_in(text)] == numbers


@pytest.fixture(scope="module")
def cmr():
    return DatasetCatalogue(load_datasets(CMR))


def _found(catalogue, *texts):
    document = PaperDocument(9, (), tuple(Paragraph("2. Data", 4, text) for text in texts), (), ())
    found, missing = datasets.detect_datasets(document, catalogue)
    return sorted((m.family, m.stated_version) for m in found), sorted((u.family or u.name, u.stated_version) for u in missing if u.stated_version)


@pytest.mark.parametrize(
    ("rule", "texts", "matched", "unmatched"),
    [
        ("a data word between the product and its version",
         ["Snow cover came from MOD10A1 granules, collection 6."], [], [("MOD10A1", "6")]),
        ("a qualified version word ('product version') after the product",
         ["Rain rates are GPM_3IMERGHH product version 06 values."], [("GPM_3IMERGHH", "06")], []),
        ("a list of the line's species between the instrument and its version: each species at that version",
         ["Our profiles are Aura MLS ozone, nitric acid and carbon monoxide version 4.2 files."],
         [("ML2CO", "4.2"), ("ML2HNO3", "4.2"), ("ML2O3", "4.2")], []),
        ("a version in the sentence after the one naming the product, with no other name between",
         ["The MLS instrument measures ozone in the stratosphere (Smith et al. (2004) describe it). We took the version 4.2 "
          "profiles for 2010-2015."], [("ML2O3", "4.2")], []),
        ("... not two sentences later",
         ["The MLS instrument measures ozone in the stratosphere. It flies on Aura. We took the version 4.2 profiles for 2010-2015."],
         [], []),
        ("... nor a version no data word or member says is data's",
         ["The MLS instrument measures ozone in the stratosphere. Details of version 4.2 are given by Smith et al. (2004)."], [], []),
        ("... not a version of a thing named after 'of'",
         ["The MLS instrument measures ozone in the stratosphere. Version 4.2 of the transport scheme was used."], [], []),
        ("... not a program's version",
         ["The MLS instrument measures ozone in the stratosphere. The WRF version 3.9.1 ran at 9 km."], [], []),
        ("... nor the authors' own product's",
         ["The MLS instrument measures ozone in the stratosphere. Our ozone record, version 4.2, is compared with it."], [], []),
        ("a version of an earlier kind the sentence sets aside, a figure number, and a year are no versions of the product",
         ["Unlike the previous version of MOD10A1 (C5), see Fig. C6, the 2019 MOD10A1 maps are finer."], [], []),
        ("... nor a version the words before it set aside, before the name or apart from it",
         ["The previous collection 5 MOD10A1 maps were coarser.", "We used the MLS ozone profiles. The earlier version 2.2 "
          "profiles were biased."], [], []),
        ("... nor a version of another product named closer to it",
         ["MLS ozone was compared with SAGE II version 7.0 data.", "MLS ozone and SAGE II v7.0 ozone data were merged."], [], []),
        ("... nor a figure number right before the product's name",
         ["Snow maps as in Fig. C6 MOD10A1 show the melt."], [], []),
        # round 8: shorthands, lists closed by a version, cited works' versions
        ("a paper's whole-number shorthand is the release it states in full, not a version of its own (false pair removed)",
         ["We use the Aura MLS version 3.3 ozone profiles.", "The MLS v3 ozone profiles are noisy below 100 hPa."], [], [("ML2O3", "3.3")]),
        ("... the release stated for the line when the family has none ('MLS v3.3' in a table, 'MLS v3 HNO3' in the text)",
         ["The MLS v3.3 data of the table were read.", "The MLS v3 HNO3 profiles are noisy."], [], [("ML2HNO3", "3.3"), ("MLS", "3.3")]),
        ("... two releases that fit leave it one of them: listed under the line's name, no pair of its own",
         ["We use the Aura MLS version 3.3 ozone profiles and the MLS version 3.4 ozone profiles.", "The MLS v3 ozone profiles are noisy."],
         [], [("ML2O3", "3.3"), ("ML2O3", "3.4"), ("MLS", "3")]),
        ("... a whole version stated alone stays itself",
         ["The MLS v3 ozone profiles are noisy."], [], [("ML2O3", "3")]),
        ("... never for a family numbered with minor parts (MODIS collection 6 and 6.1 are two collections)",
         ["We took MOD13Q1 collection 6.1 tiles.", "The MOD13Q1 collection 6 tiles were coarser."], [("MOD13Q1", "6.1")], [("MOD13Q1", "6")]),
        ("a list of a line's members closed by a version alone in parentheses: each member at that version",
         ["BASCOE assimilates the Aura MLS retrievals. It takes O3, HNO3, H2O, HCl, and N2O (v2.2)."], [],
         [("ML2H2O", "2.2"), ("ML2HCL", "2.2"), ("ML2HNO3", "2.2"), ("ML2N2O", "2.2"), ("ML2O3", "2.2")]),
        ("... not when the parenthesis does not close the clause (the version may be a later word's; 'H2O (v2.2)' stays a product-like name, unscored)",
         ["BASCOE assimilates the Aura MLS retrievals. It takes O3, HNO3 and H2O (v2.2) model fields as well."], [], [("H2O", "2.2")]),
        ("... nor two sentences after the line's name ('H2O (v2.2)' stays a product-like name, unscored)",
         ["The Aura MLS retrievals are described first. They fly on Aura. It takes O3, HNO3 and H2O (v2.2)."], [], [("H2O", "2.2")]),
        ("a version a cited work states in a clause it is the subject of is that work's (false pair removed)",
         ["The MLS version 4.2 ozone data are used, while Smith et al. (2006) discuss the MLS v1.5 ozone data."], [("ML2O3", "4.2")], []),
        ("... the citation opening its sentence",
         ["The MLS version 4.2 ozone data are used. Smith et al. (2006) discuss the MLS v1.5 ozone data."], [("ML2O3", "4.2")], []),
        ("... not a citation after its verb",
         ["Validation of the MLS v4.2 ozone data is described by Smith et al. (2016)."], [("ML2O3", "4.2")], []),
        ("... nor a cited work's data the sentence says are the paper's",
         ["Smith et al. (2017) found that the MLS version 4.2 ozone data (used in this study) are biased high."], [("ML2O3", "4.2")], []),
        ("a whole number names a catalogued three-digit version under its integer reading (round 9: HALOE v19 is UARHA2FN "
         "V019, not a version '1.9' the graph lacks nor one it replaced)",
         ["Mean profiles for HALOE v19 and the lidar are shown in black."], [("UARHA2FN", "19")], []),
        ("a version stated apart that the paragraph stated before it named the line restates that earlier thing's "
         "(round 9, false pair removed)",
         ["The first ACE validations used the version 1.0 data products. For version 1.0, comparisons with the HALOE instrument "
          "agreed within 2 K. Smith et al. (2005) compared the version 1.0 temperature profiles with lidar."], [], []),
        ("... nor, the line named a sentence before, another instrument's the version's phrase names in capitals (round 9, "
         "false pair removed)",
         ["The MLS instrument measures temperature. MIPAS temperature data v4.62 are compared with it here."], [], []),
        ("... the line's own version stated a sentence apart stays the line's",
         ["The MLS instrument measures temperature. The temperature data v4.2 are compared with it here."], [("ML2T", "4.2")], []),
    ],
)
def test_a_product_takes_the_nearest_version_the_grammar_reads(cmr, rule, texts, matched, unmatched):
    found, missing = _found(cmr, *texts)
    assert ([(f, v) for f, v in found], missing) == (matched, unmatched), rule


@pytest.mark.parametrize(
    ("rule", "texts", "matched", "unmatched"),
    [
        ("products listed together share the version stated after the list",
         ["Land surface temperature came from MOD11A1 and MYD11A1 collection 6.1 tiles."], [("MOD11A1", "6.1"), ("MYD11A1", "6.1")], []),
        ("... or before it",
         ["We took the version 6.1 MOD11A1, MYD11A1 or MOD13A2 grids."], [("MOD11A1", "6.1"), ("MOD13A2", "6.1"), ("MYD11A1", "6.1")], []),
        ("... only a version the catalogue holds for the product that shares it (the other stays named without a version)",
         ["We took MOD13Q1 and GLDAS_NOAH025_3H V2.1 files."], [("GLDAS_NOAH025_3H", "2.1")], []),
        ("... and never across '/', which joins the parts of one product",
         ["We took the MOD11A1/MYD11A1 collection 6.1 tiles."], [("MYD11A1", "6.1")], []),
    ],
)
def test_products_listed_together_share_the_list_s_version(cmr, rule, texts, matched, unmatched):
    assert _found(cmr, *texts) == (matched, unmatched), rule


@pytest.mark.parametrize(
    ("rule", "texts", "matched"),
    [
        ("a version opened by a letter stated apart from the name, said to be data's",
         ["The MLS instrument measures ozone in the stratosphere; we took the v4.2 profiles for 2010-2015."], [("ML2O3", "4.2")]),
        ("... not a chemical formula or a number glued to another word",
         ["The MLS instrument measures ozone in the stratosphere; the C2H6 and XYZ.004 profiles were not used."], []),
    ],
)
def test_a_version_stated_apart_may_open_with_a_letter(cmr, rule, texts, matched):
    assert _found(cmr, *texts)[0] == matched, rule


@pytest.mark.parametrize(
    ("stated", "written", "fits"),
    [
        ("3", ["3.3"], ["3.3"]),
        ("3", ["4.2", "3.3", "3.3"], ["3.3"]),
        ("03", ["3.3"], ["3.3"]),
        ("2", ["2.2", "3.3"], ["2.2"]),
        ("3", ["3.3", "3.4"], ["3.3", "3.4"]),
        # no shorthand: a version with a minor part or a letter, a whole number stated alone, another leading number
        ("3.3", ["3.3", "3.4"], []),
        ("07B", ["7.0"], []),
        ("3", ["3", "4.2"], []),
        ("3", ["33.1", "13.3"], []),
        # round 11: three digits padded with zeros are a collection's label ("ML2H2O_V003"), kept beside "version 3.3"
        ("003", ["3.3"], []),
    ],
)
def test_a_whole_number_version_shortens_the_release_stated_in_full(stated, written, fits):
    assert shorthand_of(stated, written) == fits


def test_haloe_names_the_level_2_product():
    """The alias row (dataset_aliases.csv): HALOE is the Level 2 product UARHA2FN, not the Level 3AT one."""
    catalogue = DatasetCatalogue(load_datasets(CMR))
    assert catalogue.members["HALOE"] == ["UARHA2FN"]
    found, missing = _found(catalogue, "This study uses HALOE version 19 NO occultation profiles.")
    assert {family for family, _ in found + missing} == {"UARHA2FN"}


# Issue 22, rules round 12 (hostile pass M4): every version of a list, not its first only.
@pytest.mark.parametrize(
    ("text", "after_first", "before_last"),
    [
        ("MLS v2.2 and v3.3 data", ["3.3"], ["2.2"]),
        ("HALOE V17 and V019 profiles", ["019"], ["17"]),
        ("MLS v2.2, v3.3 and v4.2 ozone", ["3.3", "4.2"], ["2.2", "3.3"]),
        ("MLS ozone versions 2.2 and 3.3", ["3.3"], []),
        ("the v2.2/v3.3 record", ["3.3"], ["2.2"]),
        # a bare number only in a version's shape, no measure: "2.5 km" and "3" after "2.2" are no versions
        ("version 2.2 and 2.5 km", [], []),
        ("version 2.2 and 3 profiles", [], []),
        ("v2.2 ozone and v3.3 water vapour", [], []),
    ],
)
def test_a_list_of_versions_reads_each_version(text, after_first, before_last):
    found = versions_in(text)
    assert [m.group(1) for m in listed_after(text, found[0])] == after_first
    last = [m for m in VERSION.finditer(text)][-1]
    assert [m.group(1) for m in listed_before(text, last.start())] == before_last

