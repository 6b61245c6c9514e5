"""dataset_lineage: version successors within a family, curated cross-family successors, and what the real
CMR metadata adds (the successor's release date, CollectionProgress overriding the version chain)."""

import copy
import json
from datetime import date

import pandas as pd
import pytest

from recon_assets.lifecycle.cmr import collection_progress, release_dates, shipped_collection_progress, shipped_collection_records
from recon_assets.lifecycle.lineage import COLUMNS, dataset_lineage, supersession_day
from recon_assets.lifecycle.versions import CURATED_COLUMNS

CURATED = pd.DataFrame(
    [
        ("successor", "TRMM_3B42", None, "GPM_3IMERGHH", None, "2019", "GES DISC notice"),
        ("successor", "MOD17A3H", "006", "MOD17A3HGF", "061", "2023-07-31", "LP DAAC notice"),
        ("parallel", "GLDAS_*", "2.0", "GLDAS_*", "2.1", None, "CMR GLDAS record"),
    ],
    columns=CURATED_COLUMNS,
)
CMR_RECORDS = shipped_collection_records()
NO_PROGRESS = collection_progress([])
# The first record of the real POCLOUD page: SWOT_L2_HR_RiverSP_1.1, ACTIVE, revised 2024-03-13.
SWOT = ("swot", "SWOT_L2_HR_RiverSP_1.1", "SWOT Level 2 River Single-Pass Vector Data Product, Version 1.1", "10.5067/swot-riversp-1.1", "C2758162622-POCLOUD")
SWOT_NEXT = ("swot2", "SWOT_L2_HR_RiverSP_2.0", "SWOT Level 2 River Single-Pass Vector Data Product, Version 2.0", None, None)


def lineage(*rows, progress=NO_PROGRESS):
    rows = [row if len(row) == 5 else (*row, None) for row in rows]
    frame = pd.DataFrame(rows, columns=["dataset_id", "short_name", "long_name", "doi", "cmr_id"])
    return dataset_lineage(frame, CURATED, CMR_RECORDS, progress).set_index("dataset_id")


def pocloud_page(progress_of_first: str | None = None) -> dict:
    """The shipped real CMR page; `progress_of_first` replaces the first record's CollectionProgress (all 20 are ACTIVE)."""
    page = json.loads(
        (shipped_collection_records.__globals__["_REFERENCE"] / "umm_json_POCLOUD_page20.json").read_text()
    )
    if progress_of_first is not None:
        page = copy.deepcopy(page)
        page["items"][0]["umm"]["CollectionProgress"] = progress_of_first
    return page


def test_next_version_of_the_family_is_the_successor_since_its_cmr_release():
    result = lineage(
        ("a6", "AIRS3STD", "AIRS/Aqua L3 Daily Standard Physical Retrieval V006", None, "C1238517289-GES_DISC"),
        ("a7", "AIRS3STD", "AIRS/Aqua L3 Daily Standard Physical Retrieval V7.0", None, "C1701805652-GES_DISC"),
    )
    assert list(result.reset_index().columns) == COLUMNS
    assert result.loc["a6", "superseded"] and result.loc["a6", "successor_dataset_id"] == "a7"
    assert (result.loc["a6", "successor_family"], result.loc["a6", "superseded_since"]) == ("AIRS3STD", "2019-12-15")
    assert "AIRS3STD V006 -> V7.0" in result.loc["a6", "evidence"]
    assert result.loc["a6", "succession_basis"] == "inferred"  # version ordering alone
    assert not result.loc["a7", "superseded"] and result.loc["a7", "version_sort"] == [7]
    assert pd.isna(result.loc["a7", "succession_basis"])


def test_successor_that_nothing_on_record_dates_has_no_since():
    result = lineage(
        ("a6", "AIRS3STD", "AIRS/Aqua L3 Daily Standard Physical Retrieval V006", None),
        ("a7", "AIRS3STD", "AIRS/Aqua L3 Daily Standard Physical Retrieval V7.0", None, "C0000000000-NOT_IN_CMR"),
    )
    assert result.loc["a6", "superseded"] and pd.isna(result.loc["a6", "superseded_since"])


