"""Dataset version parsing, successor chains and the curated cross-family successors."""

from importlib import resources

import pandas as pd
import pytest

from recon_assets.lifecycle.cmr import shipped_collection_records
from recon_assets.lifecycle.versions import (
    ORNL_DATASET_ID,
    CURATED_COLUMNS,
    _checked_lifecycle,
    curated_lifecycle,
    parse_version,
    successors,
    unparsed_records,
    version_readings,
    version_sort_key,
)

# Measured on the 5,453 real records: 5,239 parse (96.1%); of the 214 others, 177 are ORNL DAAC records whose
# trailing number is a dataset id, not a version (BOREAS `rs20prad_555`, 10.3334/ORNLDAAC/1950); the rest (AIRSAR,
# CERES "Release D1", PREFIRE ".R00", OMPS NRT) carry no version in any field.
PARSE_RATE_FLOOR = 0.96


@pytest.fixture(scope="module")
def cmr() -> pd.DataFrame:
    """The 5,453 real CMR records shipped in recon_assets/reference/cmr/ (provenance in its README.md)."""
    return shipped_collection_records()


def _parsed(records: pd.DataFrame) -> pd.DataFrame:
    rows = [
        vars(parse_version(r.ShortName, r.EntryTitle, r.DOI, r.Version)) | {"dataset_id": r._5}
        for r in records.itertuples()
    ]
    return pd.DataFrame(rows, index=records.index)


