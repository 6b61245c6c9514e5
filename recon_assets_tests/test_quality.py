import json

import pandas as pd
import pytest

from recon_assets.shared.quality import (
    doi_is_well_formed,
    share_by_group,
    validate_edge_reliability,
    validate_publication_dois,
    validate_publication_years,
)

LABELS = ("FOUNDATIONAL", "CURRENT", "DECLINING", "SUPERSEDED")
STATUSES = ("SUPPORTED", "CONTRADICTED", "SUPERSEDED", "UNVERIFIED")

# Real DOIs from the KG sample records, CMR collections and OpenAlex works of the project's real-data
# set, lower-cased as the pipeline stores them, plus SICI DOIs of AMS papers (Kalnay, Kummerow).
WELL_FORMED = [
    "10.5067/is-40e/tempo/no2_l3.003",
    "10.5067/caliop/calipso/cal_lid_l2_05kmapro-standard-v4-21",
    "10.5067/asdc_daac/clams/0002",
    "10.5194/acp-21-12359-2021",
    "10.1016/j.rse.2020.111869",
    "10.3390/rs15020297",
    "10.1007/s13202-022-01602-1",
    "10.5067/umraws57qafu",
    "10.1175/1520-0477(1996)077<0437:tnyrp>2.0.co;2",  # Kalnay et al. 1996, NCEP/NCAR reanalysis
    "10.1175/1520-0426(1998)015<0809:ttrmmt>2.0.co;2",  # Kummerow et al. 1998, TRMM
    "10.1175/1520-0442(2001)014<0203:abcd>2.0.co;2",
    "10.1000.10/123456",  # DOI Handbook 2.2.2: registrant code with a subdivision
]
MALFORMED = [
    "N/A",
    "",
    "10.abc/x",
    "10.123/x",  # registrant code shorter than 4 digits
    "10.1002/",  # empty suffix
    "https://doi.org/10.1002/2017gl075472",  # resolver URL, not a bare DOI
    "doi:10.1002/2017gl075472",
    "10.1002/2017GL075472",  # upper case as stored raw in the KG
    " 10.1002/2017gl075472",
    "10.1002/2017gl075472\n",
    "10.1002/2017 gl075472",
]


def _summary(outcome, expectation, column):
    (match,) = [
        e for e in outcome.expectations if e["expectation"] == expectation and e["column"] == column
    ]
    return match


def _failed(outcome):
    return {(e["expectation"], e["column"]) for e in outcome.expectations if not e["success"]}


@pytest.mark.parametrize(
    ("doi", "expected"),
    [(d, True) for d in WELL_FORMED] + [(d, False) for d in MALFORMED] + [(None, False)],
)
def test_doi_is_well_formed(doi, expected):
    assert doi_is_well_formed(pd.Series([doi], dtype=object)).tolist() == [expected]


def test_gx_regex_agrees_with_doi_is_well_formed():
    dois = pd.Series(WELL_FORMED + MALFORMED + [None], dtype=object)
    outcome = validate_publication_dois(
        pd.DataFrame({"doi": dois}), min_present_share=0.0, min_well_formed_share=0.0
    )
    regex = _summary(outcome, "expect_column_values_to_match_regex", "doi")
    assert regex["element_count"] == len(dois)
    assert regex["unexpected_count"] == len(MALFORMED) == (~doi_is_well_formed(dois)).sum() - 1
    assert regex["observed_share"] == len(WELL_FORMED) / (len(dois) - 1)
    assert len(regex["unexpected_examples"]) == 5
    assert set(regex["unexpected_examples"]) <= set(MALFORMED)


@pytest.mark.parametrize(
    ("years", "min_share", "success", "observed_share"),
    [
        (["2003", "2020", "2019", None], 0.75, True, 0.75),  # exactly at the threshold
        (["2003", "2020", "2019", None], 0.76, False, 0.75),  # just below
        ([2003] * 7 + [None] * 3, 0.7, True, 0.7),
        ([2003] * 7 + [None] * 3, 0.7000001, False, 0.7),
        ([None, None], 0.0, True, 0.0),
        ([2024], 1.0, True, 1.0),
    ],
)
def test_validate_publication_years(years, min_share, success, observed_share):
    outcome = validate_publication_years(pd.DataFrame({"year": years}), min_share=min_share)
    summary = _summary(outcome, "expect_column_values_to_not_be_null", "year")
    assert (outcome.success, summary["success"]) == (success, success)
    assert summary["observed_share"] == pytest.approx(observed_share)
    assert summary["mostly"] == min_share
    assert summary["element_count"] == len(years)


@pytest.mark.parametrize(
    ("dois", "min_present", "min_well_formed", "failed"),
    [
        # 4 of 5 present; 3 of the 4 present are well formed.
        (WELL_FORMED[:3] + ["N/A", None], 0.8, 0.75, set()),
        (WELL_FORMED[:3] + ["N/A", None], 0.81, 0.75, {"expect_column_values_to_not_be_null"}),
        (WELL_FORMED[:3] + ["N/A", None], 0.8, 0.76, {"expect_column_values_to_match_regex"}),
        (
            ["https://doi.org/10.1002/2017gl075472", None],
            0.5,
            0.5,
            {"expect_column_values_to_match_regex"},
        ),
        ([None, None], 0.5, 1.0, {"expect_column_values_to_not_be_null"}),
    ],
)
def test_validate_publication_dois(dois, min_present, min_well_formed, failed):
    outcome = validate_publication_dois(
        pd.DataFrame({"doi": dois}),
        min_present_share=min_present,
        min_well_formed_share=min_well_formed,
    )
    assert {name for name, _ in _failed(outcome)} == failed
    assert outcome.success is (not failed)


