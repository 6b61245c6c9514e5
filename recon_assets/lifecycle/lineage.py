"""Every Dataset's place in its version family: parsed version, successor, whether it is superseded, since when,
and on what authority (DOMAIN.md "Dataset lifecycle")."""

from datetime import date
from fnmatch import fnmatchcase

import pandas as pd

from recon_assets.lifecycle.cmr import EXTRACT_RECORDED_BY, RETIRED_PROGRESS, release_dates
from recon_assets.lifecycle.versions import PARALLEL, STANDARD, SUCCESSOR, parse_version, successors, version_sort_key
from recon_assets.shared.table_docs import declared_columns

COLUMNS = list(declared_columns("dataset_lineage"))
# succession_basis values, most authoritative first.
CMR_COLLECTION_PROGRESS, CURATED, INFERRED = "cmr_collection_progress", "curated", "inferred"
# Prefix of a superseded_since that dates the first record of a supersession whose own date is unknown ('by 2019-03-20'):
# it counts from then, never before (`supersession_day`).
ON_RECORD_BY = "by "


def dataset_lineage(
    datasets: pd.DataFrame, curated: pd.DataFrame, cmr_records: pd.DataFrame, cmr_progress: pd.DataFrame
) -> pd.DataFrame:
    """Version, successor and superseded flag of each dataset, with the evidence and its authority.

    In order of authority (each overrides the ones after it):
    1. CMR UMM-C `CollectionProgress` SUPERSEDED or DEPRECATED (matched by CMR concept id, else by DOI)
       supersedes the dataset whatever its version string says (`cmr.RETIRED_PROGRESS`): basis
       cmr_collection_progress.
    2. The curated lifecycle file (`versions.curated_lifecycle`, every line with its source): a successor line
       (TRMM TMPA -> GPM IMERG, MERRA -> MERRA-2, a renamed line) supersedes the family or one version of it by
       the newest standard dataset of the successor family in this KG (or, when the KG has none, by the family
       named), since the line's date; a parallel line (GLDAS-2.0 and GLDAS-2.1) keeps the lower version current.
       Basis curated.
    3. Within a family the next version is the successor (`successors`): basis inferred, since the successor's CMR
       ReleaseDate (matched by its concept id; `cmr.release_dates`: a ReleaseDate on the day the data begin is none),
       else unknown.
    A supersession whose date is unknown does not count before the evidence of it: its superseded_since is then
    ON_RECORD_BY and the date of the first record of it (`_first_record`): the earliest date of a later link of its
    chain (the successor's own supersession: the successor was out before its successor came), the CMR metadata
    revision that retired it, or the CMR extract listing the successor or a later version (cmr.EXTRACT_RECORDED_BY);
    NULL when nothing dates it.

    Args:
        datasets: columns dataset_id, short_name, long_name, doi (canonical), cmr_id.
        curated: `versions.curated_lifecycle()`.
        cmr_records: CMR collection records, columns concept-id and ReleaseDate (`cmr.shipped_collection_records`).
        cmr_progress: columns concept_id, doi, collection_progress, revision_date (`cmr.collection_progress`).

    Returns:
        one row per dataset, columns COLUMNS, in `datasets` order; current_version is the version that ends its
        successor chain within its family (`_current_versions`).
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
    lineage["succession_basis"] = lineage["superseded"].map({True: INFERRED, False: None})
    _apply_parallel(lineage, curated[curated["relation"] == PARALLEL])
    _apply_curated_successors(lineage, curated[curated["relation"] == SUCCESSOR])
    retired_on = _apply_collection_progress(lineage, datasets, cmr_progress)
    in_extract = set(cmr_id[cmr_id.isin(set(cmr_records["concept-id"]))].index)
    # each dataset's successor, and whether its supersession's date is known, for `_first_record`
    links = {
        dataset_id: (successor, since if isinstance(since, str) else None, dataset_id in in_extract)
        for dataset_id, successor, since in zip(lineage["dataset_id"], lineage["successor_dataset_id"], lineage["superseded_since"])
    }
    lineage["superseded_since"] = [
        since if isinstance(since, str) or not superseded else _first_record(successor, links, retired_on.get(position))
        for position, (since, superseded, successor) in enumerate(
            zip(lineage["superseded_since"], lineage["superseded"], lineage["successor_dataset_id"])
        )
    ]
    lineage["version_sort"] = lineage["sort_key"].map(list)
    lineage["current_version"] = _current_versions(lineage)
    return lineage.rename(columns={"source": "version_source"})[COLUMNS]


def _current_versions(lineage: pd.DataFrame) -> list[str | None]:
    """The current version of each row's family line: the version_text that ends its successor chain within its family
    (MYD11A1 V005 -> V006 -> V061: V061 for all three), followed through successor_dataset_id while the successor_family
    is the row's family; the row's own version_text when nothing in its family replaces it (a curated successor of
    another family, a parallel stream, only CMR retiring it). What the lifecycle line names when a successor has itself
    been replaced ("replaced by MYD11A1 V006 (now V061)": `papers.lifecycle_lines.lifecycle_statement`).

    Args:
        lineage: dataset_lineage rows, columns dataset_id, family, version_text, successor_dataset_id, successor_family.

    Returns:
        one version_text per row, in row order; None for a row without a version. A successor chain that returns to a
        row it passed (never made by `versions.successors`; a curated line could name a family's own newest dataset)
        ends at the last row before the repeat.
    """
    links = {
        dataset_id: successor
        for dataset_id, family, successor, successor_family in zip(
            lineage["dataset_id"], lineage["family"], lineage["successor_dataset_id"], lineage["successor_family"]
        )
        if isinstance(successor, str) and successor_family == family
    }
    version = dict(zip(lineage["dataset_id"], lineage["version_text"]))
    ends = []
    for dataset_id in lineage["dataset_id"]:
        end, seen = dataset_id, {dataset_id}
        while links.get(end) in version and links[end] not in seen:
            end = links[end]
            seen.add(end)
        ends.append(version[end] if isinstance(version[dataset_id], str) and isinstance(version[end], str) else None)
    return ends


def _same_version(sort_key: tuple[int, ...], version: object) -> bool:
    """Whether a parsed sort key is the curated version text (NA: any version)."""
    return not isinstance(version, str) or sort_key == version_sort_key(version)


def _apply_parallel(lineage: pd.DataFrame, parallel: pd.DataFrame) -> None:
    """Undo the inferred succession between two parallel streams: the lower version stays current."""
    for line in parallel.itertuples(index=False):
        linked = [
            position for position, row in enumerate(lineage.itertuples(index=False))
            if row.succession_basis == INFERRED and fnmatchcase(row.family, line.family) and fnmatchcase(row.family, line.other_family)
            and _same_version(row.sort_key, line.version) and isinstance(row.successor_version, str)
            and version_sort_key(row.successor_version) == version_sort_key(line.other_version)
        ]
        for position in linked:
            row = lineage.iloc[position]
            lineage.loc[lineage.index[position], ["successor_dataset_id", "successor_version", "successor_family", "superseded_since", "succession_basis"]] = None
            lineage.loc[lineage.index[position], "superseded"] = False
            lineage.loc[lineage.index[position], "evidence"] = (
                f"{row['family']} {row['version_text']} and {row['successor_version']} are parallel streams, both current "
                f"(curated: {line.source})"
            )


def _apply_curated_successors(lineage: pd.DataFrame, curated: pd.DataFrame) -> None:
    # The successor is the newest standard product of its family, never an NRT or provisional stream.
    newest = (
        lineage[(lineage["sort_key"].map(len) > 0) & (lineage["status"] == STANDARD)]
        .sort_values(["family", "sort_key", "dataset_id"])
        .drop_duplicates("family", keep="last")
        .set_index("family")
    )
    for line in curated.itertuples(index=False):
        replaced = (lineage["family"] == line.family) & lineage["sort_key"].map(lambda key, version=line.version: _same_version(key, version))
        if line.other_family in newest.index:
            successor = newest.loc[line.other_family]
            lineage.loc[replaced, ["successor_dataset_id", "successor_version"]] = [successor["dataset_id"], successor["version_text"]]
        else:
            lineage.loc[replaced, ["successor_dataset_id", "successor_version"]] = [None, line.other_version if isinstance(line.other_version, str) else None]
        # The takeover date, not the release of the successor's newest version (IMERG V07 came out long after
        # TMPA ended in 2019).
        lineage.loc[replaced, ["superseded", "superseded_since", "successor_family", "succession_basis"]] = [True, str(line.since), line.other_family, CURATED]
        version = f" {line.version}" if isinstance(line.version, str) else ""
        lineage.loc[replaced, "evidence"] = f"{line.family}{version} -> {line.other_family} since {line.since} (curated: {line.source})"


def supersession_day(since: object) -> date | None:
    """The day a superseded_since counts from: a date ('YYYY-MM-DD'), the first day of a year ('YYYY'), the day of
    the first record of a supersession whose date is unknown ('by YYYY-MM-DD' or 'by YYYY'); None for None / NA.

    Raises:
        ValueError: text in none of these forms.
    """
    if not isinstance(since, str):
        return None
    text = since.removeprefix(ON_RECORD_BY)
    if len(text) == 4 and text.isdigit():
        return date(int(text), 1, 1)
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"superseded_since {since!r} is none of YYYY, YYYY-MM-DD, 'by YYYY-MM-DD'") from None


def since_text(since: object) -> str:
    """When a supersession counts from, in words (a superseded_since): ' since 2019-11-27', ' on an unknown date, on
    record by 2025-05-31' (the first record of it), or ' on a date nothing on record gives' (None / NA)."""
    if not isinstance(since, str):
        return " on a date nothing on record gives"
    if since.startswith(ON_RECORD_BY):
        return f" on an unknown date, on record {since}"
    return f" since {since}"


def _first_record(successor: object, links: dict[str, tuple[object, str | None, bool]], retired_on: str | None) -> str | None:
    """ON_RECORD_BY and the earliest dated record of a supersession whose date is unknown, or None when nothing dates
    it: the day CMR's metadata revision retired it (`retired_on`), a known superseded_since further down its successor
    chain (the successor was out before its own successor came), or EXTRACT_RECORDED_BY when the successor or a later
    one is in the CMR extract.

    Args:
        successor: its successor_dataset_id (None / NA when only CMR retired it).
        links: {dataset_id: (successor_dataset_id, superseded_since when its date is known else None, whether the CMR
            extract lists it)} of every dataset.
        retired_on: 'YYYY-MM-DD' of the CMR revision that marks it SUPERSEDED or DEPRECATED, or None.
    """
    records, seen = [retired_on] if retired_on else [], set()
    while isinstance(successor, str) and successor in links and successor not in seen:
        seen.add(successor)
        successor, since, listed = links[successor]
        if listed:
            records.append(EXTRACT_RECORDED_BY)
        if since is not None:
            records.append(since)
    return ON_RECORD_BY + min(records, key=supersession_day) if records else None


def _apply_collection_progress(lineage: pd.DataFrame, datasets: pd.DataFrame, cmr_progress: pd.DataFrame) -> dict[int, str]:
    """Retire the datasets CMR marks SUPERSEDED or DEPRECATED; returns {row position: day of the metadata revision
    that says so ('YYYY-MM-DD')} for those whose revision date is known."""
    by_concept = cmr_progress.drop_duplicates("concept_id").set_index("concept_id", drop=False)
    by_doi = cmr_progress.dropna(subset=["doi"]).drop_duplicates("doi").set_index("doi")
    matched = [
        by_concept.loc[concept] if concept in by_concept.index else by_doi.loc[doi] if doi in by_doi.index else None
        for concept, doi in zip(datasets["cmr_id"], datasets["doi"])
    ]
    lineage["collection_progress"] = [None if record is None else record["collection_progress"] for record in matched]
    retired_on = {}
    for position, record in enumerate(matched):
        if record is None or record["collection_progress"] not in RETIRED_PROGRESS:
            continue
        if pd.notna(record["revision_date"]):
            retired_on[position] = f"{record['revision_date']:%Y-%m-%d}"
        parsed = lineage.at[position, "evidence"]
        lineage.at[position, "superseded"] = True
        lineage.at[position, "succession_basis"] = CMR_COLLECTION_PROGRESS
        lineage.at[position, "evidence"] = (
            f"CMR CollectionProgress {record['collection_progress']} ({record['concept_id']}, metadata revised "
            f"{_day(record['revision_date'])})" + (f"; {parsed}" if isinstance(parsed, str) else "")
        )
    return retired_on


def _day(timestamp: pd.Timestamp) -> str:
    return "on an unknown date" if pd.isna(timestamp) else f"{timestamp:%Y-%m-%d}"