@pytest.mark.parametrize(
    ("short_name", "long_name", "doi", "cmr_version", "family", "version_text", "sort_key", "status", "source"),
    [
        # AIRS: V006 in the long name, 006 / 7.0 in CMR Version
        ("AIRS3STD", "AIRS/Aqua L3 Daily ... V006 (AIRS3STD) at GES DISC", "10.5067/Aqua/AIRS/DATA303", "006",
         "AIRS3STD", "006", (6,), "standard", "CMR Version"),
        ("AIRS3STD", "AIRS/Aqua L3 Daily ... V006 (AIRS3STD) at GES DISC", "10.5067/Aqua/AIRS/DATA303", None,
         "AIRS3STD", "V006", (6,), "standard", "long name"),
        ("AIRS3STD", "Aqua/AIRS L3 Daily ... V7.0 at GES DISC", "10.5067/UO3Q64CTTS1U", "7.0",
         "AIRS3STD", "7.0", (7,), "standard", "CMR Version"),
        # IMERG: V06 / V07 in the long name, /07 at the end of the DOI
        ("GPM_3IMERGDF", "GPM IMERG Final Precipitation L3 1 day V07 (GPM_3IMERGDF) at GES DISC", None, None,
         "GPM_3IMERGDF", "V07", (7,), "standard", "long name"),
        ("GPM_3IMERGDF", None, "10.5067/GPM/IMERGDF/DAY/06", None, "GPM_3IMERGDF", "06", (6,), "standard", "DOI"),
        # MODIS collection in the DOI: .006 is 6, .061 is 6.1
        ("MOD09A1", "", "10.5067/MODIS/MOD09A1.006", None, "MOD09A1", "006", (6,), "standard", "DOI"),
        ("MOD09A1", "", "10.5067/MODIS/MOD09A1.061", None, "MOD09A1", "061", (6, 1), "standard", "DOI"),
        # OMI / GLDAS in CMR Version
        ("OMTO3", "OMI/Aura Ozone ... V004 (OMTO3) at GES DISC", "10.5067/Aura/OMI/DATA2424", "004",
         "OMTO3", "004", (4,), "standard", "CMR Version"),
        ("GLDAS_NOAH025_3H", "GLDAS Noah ... V2.2 (GLDAS_NOAH025_3H)", None, "2.2",
         "GLDAS_NOAH025_3H", "2.2", (2, 2), "standard", "CMR Version"),
        # ASTER: V031 is 3.1, between V003 and V004
        ("AST_L1T", "ASTER Level 1 Precision Terrain Corrected ... V031", "10.5067/ASTER/AST_L1T.031", float("nan"),
         "AST_L1T", "V031", (3, 1), "standard", "long name"),
        ("AST_L1T", "ASTER Level 1 precision terrain corrected ... V003", "10.5067/ASTER/AST_L1T.003", "",
         "AST_L1T", "V003", (3,), "standard", "long name"),
        # GRACE / GRACE-FO release and product version
        ("TELLUS_GRAC-GRFO_MASCON_CRI_GRID_RL06.1_V3", "JPL GRACE and GRACE-FO Mascon ... Release 06.1 Version 03",
         None, "RL06.1Mv03", "TELLUS_GRAC-GRFO_MASCON_CRI_GRID", "RL06.1Mv03", (6, 1, 3), "standard",
         "CMR Version"),
        ("TELLUS_GRFO_L3_GFZ_RL06.1_LND_v04", "", None, None,
         "TELLUS_GRFO_L3_GFZ_LND", "RL06.1_LND_v04", (6, 1, 4), "standard", "short name"),
        ("GRACEFO_L2_CSR_MONTHLY_0062", "GRACE-FO Level-2 ... CSR Release 06.2 (RL06.2)", None, "6.2",
         "GRACEFO_L2_CSR_MONTHLY", "6.2", (6, 2), "standard", "CMR Version"),
        # CALIPSO: version and Prov/Standard in the short name
        ("CAL_LID_L2_05kmAPro-Standard-V4-21", "CALIPSO Lidar Level 2 Aerosol Profile, V4-21", None, None,
         "CAL_LID_L2_05kmAPro", "V4-21", (4, 21), "standard", "short name"),  # not "-V4-21" (new-user pass)
        ("CAL_LID_L2_05kmAPro-Prov-V3-41", "CALIPSO Lidar Level 2 Aerosol Profile, Provisional V3-41", None, None,
         "CAL_LID_L2_05kmAPro", "V3-41", (3, 41), "provisional", "short name"),
        ("OCO3_L2_Lite_FP", "OCO-3 Level 2 bias-corrected XCO2 (PROVISIONAL) V10.4r", None, None,
         "OCO3_L2_Lite_FP", "V10.4r", (10, 4, 18), "provisional", "long name"),
        # near real time: NRT in the short name, the CMR Version or the long name
        ("AIRS2RET_NRT", "AIRS/Aqua L2 Near Real Time (NRT) ... V006 (AIRS2RET_NRT)", None, "006",
         "AIRS2RET", "006", (6,), "near_real_time", "CMR Version"),
        ("MOD01", "MODIS/Terra Raw Radiances in Counts 5-Min L1A Swath - NRT", "10.5067/MODIS/MOD01.NRT.061",
         "6.1NRT", "MOD01", "6.1", (6, 1), "near_real_time", "CMR Version"),
        ("MCDAODHD", "MODIS/Terra+Aqua Aerosol near-real-time V061", None, None,
         "MCDAODHD", "V061", (6, 1), "near_real_time", "long name"),
        # SMAP: _V001 in an underscored long name; _002 in the short name is not the family
        ("SPL1A_RO_002", "SMAP_L1A_RADAR_RECEIVE_ONLY_V002", None, None,
         "SPL1A_RO", "V002", (2,), "standard", "long name"),
        # a version at the end of the short name is not the family (real CMR short names of the POCLOUD page)
        ("CYGNSS_L1_V3.1", "CYGNSS Level 1 Science Data Record Version 3.1", "10.5067/CYGNS-L1X31", "3.1",
         "CYGNSS_L1", "3.1", (3, 1), "standard", "CMR Version"),
        ("MUR-JPL-L4-GLOB-v4.1", "GHRSST Level 4 MUR Global Foundation Sea Surface Temperature Analysis (v4.1)",
         "10.5067/GHGMR-4FJ04", "4.1", "MUR-JPL-L4-GLOB", "4.1", (4, 1), "standard", "CMR Version"),
        ("SWOT_L2_HR_RiverSP_1.1", "SWOT Level 2 River Single-Pass Vector Data Product, Version 1.1",
         "10.5067/SWOT-RIVERSP-1.1", "1.1", "SWOT_L2_HR_RiverSP", "1.1", (1, 1), "standard", "CMR Version"),
        # CERES edition with a letter
        ("CER_SSF_NOAA20-FM6-VIIRS", "CERES SSF ... NOAA20-FM6-VIIRS Edition1C", "10.5067/NOAA20/CERES/SSF-FM6_L2.001C",
         None, "CER_SSF_NOAA20-FM6-VIIRS", "Edition1C", (1, 3), "standard", "long name"),
    ],
)
def test_parse_version(short_name, long_name, doi, cmr_version, family, version_text, sort_key, status, source):
    parsed = parse_version(short_name, long_name, doi, cmr_version)
    assert (parsed.family, parsed.version_text, parsed.sort_key, parsed.status, parsed.source, parsed.issue) == (
        family, version_text, sort_key, status, source, None
    )


