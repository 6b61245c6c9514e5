"""dataset_lineage: version successors within a family and curated cross-family successors."""

import pandas as pd

from recon_assets.lifecycle.lineage import COLUMNS, dataset_lineage

CURATED = pd.DataFrame(
    {"predecessor_family": ["TRMM_3B42"], "successor_family": ["GPM_3IMERGHH"], "since": [2019], "source": ["GES DISC notice"]}
)


def lineage(*rows):
    frame = pd.DataFrame(rows, columns=["dataset_id", "short_name", "long_name", "doi"])
    return dataset_lineage(frame, CURATED).set_index("dataset_id")


def test_next_version_of_the_family_is_the_successor():
    result = lineage(
        ("a6", "AIRS3STD", "AIRS/Aqua L3 Daily Standard Physical Retrieval V006", None),
        ("a7", "AIRS3STD", "AIRS/Aqua L3 Daily Standard Physical Retrieval V7.0", None),
    )
    assert list(result.reset_index().columns) == COLUMNS
    assert result.loc["a6", "superseded"] and result.loc["a6", "successor_dataset_id"] == "a7"
    assert "AIRS3STD V006 -> V7.0" in result.loc["a6", "evidence"]
    assert not result.loc["a7", "superseded"] and result.loc["a7", "version_sort"] == [7, 0]


def test_curated_successor_family_supersedes_with_its_newest_dataset_or_by_name():
    with_imerg = lineage(
        ("t", "TRMM_3B42", "TRMM (TMPA) Precipitation L3 3 hour 0.25 degree x 0.25 degree V7", None),
        ("g6", "GPM_3IMERGHH", "GPM IMERG Final Precipitation L3 Half Hourly 0.1 degree x 0.1 degree V06", None),
        ("g7", "GPM_3IMERGHH", "GPM IMERG Final Precipitation L3 Half Hourly 0.1 degree x 0.1 degree V07", None),
    )
    assert with_imerg.loc["t", "successor_dataset_id"] == "g7"
    assert "TRMM_3B42 -> GPM_3IMERGHH since 2019 (curated: GES DISC notice)" == with_imerg.loc["t", "evidence"]
    alone = lineage(("t", "TRMM_3B42", "TRMM (TMPA) Precipitation L3 3 hour 0.25 degree x 0.25 degree V7", None))
    assert alone.loc["t", "superseded"] and pd.isna(alone.loc["t", "successor_dataset_id"])


def test_near_real_time_never_succeeds_the_standard_product():
    result = lineage(
        ("std", "AIRS2RET", "AIRS/Aqua L2 Standard Physical Retrieval V7.0", None),
        ("nrt", "AIRS2RET_NRT", "AIRS/Aqua L2 Near Real Time (NRT) Standard Physical Retrieval V7.0", None),
    )
    assert not result["superseded"].any()
    assert result.loc["nrt", "status"] == "near_real_time"
