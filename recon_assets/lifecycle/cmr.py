"""What NASA CMR says about collection versions: release dates and UMM-C `CollectionProgress`.

Two real CMR extracts ship in `recon_assets/reference/cmr/` (provenance in its README.md):
- `cmr_collections_version_families.csv`: 5,453 collection records with `concept-id`, `ShortName`, `Version`, `DOI`,
  temporal extent (`start-time`) and `ReleaseDate`; the release date of a successor version is when its predecessor
  was superseded. A ReleaseDate on the day the collection's data begin is the temporal start copied into the field,
  not a release (MOD11A1 V061: 2000-02-24, the first day of Terra MODIS data; 87 of the 3,151 dated records), so it
  is read as unknown;
- `umm_json_*.json`: CMR search responses in the `collections.umm_json` format, whose `CollectionProgress`
  (UMM-C 1.17: PLANNED, ACTIVE, COMPLETE, DEPRECATED, NOT PROVIDED; SUPERSEDED in older records) states
  a collection's lifecycle outright.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable
from importlib import resources

import pandas as pd

from recon_assets.kg.doi import canonical_doi

# CollectionProgress values that retire a collection whatever its version string says. ACTIVE and COMPLETE
# do not make a version current: CMR keeps replaced versions (AIRS V006, IMERG V06) ACTIVE while they are
# still distributed, so only an explicit retirement overrides the version chain.
RETIRED_PROGRESS = ("SUPERSEDED", "DEPRECATED")
PROGRESS_COLUMNS = ["concept_id", "doi", "short_name", "version", "collection_progress", "revision_date"]
_REFERENCE = resources.files("recon_assets.reference").joinpath("cmr")
# The latest date the collection extract can have been taken: it joins earthaccess dumps of CMR of 2023-12 and 2025-05
# (recon_assets/reference/cmr/README.md) and a row does not say which, so a collection listed in it was in CMR by the
# end of 2025-05 at the latest: the date of that record, when nothing else dates a supersession (`lineage`).
EXTRACT_RECORDED_BY = "2025-05-31"


def collection_progress(responses: Iterable[dict]) -> pd.DataFrame:
    """One row per collection of CMR `collections.umm_json` search responses.

    Args:
        responses: parsed JSON bodies, each {"items": [{"meta": {"concept-id", "revision-date", ...},
            "umm": {"ShortName", "Version", "DOI": {"DOI"}, "CollectionProgress", ...}}, ...]}.

    Returns:
        columns PROGRESS_COLUMNS: concept_id, doi (canonical, NA when absent), short_name, version,
        collection_progress (upper case, NA when absent), revision_date (UTC timestamp of the metadata revision,
        NaT when absent); one row per concept id: its latest revision (by revision-id, then revision date).

    Raises:
        ValueError: a response without an `items` list, an item, `meta` or `umm` that is not an object, an item
            without a concept id, or a revision-date that is not an ISO timestamp.
    """
    rows = []
    for response in responses:
        items = response.get("items") if isinstance(response, dict) else None
        if not isinstance(items, list):
            raise ValueError("not a CMR umm_json search response: no 'items' list")
        for position, item in enumerate(items):
            meta, umm = (item.get(part) if isinstance(item, dict) else None for part in ("meta", "umm"))
            if not (isinstance(meta, dict) and isinstance(umm, dict)):
                raise ValueError(f"CMR item {position} is not an object with 'meta' and 'umm' objects")
            if not meta.get("concept-id"):
                raise ValueError(f"CMR item without meta.concept-id: {umm.get('ShortName')!r}")
            progress, doi = umm.get("CollectionProgress"), umm.get("DOI")
            rows.append({
                "concept_id": meta["concept-id"],
                # UMM-C gives {"DOI": "10.5067/..."}; a bare string is read too.
                "doi": canonical_doi(doi.get("DOI") if isinstance(doi, dict) else doi),
                "short_name": umm.get("ShortName"),
                "version": umm.get("Version"),
                "collection_progress": progress.strip().upper() if isinstance(progress, str) else None,
                "revision_id": pd.to_numeric(meta.get("revision-id"), errors="coerce"),
                "revision_date": _timestamp(meta.get("revision-date"), meta["concept-id"]),
            })
    frame = pd.DataFrame(rows, columns=[*PROGRESS_COLUMNS, "revision_id"])
    latest = frame.sort_values(["revision_id", "revision_date"], kind="stable", na_position="first")
    return latest.drop_duplicates("concept_id", keep="last").sort_index()[PROGRESS_COLUMNS].reset_index(drop=True)


def release_dates(records: pd.DataFrame) -> pd.Series:
    """ReleaseDate (ISO date text, 'YYYY-MM-DD') per CMR concept id; collections without one are left out, and so are
    those whose ReleaseDate falls on the day their data begin (`start-time`): that is the temporal start copied into
    the field, not a release (MOD11A1 V061's 2000-02-24 is the first day of Terra MODIS data; V061 came out in 2021).

    Args:
        records: CMR collection records with columns concept-id, start-time and ReleaseDate (ISO timestamp text or NA).
    """
    day, start = records["ReleaseDate"].str.slice(0, 10), records["start-time"].str.slice(0, 10)
    known = records[day.notna() & day.ne(start)].drop_duplicates("concept-id")
    return pd.Series(known["ReleaseDate"].str.slice(0, 10).to_numpy(), index=known["concept-id"].to_numpy(), name="release_date")


def shipped_collection_records() -> pd.DataFrame:
    """The shipped CMR collection records (`cmr_collections_version_families.csv`), every column as text."""
    return pd.read_csv(io.StringIO(_REFERENCE.joinpath("cmr_collections_version_families.csv").read_text()), dtype=str)


def shipped_collection_progress() -> pd.DataFrame:
    """`collection_progress` of every shipped `umm_json_*.json` CMR response."""
    pages = sorted((page for page in _REFERENCE.iterdir() if page.name.startswith("umm_json_")), key=lambda page: page.name)
    return collection_progress(json.loads(page.read_text()) for page in pages)


def _timestamp(value: object, concept_id: str) -> pd.Timestamp:
    """A CMR revision-date as a UTC timestamp (a date without a zone is UTC); NaT when absent."""
    if value is None:
        return pd.NaT
    try:
        return pd.to_datetime(value, utc=True)
    except (TypeError, ValueError) as error:
        raise ValueError(f"CMR item {concept_id}: revision-date {value!r} is not an ISO timestamp") from error