@pytest.mark.parametrize(
    ("short_name", "long_name", "doi"),
    [
        ("AIRSAR_TOP_DEM", "AIRSAR_TOPSAR_DEM", None),
        ("rs20prad_555", "BOREAS RSS-20 POLDER Radiance Images from the NASA C-130", "10.3334/ORNLDAAC/555"),
    ],
)
def test_parse_version_without_version(short_name, long_name, doi):
    parsed = parse_version(short_name, long_name, doi)
    assert (parsed.version_text, parsed.sort_key, parsed.source) == (None, (), None)
    assert parsed.issue == "no version in CMR Version, short name, long name or DOI"


@pytest.mark.parametrize(
    ("versions", "expected_order"),
    [
        (["004", "V031", "V003"], ["V003", "V031", "004"]),
        (["061", "006", "005"], ["005", "006", "061"]),
        (["2.2", "2.0", "2.1"], ["2.0", "2.1", "2.2"]),
        (["7.0", "006"], ["006", "7.0"]),
        (["-V4-51", "-V4-20", "-V4-21"], ["-V4-20", "-V4-21", "-V4-51"]),
        (["RL06.3v04", "RL06.1Mv03", "RL06 v04"], ["RL06 v04", "RL06.1Mv03", "RL06.3v04"]),
        (["Edition4A", "Edition2G", "Edition2B"], ["Edition2B", "Edition2G", "Edition4A"]),
        # bug fixed: "010" read as collection 1.0 sorted below "009" (SMAP SPL3SMP 009 -> 010)
        (["010", "009", "008"], ["008", "009", "010"]),
        (["V010", "V009"], ["V009", "V010"]),
        # bug fixed: "2.0a" read as (2, 1), the same key as "2.1"
        (["2.1", "2.0a", "2.0"], ["2.0", "2.0a", "2.1"]),
    ],
)
def test_version_sort_key_orders_versions(versions, expected_order):
    assert sorted(versions, key=version_sort_key) == expected_order


@pytest.mark.parametrize(
    ("same", "other"),
    [("V7", "7.0"), ("2", "2.0.0"), ("010", "10"), ("061", "6.1")],
)
def test_version_sort_key_reads_one_version_spelled_two_ways_alike(same, other):
    """bug fixed: "V7" was superseded by "7.0" of the same family."""
    assert version_sort_key(same) == version_sort_key(other)


@pytest.mark.parametrize(
    ("text", "readings"),
    [
        # a bare three-digit 0XY is collection X.Y (LP DAAC MODIS 061) or the padded integer XY (GES DISC HALOE V019)
        ("V019", ((1, 9), (19,))),
        ("061", ((6, 1), (61,))),
        # any other spelling has its one sort key
        ("006", ((6,),)),
        ("010", ((10,),)),
        ("7.0", ((7,),)),
        ("-V4-21", ((4, 21),)),
    ],
)
def test_version_readings_read_a_padded_three_digit_version_both_ways(text, readings):
    assert version_readings(text) == readings


def test_version_sort_key_rejects_text_without_digit():
    with pytest.raises(ValueError, match="no digit"):
        version_sort_key("RELD")


def test_parse_rate_on_real_cmr_records(cmr):
    unparsed = unparsed_records(cmr)
    assert len(cmr) == 5453
    parsed_share = (len(cmr) - len(unparsed)) / len(cmr)
    assert parsed_share > PARSE_RATE_FLOOR, unparsed["ShortName"].head(20).tolist()
    assert (unparsed["issue"] == ORNL_DATASET_ID).sum() == 177


