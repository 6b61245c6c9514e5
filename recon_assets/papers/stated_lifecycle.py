"""The lifecycle of a dataset version a paper states that the graph does not hold ("MCD15A2H V006" when the graph
has MCD15A2H 061): the lifecycle's own rules (`lifecycle.lineage.dataset_lineage`: CMR CollectionProgress, the
curated successor and parallel-stream lines, then version order) run over the graph's collections of that family
with the stated version added, so a stated version is flagged replaced exactly when the lifecycle would flag a
Dataset node of that version, with the same successor, date and authority.
"""

from __future__ import annotations

from functools import lru_cache

import pandas as pd

from recon_assets.kg.doi import canonical_doi
from recon_assets.lifecycle.cmr import shipped_collection_progress, shipped_collection_records
from recon_assets.lifecycle.lineage import dataset_lineage
from recon_assets.lifecycle.versions import curated_lifecycle

# The dataset_id the stated version gets inside the computation (never stored).
STATED_ID = "paper-stated-version"
LINEAGE_FIELDS = ("superseded", "successor_family", "successor_version", "superseded_since", "succession_basis", "evidence")


@lru_cache(maxsize=1)
def _references() -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    return curated_lifecycle(), shipped_collection_records(), shipped_collection_progress()


@lru_cache(maxsize=1)
def _concept_by_doi() -> dict[str, str]:
    """{canonical DOI: CMR concept id} of the shipped CMR records (the first record of a DOI held at two providers)."""
    records = _references()[1]
    found: dict[str, str] = {}
    for doi, concept in zip(records["DOI"], records["concept-id"]):
        key = canonical_doi(doi) if isinstance(doi, str) else None
        if key and isinstance(concept, str):
            found.setdefault(key, concept)
    return found


def family_lineage(rows: pd.DataFrame, family: str, stated: str | None = None) -> pd.DataFrame:
    """`dataset_lineage` over one family's collections, with the stated version added as a row of its own.

    Args:
        rows: the family's Dataset nodes, columns dataset_id, short_name, long_name, doi and cmr_id (the CMR concept
            id, for the successor's release date; when NA, the concept id of the shipped CMR record with its DOI).
        family: the family's name (`parse_version`'s family of those rows).
        stated: the version the paper states ("V006", "7", "Collection 5"), or None for the family's rows alone.

    Returns:
        dataset_lineage's rows (its COLUMNS), the stated version's under dataset_id STATED_ID.
    """
    frame = rows[["dataset_id", "short_name", "long_name", "doi", "cmr_id"]].copy()
    # A node without a concept id (a KG node keyed by its globalId) is found in the CMR extract by its DOI, for the
    # successor's release date.
    concepts = _concept_by_doi()
    frame["cmr_id"] = [
        concept if isinstance(concept, str) else concepts.get(canonical_doi(doi) or "") if isinstance(doi, str) else None
        for concept, doi in zip(frame["cmr_id"], frame["doi"])
    ]
    if stated is not None:
        # The version as a long name's "V<number>" ("V006", "V5.12.4"), which parse_version reads from a long name.
        number = stated.strip().lstrip("Vv").strip()
        extra = pd.DataFrame([{"dataset_id": STATED_ID, "short_name": family, "long_name": f"{family} V{number}", "doi": None, "cmr_id": None}])
        frame = pd.concat([frame, extra], ignore_index=True)
    return dataset_lineage(frame.reset_index(drop=True), *_references())


def stated_version_lineage(rows: pd.DataFrame, family: str, stated: str) -> dict:
    """The lineage of a version the paper states and the graph lacks: `family_lineage`'s row of STATED_ID as
    {field: value} for LINEAGE_FIELDS (superseded False when no rule replaces it: a version newer than any the
    graph holds, or a parallel stream)."""
    row = family_lineage(rows, family, stated).set_index("dataset_id").loc[STATED_ID]
    values = {field: None if pd.isna(row[field]) else row[field] for field in LINEAGE_FIELDS}
    return values | {"superseded": bool(values["superseded"])}
