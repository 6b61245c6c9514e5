"""The lifecycle of a dataset version a paper states that the graph does not hold ("MCD15A2H V006" when the graph
has MCD15A2H 061): the lifecycle's own rules (`lifecycle.lineage.dataset_lineage`: CMR CollectionProgress, the
curated successor and parallel-stream lines, then version order) run over the graph's collections of that family
with the stated version added, so a stated version is flagged replaced exactly when the lifecycle would flag a
Dataset node of that version, with the same successor, date and authority.

A stated version no archive record attests (`version_known`: MCD12C1 "V1", where MODIS land cover has collections 5,
5.1, 6 and 6.1 only) is not flagged replaced by version order alone (basis inferred): its status is unknown, neither
current nor replaced, and its line says "version not known to the catalogue; the family's current version is V061".
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from fnmatch import fnmatchcase
from functools import lru_cache

import pandas as pd

from recon_assets.kg.doi import canonical_doi
from recon_assets.lifecycle.cmr import shipped_collection_progress, shipped_collection_records
from recon_assets.lifecycle.lineage import INFERRED, dataset_lineage
from recon_assets.lifecycle.versions import curated_lifecycle, parse_version, version_sort_key

# The dataset_id the stated version gets inside the computation (never stored).
STATED_ID = "paper-stated-version"
LINEAGE_FIELDS = ("superseded", "successor_family", "successor_version", "superseded_since", "succession_basis", "evidence")
# What a stated version no record attests is said to be (`stated_version_lineage`'s "statement").
UNKNOWN_VERSION = "version not known to the catalogue"


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


@lru_cache(maxsize=1)
def _collection_by_doi() -> dict[str, tuple[str, tuple[int, ...]]]:
    """{canonical DOI: (family, version sort key)} of the shipped CMR records whose version `parse_version` reads (the
    first record of a DOI held at two providers; both name the same collection)."""
    records = _references()[1]
    found: dict[str, tuple[str, tuple[int, ...]]] = {}
    for short_name, title, doi in zip(records["ShortName"], records["EntryTitle"], records["DOI"]):
        key = canonical_doi(doi) if isinstance(doi, str) else None
        parsed = parse_version(short_name if isinstance(short_name, str) else "", title, doi) if key else None
        if key and parsed.family and parsed.sort_key:
            found.setdefault(key, (parsed.family, parsed.sort_key))
    return found


def collection_of_doi(doi: str) -> tuple[str, tuple[int, ...]] | None:
    """The collection a data DOI names in the archive's records (the shipped CMR extract): (family, version sort key),
    e.g. "10.5067/EVKPQZ4AFC4D" -> ("SPL4SMGP", (7,)); None for a DOI no record holds (or one whose version no field
    states). What the graph's Dataset nodes lack, the archive may still say: a paper's data DOI and its "SPL4SMGP, v7"
    are one data set although the graph holds neither."""
    return _collection_by_doi().get(canonical_doi(doi) or "")


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


def lineage_values(row: pd.Series) -> dict:
    """A `dataset_lineage` row as what a lifecycle line reads (`lifecycle_lines.lifecycle_statement`): {field: value}
    for LINEAGE_FIELDS and current_version (the version that ends its successor chain in its family), NA as None."""
    return {field: None if pd.isna(row[field]) else row[field] for field in (*LINEAGE_FIELDS, "current_version")}


def stated_version_lineage(rows: pd.DataFrame, family: str, stated: str) -> dict:
    """The lineage of a version the paper states and the graph lacks: `family_lineage`'s row of STATED_ID as
    {field: value} for LINEAGE_FIELDS, with "known" (`version_known`) and "statement".

    superseded: True when a rule replaces it, False when none does (a version newer than any the graph holds, or a
    parallel stream), None (status unknown) when no record attests the version and no authority but version order
    (basis inferred) would replace it: a CMR CollectionProgress or curated successor still replaces it. statement:
    None, or for the unknown status "version not known to the catalogue; the family's current version is <V>" (the
    versions nothing replaces in the family's lineage, "and"-joined; "unknown" when none). current_version: the
    lineage's own (the version that ends the stated version's successor chain in its family, which
    `lifecycle_lines.lifecycle_statement` names for a successor that has itself been replaced), None for the unknown status.
    Raises ValueError when `stated` has no digit."""
    values = lineage_values(family_lineage(rows, family, stated).set_index("dataset_id").loc[STATED_ID])
    known = version_known(rows, family, stated)
    by_authority = bool(values["superseded"]) and values["succession_basis"] != INFERRED
    if known or by_authority:
        return values | {"superseded": bool(values["superseded"]), "known": known, "statement": None}
    # the family's own lineage: a stated version above the newest would make it look replaced
    current = " and ".join(current_versions(family_lineage(rows, family))) or "unknown"
    statement = f"{UNKNOWN_VERSION}; the family's current version is {current}"
    return {field: None for field in LINEAGE_FIELDS} | {"superseded": None, "known": False, "statement": statement, "evidence": statement}


@lru_cache(maxsize=1)
def _catalogue_versions() -> dict[str, frozenset[tuple[int, ...]]]:
    """{family: the version sort keys its collections have} of the shipped CMR extract, parsed as the graph's Dataset
    nodes are (`parse_version` of short name, entry title and DOI)."""
    records = _references()[1]
    versions: dict[str, set[tuple[int, ...]]] = {}
    for short_name, title, doi in zip(records["ShortName"], records["EntryTitle"], records["DOI"]):
        parsed = parse_version(short_name if isinstance(short_name, str) else "", title, doi)
        if parsed.family and parsed.sort_key:
            versions.setdefault(parsed.family, set()).add(parsed.sort_key)
    return {family: frozenset(keys) for family, keys in versions.items()}


RETIRED_COLUMNS = ["ShortName", "Version", "EntryTitle", "data_version", "source", "quote"]


@lru_cache(maxsize=1)
def retired_collection_versions() -> dict[str, frozenset[tuple[int, ...]]]:
    """{family: the version sort keys of its retired collections} from `reference/cmr/retired_collection_records.csv`:
    archive collection records CMR no longer lists, each row with the record's short name, collection version, entry
    title, the data version its description states, and its source (URL) and quote. ML2CO V002 ("The current version
    is 2.2."): the MLS Level 2 line had collections before the V004 and V005 the shipped extract holds, so a paper's
    "MLS v2.2" is a version the archive had, not a misprint (`version_known`); whether and when it was replaced the
    record does not say, so its succession stays the lifecycle's reading of the version order (basis inferred).

    Raises:
        ValueError: other columns, or a row without a source or a version `parse_version` reads.
    """
    from importlib import resources

    text = resources.files("recon_assets.reference").joinpath("cmr", "retired_collection_records.csv").read_text()
    table = pd.read_csv(io.StringIO(text), dtype=str)
    if list(table.columns) != RETIRED_COLUMNS:
        raise ValueError(f"retired_collection_records.csv: columns must be {', '.join(RETIRED_COLUMNS)}; got {list(table.columns)}")
    versions: dict[str, set[tuple[int, ...]]] = {}
    for line, row in enumerate(table.itertuples(index=False), start=2):
        parsed = parse_version(row.ShortName, f"{row.EntryTitle}", None)
        if pd.isna(row.source) or not str(row.source).strip() or not parsed.family or not parsed.sort_key:
            raise ValueError(f"retired_collection_records.csv line {line}: needs a source and a version in its entry title")
        versions.setdefault(parsed.family, set()).add(parsed.sort_key)
    return {family: frozenset(keys) for family, keys in versions.items()}


def _line_patterns(family: str) -> tuple[str, ...]:
    """The family's product-line patterns of `dataset_aliases.csv` it matches (MCD12C1: "MCD*"; not MODIS's MOD* and
    MYD*, whose other products number their versions otherwise)."""
    from recon_assets.papers.dataset_catalogue import alias_table  # dataset_catalogue imports this module

    return tuple(sorted({pattern for pattern in alias_table()["family"] if fnmatchcase(family, pattern)}))


def known_versions(rows: pd.DataFrame, family: str) -> frozenset[tuple[int, ...]]:
    """The version sort keys the records attest for `family`: its Dataset nodes' (`rows`, columns short_name,
    long_name, doi), the shipped CMR extract's collections of the family and of its product line (the families its
    `dataset_aliases.csv` pattern matches, so MODIS "MCD*" attests collection 5 for MCD12C1 although CMR now lists
    only its V061), and the versions the curated lifecycle names for it (`dataset_successors.csv`)."""
    keys = {parse_version(s if isinstance(s, str) else "", l, d).sort_key for s, l, d in zip(rows["short_name"], rows["long_name"], rows["doi"])}
    catalogue = _catalogue_versions()
    patterns = (family, *_line_patterns(family))
    keys |= {key for other, versions in catalogue.items() if any(fnmatchcase(other, p) for p in patterns) for key in versions}
    curated = _references()[0]
    for name, version in ((curated["family"], curated["version"]), (curated["other_family"], curated["other_version"])):
        keys |= {version_sort_key(v) for f, v in zip(name, version) if isinstance(f, str) and isinstance(v, str) and fnmatchcase(family, f)}
    return frozenset(key for key in keys if key)


def version_known(rows: pd.DataFrame, family: str, stated: str) -> bool:
    """Whether the records attest the stated version: its leading number is the leading number of a version in
    `known_versions`, or one below the oldest of them (MODIS Collection 5.1 is of collection 5; SMAP "7" of V007).

    Why: version order alone says any version below the newest is replaced, so a version that never existed, a
    misprint or another product's number (MCD12C1 "V1" in a real paper, fixtures/papers/SOURCES.md paper 2: MCD12C1 has
    collections 5, 5.1, 6 and 6.1 (LP DAAC); its product line MCD* has 5 and 6 in the CMR extract) would be flagged
    "replaced by V061". Leading numbers, and one below the oldest, because the CMR extract keeps only the collections
    CMR still lists (MCD12C1 061 alone; GPM IMERG V06 and V07, not V05; GLDAS 2.x, not GLDAS-1; GPCP 3.x, not 2.2): the
    predecessor of the oldest listed version is the one the archive retired last, which papers still state; an older
    one stays unattested unless the curated lifecycle names it or a retired collection record of the family or its
    product line holds its leading number (`retired_collection_versions`: ML2CO V002 attests MLS "v2.2" for every ML2*
    family; it does not move "one below the oldest", so V003 stays attested as V004's predecessor). A version below a
    retired collection record's of the family or its line is attested too (MLS "v1.5" below the retired V002): the
    record shows the archive numbered the line that way and had already retired a newer number, so the older one is
    no misprint of a current version but a release before it (papers 76 and 79 of fixtures/papers/SOURCES.md, MLS
    v1.5 ozone). Below the oldest listed version alone, with no retired record, it stays unattested: the extract
    keeps only what CMR still lists, and a number far below it may be another numbering (MCD12C1 "V1"). A family
    without any attested version attests none.
    Raises ValueError when `stated` has no digit."""
    key = version_sort_key(stated)
    leading = {known[0] for known in known_versions(rows, family)}
    patterns = (family, *_line_patterns(family))
    retired = {known[0] for other, keys in retired_collection_versions().items() if any(fnmatchcase(other, p) for p in patterns) for known in keys}
    return key[0] in retired or (bool(retired) and key[0] < min(retired)) or (bool(leading) and (key[0] in leading or key[0] == min(leading) - 1))


def current_versions(lineage: pd.DataFrame) -> list[str]:
    """The version texts of `family_lineage`'s rows nothing replaces (a stated version's row left out), newest first,
    each once (["V2.1", "V2.0"] for GLDAS's parallel streams)."""
    current = lineage[(lineage["dataset_id"] != STATED_ID) & ~lineage["superseded"].fillna(False).astype(bool) & lineage["version_text"].notna()]
    ordered = current.sort_values("version_sort", key=lambda keys: keys.map(tuple), ascending=False)
    return list(dict.fromkeys(ordered["version_text"]))


def catalogued_version(stated: tuple[int, ...], held: Iterable[tuple[int, ...]]) -> tuple[int, ...] | None:
    """The version sort key of the collection a stated version names among a family's catalogued ones (`held`, sort
    keys as `version_sort_key` gives them), or None when none does.

    The same key names it ("V7" and "7.0", "Collection 5" and "005"). Else, when every catalogued version of the family
    is a whole number ((4,), (5,); "7.0" is (7,)) and the stated one has a minor part, the whole number equal to its
    major part names it: "MLS v4.2" is the collection CMR numbers V004, "v3.3" would be V003. This is our reading of
    how the instrument teams number their data, not an archive's statement: the MLS team names its Level 2 data
    versions v2.2, v3.3 / v3.4, v4.2x, v5.0x (the minor part a release of the processing software within one
    version; one data quality and description document per version, e.g. Livesey et al.'s "Version 4.2x Level 2
    data quality and description document", JPL, which the papers using v4.2 cite), while GES DISC's CMR records number
    the collections 004 and 005 (entry title "MLS/Aura Level 2 Ozone (O3) Mixing Ratio V004"); OMI's "collection 3"
    is CMR's V003 (OMTO3 V003). GES DISC's own collection descriptions say it for MLS: "ML2HO2 [...] The data version is
    4.2" in the V004 record (https://d3vpnmsr9g81nw.cloudfront.net/data/catalog/ges-disc-ml2ho2-004), and the retired
    V002 record of ML2CO says "The current version is 2.2." (`retired_collection_versions`). A
    family that keeps minor parts in its own numbering (GLDAS 2.0 / 2.1 / 2.2, MODIS 6 / 6.1) has no such reading:
    a stated "2.2" or "6.1" names only that version."""
    held = set(held)
    if stated in held:
        return stated
    if len(stated) > 1 and held and all(len(key) == 1 for key in held) and (stated[0],) in held:
        return (stated[0],)
    return None