def test_curated_successor_family_supersedes_with_its_newest_dataset_or_by_name():
    with_imerg = lineage(
        ("t", "TRMM_3B42", "TRMM (TMPA) Precipitation L3 3 hour 0.25 degree x 0.25 degree V7", None),
        ("g6", "GPM_3IMERGHH", "GPM IMERG Final Precipitation L3 Half Hourly 0.1 degree x 0.1 degree V06", None),
        ("g7", "GPM_3IMERGHH", "GPM IMERG Final Precipitation L3 Half Hourly 0.1 degree x 0.1 degree V07", None, "C2723754847-GES_DISC"),
    )
    assert with_imerg.loc["t", "successor_dataset_id"] == "g7"
    assert with_imerg.loc["t", "successor_family"] == "GPM_3IMERGHH"
    # bug fixed: the newest successor version's CMR release (2023-07-12) stood for the takeover year
    assert with_imerg.loc["t", "superseded_since"] == "2019"
    assert "TRMM_3B42 -> GPM_3IMERGHH since 2019 (curated: GES DISC notice)" == with_imerg.loc["t", "evidence"]
    assert with_imerg.loc["t", "succession_basis"] == "curated"
    alone = lineage(("t", "TRMM_3B42", "TRMM (TMPA) Precipitation L3 3 hour 0.25 degree x 0.25 degree V7", None))
    assert alone.loc["t", "superseded"] and pd.isna(alone.loc["t", "successor_dataset_id"])
    assert (alone.loc["t", "successor_family"], alone.loc["t", "superseded_since"]) == ("GPM_3IMERGHH", "2019")


def test_parallel_streams_both_stay_current():
    """GLDAS-2.0 (Princeton forcing, 1948-2014) and GLDAS-2.1 (2000-present) are parallel streams (DOMAIN.md)."""
    result = lineage(
        ("g20", "GLDAS_NOAH025_3H", "GLDAS Noah Land Surface Model L4 3 hourly 0.25 x 0.25 degree V2.0", None),
        ("g21", "GLDAS_NOAH025_3H", "GLDAS Noah Land Surface Model L4 3 hourly 0.25 x 0.25 degree V2.1", None),
        ("m20", "GLDAS_NOAH025_M", "GLDAS Noah Land Surface Model L4 monthly 0.25 x 0.25 degree V2.0", None),
        ("m21", "GLDAS_NOAH025_M", "GLDAS Noah Land Surface Model L4 monthly 0.25 x 0.25 degree V2.1", None),
    )
    assert not result["superseded"].any()
    assert "parallel streams, both current (curated: CMR GLDAS record)" in result.loc["g20", "evidence"]


def test_a_renamed_line_supersedes_only_the_version_it_names():
    result = lineage(
        ("h6", "MOD17A3H", "MODIS/Terra Net Primary Production Yearly L4 Global 500m SIN Grid V006", None),
        ("gf", "MOD17A3HGF", "MODIS/Terra Net Primary Production Gap-Filled Yearly L4 Global 500m SIN Grid V061", None),
    )
    assert result.loc["h6", "superseded"] and result.loc["h6", "successor_dataset_id"] == "gf"
    assert (result.loc["h6", "superseded_since"], result.loc["h6", "succession_basis"]) == ("2023-07-31", "curated")
    assert not result.loc["gf", "superseded"]


def test_datasets_without_a_short_name_have_no_family_and_no_successor():
    """bug fixed: every dataset without a short name shared family '' and superseded the others by version."""
    result = lineage(
        ("alpha", None, "Alpha sea ice concentration V1", "10.5067/alpha"),
        ("beta", None, "Beta aerosol optical depth V2", "10.5067/beta"),
    )
    assert not result["superseded"].any()


