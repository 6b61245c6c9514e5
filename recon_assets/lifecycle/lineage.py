"""Every Dataset's place in its version family: parsed version, successor, and whether it is superseded."""

import pandas as pd

from recon_assets.lifecycle.versions import parse_version, successors

COLUMNS = [
    "dataset_id", "family", "version_text", "version_sort", "status", "version_source", "version_issue",
    "successor_dataset_id", "successor_version", "superseded", "evidence",
]


def dataset_lineage(datasets: pd.DataFrame, curated: pd.DataFrame) -> pd.DataFrame:
    """Version, successor and superseded flag of each dataset, with the evidence for the conclusion.

    Within a family the next version is the successor (`successors`). A family that a curated line replaces
    (TRMM TMPA -> GPM IMERG, MERRA -> MERRA-2, TOMS -> OMI; `curated_successors`) is superseded by the newest
    dataset of the successor family in this KG, or, when the KG has none, still superseded with the successor
    family named in the evidence.

    Args:
        datasets: columns dataset_id, short_name, long_name, doi.
        curated: columns predecessor_family, successor_family, since, source.

    Returns:
        one row per dataset, columns COLUMNS, in `datasets` order.
    """
    parsed = [parse_version(s or "", l, d) for s, l, d in zip(datasets["short_name"], datasets["long_name"], datasets["doi"])]
    frame = pd.DataFrame(
        {
            "dataset_id": datasets["dataset_id"].to_numpy(),
            "family": [p.family for p in parsed],
            "version_text": [p.version_text for p in parsed],
            "sort_key": [p.sort_key for p in parsed],
            "status": [p.status for p in parsed],
            "source": [p.source for p in parsed],
            "version_issue": [p.issue for p in parsed],
        }
    )
    lineage = successors(frame)
    newest = (
        lineage[lineage["sort_key"].map(len) > 0]
        .sort_values(["family", "sort_key", "dataset_id"])
        .drop_duplicates("family", keep="last")
        .set_index("family")
    )
    for line in curated.itertuples(index=False):
        replaced = (lineage["family"] == line.predecessor_family) & ~lineage["superseded"]
        if line.successor_family in newest.index:
            successor = newest.loc[line.successor_family]
            lineage.loc[replaced, ["successor_dataset_id", "successor_version"]] = [successor["dataset_id"], successor["version_text"]]
        lineage.loc[replaced, "superseded"] = True
        lineage.loc[replaced, "evidence"] = (
            f"{line.predecessor_family} -> {line.successor_family} since {line.since} (curated: {line.source})"
        )
    lineage["version_sort"] = lineage["sort_key"].map(list)
    return lineage.rename(columns={"source": "version_source"})[COLUMNS]