def test_the_reported_unparsed_records_are_the_current_ones(cmr):
    """recon_assets/reference/cmr/unparsed_versions.csv is the report of what the parser cannot read; regenerate it
    with `unparsed_records(shipped_collection_records()).to_csv(path, index=False)` when the parser changes."""
    reported = pd.read_csv(resources.files("recon_assets.reference").joinpath("cmr", "unparsed_versions.csv"), dtype=str)
    pd.testing.assert_frame_equal(unparsed_records(cmr), reported)


@pytest.mark.parametrize(
    ("short_names", "chain"),
    [
        (["AIRS3STD"], ["006", "7.0"]),
        (["GPM_3IMERGDF"], ["06", "07"]),
        (["MCD43A4"], ["006", "V061"]),
        (["OMTO3"], ["003", "004"]),
        (["GLDAS_NOAH025_3H"], ["2.0", "2.1"]),
        (["GLDAS_CLSM025_DA1_D"], ["2.2"]),
        (["AST_L1T"], ["V003", "V031", "004"]),
        (
            ["CAL_LID_L2_05kmAPro-Standard-V4-20", "CAL_LID_L2_05kmAPro-Standard-V4-21",
             "CAL_LID_L2_05kmAPro-Standard-V4-51"],
            ["V4-20", "V4-21", "V4-51"],
        ),
    ],
)
def test_successors_follow_real_version_chains(cmr, short_names, chain):
    linked = successors(_parsed(cmr[cmr["ShortName"].isin(short_names)]))
    standard = linked[linked["status"] == "standard"].sort_values("sort_key")
    assert standard["version_text"].tolist() == chain
    assert standard["successor_version"].tolist() == chain[1:] + [None]
    assert standard["superseded"].tolist() == [True] * (len(chain) - 1) + [False]


def test_successor_evidence_names_the_fields(cmr):
    linked = successors(_parsed(cmr[cmr["ShortName"] == "AST_L1T"]))
    assert linked["evidence"].dropna().tolist() == [
        "AST_L1T V003 -> V031 (version from long name / long name)",
        "AST_L1T V031 -> 004 (version from long name / CMR Version)",
    ]


def test_near_real_time_never_succeeds_the_standard_product(cmr):
    linked = successors(_parsed(cmr[cmr["ShortName"].isin(["AIRS2RET", "AIRS2RET_NRT"])]))
    by_status = {
        status: group.sort_values("sort_key")[["version_text", "successor_version"]].values.tolist()
        for status, group in linked.groupby("status")
    }
    assert by_status == {"standard": [["006", "7.0"], ["7.0", None]], "near_real_time": [["006", "7.0"], ["7.0", None]]}
    successor_ids = set(linked["successor_dataset_id"].dropna())
    assert successor_ids == set(linked.loc[linked["version_text"] == "7.0", "dataset_id"])
    for _, row in linked[linked["superseded"]].iterrows():
        successor = linked[linked["dataset_id"] == row["successor_dataset_id"]].iloc[0]
        assert successor["status"] == row["status"]


def test_same_version_at_two_providers_resolves_to_one_successor():
    parsed = pd.DataFrame(
        {
            "dataset_id": ["C2-NSIDC_ECS", "C3-NSIDC_CPRD", "C1-NSIDC_ECS"],
            "family": ["ABLVIS1B"] * 3,
            "version_text": ["2", "2", "1"],
            "sort_key": [(2,), (2,), (1,)],
            "status": ["standard"] * 3,
            "source": ["CMR Version"] * 3,
        }
    )
    linked = successors(parsed)
    assert linked["successor_dataset_id"].tolist() == [None, None, "C2-NSIDC_ECS"]
    assert linked["superseded"].tolist() == [False, False, True]