@pytest.mark.parametrize(
    ("versions", "current"),
    [
        (["V008", "V009", "V010", "V011"], "V011"),  # bug fixed: 011 read as collection 1.1, below 009
        (["V009", "V011", "V010"], "V011"),
        (["V003", "V031", "V004"], "V004"),  # ASTER: no 0X0 version, so 031 stays 3.1
    ],
)
def test_a_family_numbering_past_009_reads_its_versions_as_integers(versions, current):
    result = lineage(*((f"d{i}", "SPL3SMP", f"SMAP L3 Radiometer Soil Moisture {v}", None) for i, v in enumerate(versions)))
    assert result.loc[~result["superseded"].astype(bool), "version_text"].tolist() == [current]


_MYD11A1 = "MODIS/Aqua Land Surface Temperature/Emissivity Daily L3 Global 1km SIN Grid {}"


@pytest.mark.parametrize(
    ("rows", "curated", "current"),
    [
        # the successor chain within the family ends at V061, for all three (issue 22 review: one owner of it)
        ([("v5", "MYD11A1", _MYD11A1.format("V005")), ("v6", "MYD11A1", _MYD11A1.format("V006")), ("v61", "MYD11A1", _MYD11A1.format("V061"))],
         CURATED, {"v5": "V061", "v6": "V061", "v61": "V061"}),
        # parallel streams: each is its own current version
        ([("g20", "GLDAS_NOAH025_3H", "GLDAS Noah Land Surface Model L4 3 hourly 0.25 x 0.25 degree V2.0"),
          ("g21", "GLDAS_NOAH025_3H", "GLDAS Noah Land Surface Model L4 3 hourly 0.25 x 0.25 degree V2.1")],
         CURATED, {"g20": "V2.0", "g21": "V2.1"}),
        # a successor of another family ends the chain: TMPA's own version
        ([("t", "TRMM_3B42", "TRMM (TMPA) Precipitation L3 3 hour 0.25 degree x 0.25 degree V7"),
          ("g7", "GPM_3IMERGHH", "GPM IMERG Final Precipitation L3 Half Hourly 0.1 degree x 0.1 degree V07")],
         CURATED, {"t": "V7", "g7": "V07"}),
        # a row without a version has none
        ([("alpha", None, "Alpha sea ice concentration"), ("v61", "MYD11A1", _MYD11A1.format("V061"))],
         CURATED, {"alpha": None, "v61": "V061"}),
        # a curated line naming the family's own newest dataset as every version's successor links V061 to itself:
        # the chain stops there, it does not loop
        ([("v6", "MYD11A1", _MYD11A1.format("V006")), ("v61", "MYD11A1", _MYD11A1.format("V061"))],
         pd.DataFrame([("successor", "MYD11A1", None, "MYD11A1", None, "2023", "made up")], columns=CURATED_COLUMNS),
         {"v6": "V061", "v61": "V061"}),
    ],
)
def test_current_version_ends_the_successor_chain_within_the_family(rows, curated, current):
    frame = pd.DataFrame([(*row, None, None) for row in rows], columns=["dataset_id", "short_name", "long_name", "doi", "cmr_id"])
    result = dataset_lineage(frame, curated, CMR_RECORDS, NO_PROGRESS).set_index("dataset_id")
    assert {dataset_id: version if isinstance(version, str) else None for dataset_id, version in result["current_version"].items()} == current


def test_a_curated_successor_is_the_newest_standard_product_never_a_near_real_time_stream():
    """bug fixed: TRMM_3B42 was superseded by a V08 near-real-time IMERG stream."""
    result = lineage(
        ("t", "TRMM_3B42", "TRMM (TMPA) Precipitation L3 3 hour 0.25 degree x 0.25 degree V7", None),
        ("g7", "GPM_3IMERGHH", "GPM IMERG Final Precipitation L3 Half Hourly 0.1 degree x 0.1 degree V07", None),
        ("gnrt", "GPM_3IMERGHH_NRT", "GPM IMERG Early Precipitation L3 Half Hourly (NRT) V08", None),
    )
    assert result.loc["t", "successor_dataset_id"] == "g7"


