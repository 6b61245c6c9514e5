"""What NASA CMR says about collection versions: release dates and UMM-C `CollectionProgress`.

Two real CMR extracts ship in `recon_assets/reference/cmr/` (provenance in its README.md):
- `cmr_collections_version_families.csv`: 5,453 collection records with `concept-id`, `ShortName`, `Version`, `DOI`
  and `ReleaseDate`; the release date of a successor version is when its predecessor was superseded;
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


def collection_progress(responses: Iterable[dict]) -> pd.DataFrame:
    """One row per collection of CMR `collections.umm_json` search responses.

    Args:
        responses: parsed JSON bodies, each {"items": [{"meta": {"concept-id", "revision-date", ...},
            "umm": {"ShortName", "Version", "DOI": {"DOI"}, "CollectionProgress", ...}}, ...]}.

    Returns:
        columns PROGRESS_COLUMNS: concept_id, doi (canonical, NA when absent), short_name, version,
        collection_progress (upper case, NA when absent), revision_date (ISO text of the metadata revision);
        one row per concept id (the last revision seen wins).

    Raises:
        ValueError: a response without an `items` list, or an item without a concept id.
    """
    rows = []
    for response in responses:
        items = response.get("items") if isinstance(response, dict) else None
        if not isinstance(items, list):
            raise ValueError("not a CMR umm_json search response: no 'items' list")
        for item in items:
            meta, umm = item.get("meta", {}), item.get("umm", {})
            if not meta.get("concept-id"):
                raise ValueError(f"CMR item without meta.concept-id: {umm.get('ShortName')!r}")
            progress = umm.get("CollectionProgress")
            rows.append({
                "concept_id": meta["concept-id"],
                "doi": canonical_doi((umm.get("DOI") or {}).get("DOI")),
                "short_name": umm.get("ShortName"),
                "version": umm.get("Version"),
                "collection_progress": progress.strip().upper() if isinstance(progress, str) else None,
                "revision_date": meta.get("revision-date"),
            })
    frame = pd.DataFrame(rows, columns=PROGRESS_COLUMNS)
    return frame.sort_values("revision_date", kind="stable").drop_duplicates("concept_id", keep="last").reset_index(drop=True)


def release_dates(records: pd.DataFrame) -> pd.Series:
    """ReleaseDate (ISO date text, 'YYYY-MM-DD') per CMR concept id; collections without one are left out.

    Args:
        records: CMR collection records with columns concept-id and ReleaseDate (ISO timestamp text or NA).
    """
    known = records.dropna(subset=["ReleaseDate"]).drop_duplicates("concept-id")
    return pd.Series(known["ReleaseDate"].str.slice(0, 10).to_numpy(), index=known["concept-id"].to_numpy(), name="release_date")


def shipped_collection_records() -> pd.DataFrame:
    """The shipped CMR collection records (`cmr_collections_version_families.csv`), every column as text."""
    return pd.read_csv(io.StringIO(_REFERENCE.joinpath("cmr_collections_version_families.csv").read_text()), dtype=str)


def shipped_collection_progress() -> pd.DataFrame:
    """`collection_progress` of every shipped `umm_json_*.json` CMR response."""
    pages = sorted((page for page in _REFERENCE.iterdir() if page.name.startswith("umm_json_")), key=lambda page: page.name)
    return collection_progress(json.loads(page.read_text()) for page in pages)