@pytest.mark.parametrize(
    ("versions", "successor_of"),
    [
        # round 11: a whole number of two digits written without padding (a paper's "HALOE V17") numbers the family in
        # integers, so CMR's "V019" (GES DISC's padded release 19) is 19 and follows it; read as collection 1.9 it came
        # first, and V17 looked current
        (["V019", "V17"], {"V17": "V019", "V019": None}),
        # a family of collections X.Y keeps that reading beside a whole number of one digit (MODIS 6 before 061)
        (["061", "V6"], {"V6": "061", "061": None}),
    ],
)
def test_a_padded_version_follows_the_numbering_of_the_versions_beside_it(versions, successor_of):
    parsed = pd.DataFrame({
        "dataset_id": [f"C{i}" for i in range(len(versions))], "family": ["UARHA2FN"] * len(versions), "version_text": versions,
        "sort_key": [version_sort_key(v) for v in versions], "status": ["standard"] * len(versions), "source": ["long name"] * len(versions),
    })
    linked = successors(parsed)
    assert dict(zip(linked["version_text"], linked["successor_version"])) == successor_of


def test_curated_lifecycle_covers_the_cross_family_replacements_renames_and_parallel_streams():
    table = curated_lifecycle()
    assert list(table.columns) == CURATED_COLUMNS
    successors_ = table[table["relation"] == "successor"]
    pairs = set(zip(successors_["family"], successors_["other_family"]))
    assert {("TRMM_3B42_Daily", "GPM_3IMERGDF"), ("TRMM_3B43", "GPM_3IMERGM"), ("MAT1NXSLV", "M2T1NXSLV"),
            ("TOMSEPL2", "OMTO3"), ("MOD17A3H", "MOD17A3HGF")} <= pairs
    assert successors_["since"].str.slice(0, 4).astype(int).between(2000, 2026).all()
    assert ("GLDAS_*", "2.0", "2.1") in set(zip(table["family"], table["version"], table["other_version"]))
    assert table["source"].str.len().gt(20).all()


def test_curated_successor_families_are_families_and_those_of_the_shipped_cmr_records_are_in_it(cmr):
    families = {parse_version(name, None, None).family for name in cmr["ShortName"].unique()}
    table = curated_lifecycle()
    named = set(table.loc[table["relation"] == "successor", ["family", "other_family"]].to_numpy().ravel())
    # a family carries no version marker of its own (a typo such as "TRMM_3B42_V7" would)
    assert all(parse_version(family, None, None).family == family for family in named)
    # the shipped CMR extract holds every family but the MODIS NPP line (MOD17A3H), which it does not cover
    assert named - families == {"MOD17A3H", "MOD17A3HGF"} - families


def _curated(*lines: tuple) -> pd.DataFrame:
    return pd.DataFrame([(*line, "a source long enough") for line in lines], columns=CURATED_COLUMNS)


@pytest.mark.parametrize(
    ("lines", "error"),
    [
        ([("successor", "SELF", None, "SELF", None, "2019")], "cycle through SELF"),
        ([("successor", "A", None, "B", None, "2019"), ("successor", "B", None, "A", None, "2019")], "cycle through A"),
        ([("successor", "A", None, "B", None, "2019"), ("successor", "A", None, "C", None, "2019")], "two successors"),
        ([("successor", "A", None, "B", None, None)], "line 2: a successor line needs since"),
        ([("parallel", "A", None, "A", "2.1", None)], "line 2: a parallel line needs version"),
        ([("replaces", "A", None, "B", None, "2019")], "line 2: relation must be successor or parallel"),
    ],
    ids=["self", "two-step-cycle", "two-successors", "no-since", "parallel-without-version", "unknown-relation"],
)
def test_curated_lifecycle_refuses_cycles_forks_and_incomplete_lines(lines, error):
    """bug fixed: a family succeeding itself, directly or through another, was accepted."""
    with pytest.raises(ValueError, match=error):
        _checked_lifecycle(_curated(*lines))


def test_curated_lifecycle_accepts_a_chain_and_two_versions_of_one_family_with_their_own_successors():
    table = _curated(
        ("successor", "A", None, "B", None, "2010"), ("successor", "B", None, "C", None, "2015"),
        ("successor", "D", "006", "E", None, "2023"), ("successor", "D", "005", "E", None, "2017"),
    )
    assert len(_checked_lifecycle(table)) == 4