def test_near_real_time_never_succeeds_the_standard_product():
    result = lineage(
        ("std", "AIRS2RET", "AIRS/Aqua L2 Standard Physical Retrieval V7.0", None),
        ("nrt", "AIRS2RET_NRT", "AIRS/Aqua L2 Near Real Time (NRT) Standard Physical Retrieval V7.0", None),
    )
    assert not result["superseded"].any()
    assert result.loc["nrt", "status"] == "near_real_time"


def test_the_shipped_real_cmr_page_reads_as_twenty_active_collections():
    progress = shipped_collection_progress()
    assert len(progress) == 20 and set(progress["collection_progress"]) == {"ACTIVE"}
    assert progress.set_index("concept_id").loc["C2758162622-POCLOUD", "doi"] == "10.5067/swot-riversp-1.1"


@pytest.mark.parametrize(
    ("progress", "match_by", "superseded", "evidence"),
    [
        ("ACTIVE", "concept id", False, None),
        ("COMPLETE", "concept id", False, None),
        ("DEPRECATED", "concept id", True, "CMR CollectionProgress DEPRECATED (C2758162622-POCLOUD, metadata revised 2024-03-13)"),
        ("SUPERSEDED", "concept id", True, "CMR CollectionProgress SUPERSEDED (C2758162622-POCLOUD, metadata revised 2024-03-13)"),
        ("deprecated", "DOI", True, "CMR CollectionProgress DEPRECATED (C2758162622-POCLOUD, metadata revised 2024-03-13)"),
    ],
)
def test_cmr_collection_progress_retires_a_collection_whatever_its_version_says(progress, match_by, superseded, evidence):
    row = SWOT if match_by == "concept id" else (*SWOT[:4], None)
    result = lineage(row, progress=collection_progress([pocloud_page(progress)]))
    assert result.loc["swot", "collection_progress"] == progress.upper()
    assert bool(result.loc["swot", "superseded"]) is superseded
    assert (result.loc["swot", "evidence"] if superseded else None) == evidence


def test_cmr_retirement_keeps_the_parsed_successor_in_the_evidence():
    result = lineage(SWOT, SWOT_NEXT, progress=collection_progress([pocloud_page("DEPRECATED")]))
    assert result.loc["swot", "successor_dataset_id"] == "swot2"
    assert result.loc["swot", "evidence"].startswith("CMR CollectionProgress DEPRECATED")
    assert "SWOT_L2_HR_RiverSP Version 1.1 -> Version 2.0" in result.loc["swot", "evidence"]


def test_cmr_active_does_not_undo_a_newer_version():
    """CMR keeps replaced versions ACTIVE while they are distributed: ACTIVE never cancels a successor."""
    result = lineage(SWOT, SWOT_NEXT, progress=collection_progress([pocloud_page()]))
    assert result.loc["swot", "superseded"] and result.loc["swot", "collection_progress"] == "ACTIVE"


@pytest.mark.parametrize(
    ("response", "error"),
    [({"hits": 0}, "no 'items' list"), ({"items": [{"umm": {"ShortName": "X"}, "meta": {}}]}, "without meta.concept-id")],
)
def test_collection_progress_refuses_what_is_not_a_cmr_umm_json_response(response, error):
    with pytest.raises(ValueError, match=error):
        collection_progress([response])


@pytest.mark.parametrize(
    ("items", "error"),
    [
        ([None], "CMR item 0 is not an object"),
        ([{"meta": None, "umm": {}}], "CMR item 0 is not an object"),
        ([{"meta": {"concept-id": "C1-X", "revision-date": "yesterday"}, "umm": {}}], "revision-date 'yesterday' is not an ISO"),
    ],
    ids=["null-item", "null-meta", "bad-revision-date"],
)
def test_collection_progress_refuses_malformed_items_with_a_clear_error(items, error):
    """bug fixed: these raised AttributeError / TypeError instead of the documented ValueError."""
    with pytest.raises(ValueError, match=error):
        collection_progress([{"items": items}])