def _edges(**overrides):
    edges = pd.DataFrame(
        {
            "reliability": [0.61, 0.32, 0.0],
            "centrality": [0.92, 0.19, 1.0],
            "recency": [0.0, 0.7, 1.0],
            "coherence": [0.8, 0.1, 0.5],
            "label": ["FOUNDATIONAL", "SUPERSEDED", "DECLINING"],
            "coherence_status": ["SUPPORTED", "CONTRADICTED", "UNVERIFIED"],
        }
    )
    for column, values in overrides.items():
        edges[column] = values
    return edges


@pytest.mark.parametrize(
    ("overrides", "failed", "examples"),
    [
        ({}, set(), []),
        (
            {"reliability": [1.2, 0.5, -0.01]},
            {("expect_column_values_to_be_between", "reliability")},
            [1.2, -0.01],
        ),
        (
            {"coherence": [0.5, None, 1.0]},
            {("expect_column_values_to_not_be_null", "coherence")},
            [None],
        ),
        (
            {"label": ["current", "STALE", "Foundational"]},
            {("expect_column_values_to_be_in_set", "label")},
            ["current", "STALE", "Foundational"],
        ),
        (
            {"label": ["CURRENT", None, "CURRENT"]},
            {("expect_column_values_to_not_be_null", "label")},
            [None],
        ),
    ],
)
def test_validate_edge_reliability(overrides, failed, examples):
    outcome = validate_edge_reliability(_edges(**overrides), labels=LABELS, coherence_statuses=STATUSES)
    assert _failed(outcome) == failed
    assert outcome.success is (not failed)
    for name, column in failed:
        assert _summary(outcome, name, column)["unexpected_examples"] == examples


@pytest.mark.parametrize(
    ("validate", "columns"),
    [
        (lambda df: validate_publication_years(df, min_share=0.0), ["year"]),
        (
            lambda df: validate_publication_dois(
                df, min_present_share=0.0, min_well_formed_share=0.0
            ),
            ["doi"],
        ),
        (lambda df: validate_edge_reliability(df, labels=LABELS, coherence_statuses=STATUSES), list(_edges().columns)),
    ],
)
def test_empty_table_fails_every_suite(validate, columns):
    outcome = validate(pd.DataFrame({c: pd.Series([], dtype=object) for c in columns}))
    assert outcome.success is False
    assert _failed(outcome) == {("expect_table_row_count_to_be_between", None)}
    row_count = _summary(outcome, "expect_table_row_count_to_be_between", None)
    assert row_count["observed_value"] == 0
    # The column expectations pass vacuously, with no share to report.
    assert {e["observed_share"] for e in outcome.expectations} == {None}


@pytest.mark.parametrize(
    "call",
    [
        lambda: validate_publication_years(
            pd.DataFrame({"doi": ["10.3390/rs15020297"]}), min_share=0.5
        ),
        lambda: validate_publication_years(pd.DataFrame({"year": [2020]}), min_share=1.5),
        lambda: validate_publication_dois(
            pd.DataFrame({"doi": ["x"]}), min_present_share=-0.1, min_well_formed_share=0.5
        ),
        lambda: validate_edge_reliability(_edges().drop(columns="recency"), labels=LABELS, coherence_statuses=STATUSES),
    ],
)
def test_bad_arguments_raise(call):
    with pytest.raises(ValueError):
        call()


def test_validation_prints_nothing(capfd):
    validate_publication_years(pd.DataFrame({"year": [2003, None]}), min_share=0.5)
    assert capfd.readouterr() == ("", "")


def test_as_metadata_is_strict_json():
    edges = _edges(
        reliability=[float("nan"), 2.0, 0.5],
        label=pd.array(["CURRENT", pd.NA, "x"], dtype="string"),
    )
    metadata = validate_edge_reliability(edges, labels=LABELS, coherence_statuses=STATUSES).as_metadata()
    assert json.loads(json.dumps(metadata, allow_nan=False)) == metadata
    assert metadata["success"] is False


@pytest.mark.parametrize(
    ("frame", "column", "predicate", "expected"),
    [
        (
            pd.DataFrame(
                {
                    "year": ["2003", None, "2020", None, "2019"],
                    "research_area": ["AIR QUALITY", "AIR QUALITY", "WILDFIRES", None, None],
                }
            ),
            "year",
            pd.Series.notna,
            {
                "AIR QUALITY": {"rows": 2, "share": 0.5},
                "WILDFIRES": {"rows": 1, "share": 1.0},
                "unclassified": {"rows": 2, "share": 0.5},
            },
        ),
        (
            pd.DataFrame(
                {
                    "doi": ["10.3390/rs15020297", "N/A", None, "10.5194/acp-21-12359-2021"],
                    "research_area": ["DROUGHT", "DROUGHT", "DROUGHT", "FLOODS"],
                }
            ),
            "doi",
            doi_is_well_formed,
            {"DROUGHT": {"rows": 3, "share": 1 / 3}, "FLOODS": {"rows": 1, "share": 1.0}},
        ),
        (pd.DataFrame({"year": [], "research_area": []}), "year", pd.Series.notna, {}),
    ],
)
def test_share_by_group(frame, column, predicate, expected):
    assert share_by_group(frame, column, "research_area", predicate) == expected
