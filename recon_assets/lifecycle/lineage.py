"""Every Dataset's place in its version family: parsed version, successor, and whether it is superseded."""

import pandas as pd

from recon_assets.lifecycle.cmr import RETIRED_PROGRESS, release_dates
from recon_assets.lifecycle.versions import STANDARD, parse_version, successors

COLUMNS = [
    "dataset_id", "family", "version_text", "version_sort", "status", "version_source", "version_issue",
    "successor_dataset_id", "successor_family", "successor_version", "superseded", "superseded_since", "collection_progress", "evidence",
]


def dataset_lineage(
    datasets: pd.DataFrame, curated: pd.DataFrame, cmr_records: pd.DataFrame, cmr_progress: pd.DataFrame
) -> pd.DataFrame:
    """Version, successor and superseded flag of each dataset, with the evidence for the conclusion.

    In order of authority:
    1. CMR UMM-C `CollectionProgress` SUPERSEDED or DEPRECATED (matched by CMR concept id, else by DOI)
       supersedes the dataset whatever its version string says (`cmr.RETIRED_PROGRESS`).
    2. A curated cross-family successor (TRMM TMPA -> GPM IMERG, MERRA -> MERRA-2, TOMS -> OMI;
       `curated_successors`): superseded by the newest dataset of the successor family in this KG, or, when
       the KG has none, still superseded with the successor family named in the evidence.
    3. Within a family the next version is the successor (`successors`).
    `superseded_since` is the curated `since` year for a curated successor, else the CMR ReleaseDate of the
    successor (matched by its concept id), else NULL (unknown).

    Args:
        datasets: columns dataset_id, short_name, long_name, doi (canonical), cmr_id.
        curated: columns predecessor_family, successor_family, since, source.
        cmr_records: CMR collection records, columns concept-id and ReleaseDate (`cmr.shipped_collection_records`).
        cmr_progress: columns concept_id, doi, collection_progress, revision_date (`cmr.collection_progress`).

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
    released = release_dates(cmr_records)
    cmr_id = pd.Series(datasets["cmr_id"].to_numpy(), index=datasets["dataset_id"].to_numpy())
    lineage["successor_family"] = lineage["family"].where(lineage["superseded"])
    lineage["superseded_since"] = lineage["successor_dataset_id"].map(cmr_id).map(released).astype(object)
    _apply_curated(lineage, curated)
    _apply_collection_progress(lineage, datasets, cmr_progress)
    lineage["version_sort"] = lineage["sort_key"].map(list)
    return lineage.rename(columns={"source": "version_source"})[COLUMNS]


def _apply_curated(lineage: pd.DataFrame, curated: pd.DataFrame) -> None:
    # The successor is the newest standard product of its family, never an NRT or provisional stream.
    newest = (
        lineage[(lineage["sort_key"].map(len) > 0) & (lineage["status"] == STANDARD)]
        .sort_values(["family", "sort_key", "dataset_id"])
        .drop_duplicates("family", keep="last")
        .set_index("family")
    )
    for line in curated.itertuples(index=False):
        replaced = (lineage["family"] == line.predecessor_family) & ~lineage["superseded"]
        if line.successor_family in newest.index:
            successor = newest.loc[line.successor_family]
            lineage.loc[replaced, ["successor_dataset_id", "successor_version"]] = [successor["dataset_id"], successor["version_text"]]
        # The takeover year, not the release of the successor's newest version (IMERG V07 came out long after
        # TMPA ended in 2019).
        lineage.loc[replaced, ["superseded", "superseded_since", "successor_family"]] = [True, str(line.since), line.successor_family]
        lineage.loc[replaced, "evidence"] = (
            f"{line.predecessor_family} -> {line.successor_family} since {line.since} (curated: {line.source})"
        )


def _apply_collection_progress(lineage: pd.DataFrame, datasets: pd.DataFrame, cmr_progress: pd.DataFrame) -> None:
    by_concept = cmr_progress.drop_duplicates("concept_id").set_index("concept_id", drop=False)
    by_doi = cmr_progress.dropna(subset=["doi"]).drop_duplicates("doi").set_index("doi")
    matched = [
        by_concept.loc[concept] if concept in by_concept.index else by_doi.loc[doi] if doi in by_doi.index else None
        for concept, doi in zip(datasets["cmr_id"], datasets["doi"])
    ]
    lineage["collection_progress"] = [None if record is None else record["collection_progress"] for record in matched]
    for position, record in enumerate(matched):
        if record is None or record["collection_progress"] not in RETIRED_PROGRESS:
            continue
        parsed = lineage.at[position, "evidence"]
        lineage.at[position, "superseded"] = True
        lineage.at[position, "evidence"] = (
            f"CMR CollectionProgress {record['collection_progress']} ({record['concept_id']}, metadata revised "
            f"{_day(record['revision_date'])})" + (f"; {parsed}" if isinstance(parsed, str) else "")
        )


def _day(timestamp: pd.Timestamp) -> str:
    return "on an unknown date" if pd.isna(timestamp) else f"{timestamp:%Y-%m-%d}"