def test_collection_progress_keeps_the_latest_revision_and_reads_a_bare_doi_string():
    def item(revision_id, date, progress):
        return {"meta": {"concept-id": "C1-X", "revision-id": revision_id, "revision-date": date},
                "umm": {"CollectionProgress": progress, "DOI": "10.5067/ABC"}}
    # bug fixed: dates compared as text ("...00.000Z" < "...00Z") and revision-id ignored
    frame = collection_progress([{"items": [item(3, "2024-03-13T19:12:06Z", "DEPRECATED"), item(2, "2024-03-13T19:12:06.579Z", "ACTIVE")]}])
    assert frame[["concept_id", "collection_progress", "doi"]].values.tolist() == [["C1-X", "DEPRECATED", "10.5067/abc"]]


def test_release_dates_keep_the_date_and_leave_out_unknown_ones():
    records = pd.DataFrame({
        "concept-id": ["C1", "C2", "C3"], "start-time": ["2002-08-30T00:00:00.000Z", None, "2000-02-24T00:00:00.000Z"],
        "ReleaseDate": ["2019-11-27T00:00:00.000Z", None, "2000-02-24T00:00:00.000Z"],
    })
    # a ReleaseDate on the day the data begin is the temporal start, not a release (issue 20: MOD11A1 V061)
    assert release_dates(records).to_dict() == {"C1": "2019-11-27"}


def test_the_real_mod11a1_v061_record_gives_no_release_date_and_the_extract_dates_its_supersession():
    """Issue 20: MOD11A1 V006 counted as superseded since 2000-02-24, its successor's temporal start (V061 came out in
    2021): the date is unknown, and the supersession counts from the first record of it, the CMR extract listing V061."""
    assert "C1748058432-LPCLOUD" not in release_dates(CMR_RECORDS)
    result = lineage(
        ("m6", "MOD11A1", "MOD11A1 V006", None),
        ("m61", "MOD11A1", "MODIS/Terra Land Surface Temperature/Emissivity Daily L3 Global 1km SIN Grid V061",
         "10.5067/modis/mod11a1.061", "C1748058432-LPCLOUD"),
    )
    assert result.loc["m6", "superseded"] and result.loc["m6", "superseded_since"] == "by 2025-05-31"


def test_a_supersession_of_unknown_date_counts_from_the_first_record_of_it():
    """The release of a later version is a record that the successor was out: IMERG V04 -> V05 has no date, but V05
    was replaced by V06 on 2019-03-20 (V06's real CMR ReleaseDate), so V04 was superseded by then."""
    result = lineage(
        ("g4", "GPM_3IMERGHH", "GPM_3IMERGHH V04", None),
        ("g5", "GPM_3IMERGHH", "GPM_3IMERGHH V05", None),
        ("g6", "GPM_3IMERGHH", "GPM IMERG Final Precipitation L3 Half Hourly 0.1 degree x 0.1 degree V06", None, "C1598621093-GES_DISC"),
        ("g7", "GPM_3IMERGHH", "GPM IMERG Final Precipitation L3 Half Hourly 0.1 degree x 0.1 degree V07", None, "C2723754847-GES_DISC"),
    )
    assert result["superseded_since"].dropna().to_dict() == {"g4": "by 2019-03-20", "g5": "2019-03-20", "g6": "2023-07-12"}
    assert supersession_day("by 2019-03-20") == date(2019, 3, 20) and supersession_day("2019") == date(2019, 1, 1)


def test_a_cmr_retirement_of_unknown_date_counts_from_the_metadata_revision_that_says_so():
    result = lineage(SWOT, progress=collection_progress([pocloud_page("DEPRECATED")]))
    assert result.loc["swot", "superseded_since"] == "by 2024-03-13"


def test_supersession_day_refuses_other_text():
    with pytest.raises(ValueError, match="none of YYYY"):
        supersession_day("by June 2019")
