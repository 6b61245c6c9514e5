"""Dataset version parsing and successor chains, from the strings NASA CMR puts in a collection record.

A NASA collection's version hides in its CMR `Version` field, its short name (`...-Standard-V4-21`,
`..._RL06.1_..._v04`), its long name (`... V006 (AIRS3STD) at GES DISC`, `(PROVISIONAL)`) or its DOI
(`10.5067/MODIS/MOD09A1.061`, `10.5067/GPM/IMERGDF/DAY/07`). `parse_version` reads them in that order of
authority; `successors` orders the versions of each family and links each to the next one.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from importlib import resources

import pandas as pd

STANDARD = "standard"
PROVISIONAL = "provisional"
NEAR_REAL_TIME = "near_real_time"

# Letters touching a marker would make it part of a word ("NRTS", "Provo"); digits and separators do not
# ("6.1NRT", "_NRT", "-Prov-").
_NRT = re.compile(r"(?<![A-Za-z])(?:NRT|near[\s_-]*real[\s_-]*time)(?![A-Za-z])", re.IGNORECASE)
_PROVISIONAL = re.compile(r"(?<![A-Za-z])prov(?:isional)?(?![A-Za-z])", re.IGNORECASE)

_NUMBER = r"\d+(?:[.-]\d+)*[A-Za-z]?"
# GRACE / GRACE-FO release and product version: RL06.1Mv03, RL06 v04, RL06.1_LND_v04.
_RELEASE = re.compile(r"RL\d+(?:\.\d+)?(?:[\s_]*(?:[A-Z]+_)?M?v\d+)?", re.IGNORECASE)
_SHORT_NAME_PATTERNS = (
    re.compile(r"(?<=-)V\d+-\d+$"),  # CALIPSO: CAL_LID_L2_05kmAPro-Standard-V4-21 (V4-21, not its dash)
    _RELEASE,
)
_LONG_NAME_PATTERNS = (
    _RELEASE,
    re.compile(rf"(?<![A-Za-z0-9])V{_NUMBER}\b", re.IGNORECASE),  # V006, V7.0, V06, V3-02, (v2.0), _V001
    re.compile(rf"\bversion\s+R?{_NUMBER}\b", re.IGNORECASE),  # ocean colour: version R2022.0
    re.compile(rf"\b(?:release|edition)\s*{_NUMBER}\b", re.IGNORECASE),  # CERES Edition4A, Release 2
)
_DOI_PATTERNS = (
    re.compile(r"(?<=-)V\d+-\d+(?=[_/]|$)", re.IGNORECASE),  # CALIPSO
    re.compile(r"(?<=\.)\d{3}[A-Z]?$", re.IGNORECASE),  # MODIS / ASTER / VIIRS collection: MOD09A1.061, AST_L1T.031; CERES .001A
    re.compile(r"(?<=/)\d{2}$"),  # GPM: IMERGDF/DAY/07
    re.compile(rf"(?<=[_-])V{_NUMBER}$", re.IGNORECASE),  # SAGE III: SOLAR_BINARY_L1B-V4.0
    # ocean colour reprocessing: L3B/KD/2022.0, OCTS/L3B/CHL/2014; never ORNL DAAC's 10.3334/ORNLDAAC/1950, a dataset id
    re.compile(r"(?<!ornldaac/)(?<=/)(?:19|20)\d{2}(?:\.\d+)?$", re.IGNORECASE),
)
# Version and status markers that do not belong in a family name: the CALIPSO suffix with its
# Prov/Standard part, the GRACE release block, a trailing version (SMAP _002, GRACE-FO _0062, CYGNSS _V3.1,
# GHRSST -v4.1, SWOT _1.1) and NRT.
_FAMILY_STRIP = re.compile(
    r"-(?:Prov|Standard)-V\d+-\d+$|_RL\d+(?:\.\d+)?(?=_|$)|[_-]v\d+(?:\.\d+)*$|_\d+\.\d+$|_0\d{2,3}$|_NRT(?=_|$)",
    re.IGNORECASE,
)
ORNL_DATASET_ID = "ORNL DAAC record: its trailing number is the DAAC's dataset id, not a version"
_COLLECTION = re.compile(r"0([1-9])([1-9])")
_THREE_DIGITS = re.compile(r"[Vv]?0\d\d")
_INTEGER_VERSION = re.compile(r"[Vv]?0[1-9]0|[Vv]?[1-9]\d")
_RELEASE_PARTS = re.compile(r"RL(\d+)(?:\.(\d+))?(?:.*?v(\d+))?", re.IGNORECASE)


@dataclass(frozen=True)
class ParsedVersion:
    """What `parse_version` read from one collection record.

    family: the short name without its version and status markers, shared by every version of the product.
    version_text: the version as spelled where it was found ("006", "V031", "V4-21"), without the separator before
        it; None if none.
    sort_key: tuple of ints that orders versions of one family (empty if none).
    status: 'standard', 'provisional' or 'near_real_time'.
    source: the field that revealed the version ('CMR Version', 'short name', 'long name', 'DOI'); None if none.
    issue: why nothing was parsed, else None.
    """

    family: str
    version_text: str | None
    sort_key: tuple[int, ...]
    status: str
    source: str | None
    issue: str | None


def version_sort_key(version_text: str) -> tuple[int, ...]:
    """Turn a version spelling into a tuple of ints that orders versions of one family.

    The numbers in the text, in order, trailing zeros dropped ("V4-21" -> (4, 21), "7.0" and "V7" -> (7,)),
    with two exceptions. A bare three-digit "0XY" with X, Y > 0 is collection X.Y: LP DAAC and LAADS spell
    MODIS Collection 6.1 as "061" and ASTER version 3.1 as "031" (so 006 < 061 and 003 < 031 < 004); "00X" is
    X and "0X0" is the integer X0 (SMAP "009" < "010"; `successors` then reads every "0XY" of that family
    as an integer, so SMAP "011" follows "010"). A GRACE release is (release major, release minor,
    product version), so "RL06 v04" = (6, 0, 4) < "RL06.1Mv03" = (6, 1, 3). A trailing letter ("2c", "11r",
    "Edition4A") adds its alphabet position as a last component.

    Raises ValueError if the text holds no digit.
    """
    bare = version_text.strip().lstrip("Vv")
    collection = _COLLECTION.fullmatch(bare)
    if collection:
        return int(collection.group(1)), int(collection.group(2))
    release = _RELEASE_PARTS.search(version_text)
    if release:
        major, minor, product = release.groups()
        return int(major), int(minor or 0), int(product or 0)
    numbers = [int(n) for n in re.findall(r"\d+", version_text)]
    if not numbers:
        raise ValueError(f"no digit in version {version_text!r}")
    letter = re.search(r"\d([a-z])$", bare, re.IGNORECASE)
    if letter:
        # The letter counts after every number: "2.0a" is (2, 0, 1), between 2.0 and 2.1.
        return (*numbers, ord(letter.group(1).lower()) - ord("a") + 1)
    while len(numbers) > 1 and numbers[-1] == 0:
        numbers.pop()
    return tuple(numbers)


def version_readings(version_text: str) -> tuple[tuple[int, ...], ...]:
    """Every sort key a catalogued version spelling may stand for, `version_sort_key`'s first.

    A bare three-digit "0XY" (X, Y > 0; "V019", "061") is read two ways, because the archives use the spelling for two
    numberings: LP DAAC and LAADS number MODIS and ASTER collections so ("061" is Collection 6.1, DOI
    10.5067/MODIS/MOD09A1.061), while GES DISC and NSIDC pad a whole-number version to three digits: the UARS HALOE
    Level 2 record "UARS Halogen Occultation Experiment (HALOE) Level 2 V019 (UARHA2FN) at GES DISC" (CMR
    C1273348497-GES_DISC) holds HALOE's third public release, version 19 (Russell et al.'s "HALOE version 19", the
    V19 papers state), SORCE's "V019" its version 19 and GLAS's "V033" / "V034" NSIDC's Release 33 / 34. A record
    rarely says which (UARHA2FN has no DOI), so a version a paper states names a catalogued "0XY" under either
    reading: (X, Y) or (XY,). Any other spelling has its one `version_sort_key`.

    Returns: a tuple of one or two sort keys. Raises ValueError if the text holds no digit.
    """
    key = version_sort_key(version_text)
    padded = _COLLECTION.fullmatch(version_text.strip().lstrip("Vv"))
    return (key, (int(padded.group(0)),)) if padded else (key,)


def _status(*texts: str) -> str:
    if any(_NRT.search(t) for t in texts):
        return NEAR_REAL_TIME
    if any(_PROVISIONAL.search(t) for t in texts):
        return PROVISIONAL
    return STANDARD


def _first_match(text: str, patterns: tuple[re.Pattern[str], ...]) -> str | None:
    for pattern in patterns:
        found = pattern.search(text)
        if found:
            return found.group(0)
    return None


def parse_version(
    short_name: str, long_name: str | None, doi: str | None, cmr_version: str | None = None
) -> ParsedVersion:
    """Parse family, version and status from one CMR collection record.

    Args: the record's ShortName, EntryTitle (long name), DOI and CMR `Version`; missing values may be
    None, NaN or "". The version comes from the first field that has one, in the order CMR Version (the
    provider's own field), short name, long name, DOI; an "NRT" in CMR Version ("6.1NRT") is status, not
    version. Status is near_real_time if any field says NRT / near real time, else provisional if any says
    Prov / Provisional, else standard: NRT and provisional products are parallel streams, never successors
    of the standard product.

    Returns a ParsedVersion; when no field holds a version, version_text and source are None, sort_key is
    () and issue says so. Never raises.
    """
    fields = {
        "CMR Version": _text(cmr_version),
        "short name": _text(short_name),
        "long name": _text(long_name),
        "DOI": _text(doi),
    }
    family = _FAMILY_STRIP.sub("", fields["short name"]) or fields["short name"]
    status = _status(*fields.values())
    cmr = _NRT.sub("", fields["CMR Version"]).strip()
    candidates = {
        "CMR Version": cmr if re.search(r"\d", cmr) else None,
        "short name": _first_match(fields["short name"], _SHORT_NAME_PATTERNS),
        "long name": _first_match(fields["long name"], _LONG_NAME_PATTERNS),
        "DOI": _first_match(fields["DOI"], _DOI_PATTERNS),
    }
    for source, version_text in candidates.items():
        if version_text:
            return ParsedVersion(family, version_text, version_sort_key(version_text), status, source, None)
    return ParsedVersion(family, None, (), status, None, "no version in CMR Version, short name, long name or DOI")


def unparsed_records(records: pd.DataFrame) -> pd.DataFrame:
    """The CMR collection records `parse_version` finds no version in, with why.

    Args:
        records: CMR records with columns concept-id, ShortName, Version, EntryTitle, DOI (e.g. the shipped
            `cmr.shipped_collection_records()`).

    Returns:
        columns concept-id, ShortName, Version, EntryTitle, DOI, issue (an ORNL DAAC record says so: its
        trailing number is the DAAC's dataset id, not a version); in `records` order.
    """
    issues = []
    for record in records.itertuples():
        issue = parse_version(record.ShortName, record.EntryTitle, record.DOI, record.Version).issue
        issues.append(ORNL_DATASET_ID if issue and "ornldaac" in _text(record.DOI).lower() else issue)
    columns = ["concept-id", "ShortName", "Version", "EntryTitle", "DOI"]
    return records[columns].assign(issue=issues).dropna(subset=["issue"]).reset_index(drop=True)


def _text(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""


def successors(parsed: pd.DataFrame) -> pd.DataFrame:
    """Link each dataset version to the next version of its family.

    Args: one row per dataset with columns dataset_id, family, version_text, sort_key (tuple of ints),
    status and source (as in ParsedVersion). Rows without a version (empty sort_key) get no successor.

    Returns the same rows (same order) with successor_dataset_id, successor_version, superseded (bool) and
    evidence, e.g. "AIRS3STD 006 -> 7.0 (version from CMR Version / CMR Version)". Within one (family,
    status) the successor is the dataset with the next larger sort_key; several datasets sharing it (the same
    collection at two providers) resolve to the smallest dataset_id. A NRT or provisional stream never
    succeeds the standard one, as they are different statuses. A family with a "0X0" version (SMAP 010), or with a
    whole number of two digits written without padding (a paper's "HALOE V17" beside CMR's UARHA2FN "V019", GES DISC's
    padding of release 19: `version_readings`), numbers its versions as integers: its "0XY" are read as XY, not as
    collection X.Y (the returned sort_key says so), so V17 comes before V019.
    """
    out = parsed.copy()
    integer_families = {
        family for family, text in zip(out["family"], out["version_text"]) if isinstance(text, str) and _INTEGER_VERSION.fullmatch(text)
    }
    recount = out["family"].isin(integer_families) & out["version_text"].map(lambda t: isinstance(t, str) and bool(_THREE_DIGITS.fullmatch(t)))
    out.loc[recount, "sort_key"] = out.loc[recount, "version_text"].map(lambda text: (int(text.lstrip("Vv")),))
    out["successor_dataset_id"] = None
    out["successor_version"] = None
    out["evidence"] = None
    # Without a short name there is no family: such datasets are no one's versions (family '').
    versioned = out[(out["sort_key"].map(len) > 0) & (out["family"] != "")]
    for _, group in versioned.groupby(["family", "status"], sort=False):
        heads = group.sort_values("dataset_id").drop_duplicates("sort_key").sort_values("sort_key", kind="stable")
        following = dict(zip(heads["sort_key"].iloc[:-1], heads.index[1:]))
        for index, row in group.iterrows():
            nxt = following.get(row["sort_key"])
            if nxt is None:
                continue
            successor = out.loc[nxt]
            out.at[index, "successor_dataset_id"] = successor["dataset_id"]
            out.at[index, "successor_version"] = successor["version_text"]
            out.at[index, "evidence"] = (
                f"{row['family']} {row['version_text']} -> {successor['version_text']} "
                f"(version from {row['source']} / {successor['source']})"
            )
    out["superseded"] = out["successor_dataset_id"].notna()
    return out


SUCCESSOR, PARALLEL = "successor", "parallel"
CURATED_COLUMNS = ["relation", "family", "version", "other_family", "other_version", "since", "source"]


def curated_lifecycle() -> pd.DataFrame:
    """The curated lifecycle facts no version string reveals, each line with its source.

    Source: `recon_assets/reference/dataset_successors.csv`, one line per fact:
    - `successor`: `other_family` (a renamed line or a new mission: TRMM TMPA -> GPM IMERG, MERRA -> MERRA-2,
      MOD17A3H -> MOD17A3HGF) replaced `family` (every version, or only `version` when given) in the year or on
      the date `since`;
    - `parallel`: `family` `version` and `other_family` `other_version` are parallel streams that both stay
      current (GLDAS-2.0 and GLDAS-2.1), so the higher version does not succeed the lower one.
    Families are CMR short names as `parse_version` returns them; a family may be a shell pattern (`GLDAS_*`).
    Versions are compared by `version_sort_key`.

    Returns:
        DataFrame with CURATED_COLUMNS (text; version and other_version NA when not given, since NA for parallel).

    Raises:
        ValueError: a line with an unknown relation or without the fields its relation needs, a (family, version)
            given two successors, or successors forming a cycle (a family succeeding itself, directly or through others).
    """
    text = resources.files("recon_assets.reference").joinpath("dataset_successors.csv").read_text()
    return _checked_lifecycle(pd.read_csv(io.StringIO(text), dtype=str))


def _checked_lifecycle(table: pd.DataFrame) -> pd.DataFrame:
    if list(table.columns) != CURATED_COLUMNS:
        raise ValueError(f"dataset_successors.csv: columns must be {CURATED_COLUMNS}, got {list(table.columns)}")
    needed = {SUCCESSOR: ["family", "other_family", "since", "source"], PARALLEL: ["family", "version", "other_family", "other_version", "source"]}
    for line, row in enumerate(table.itertuples(index=False), start=2):
        if row.relation not in needed:
            raise ValueError(f"dataset_successors.csv line {line}: relation must be {SUCCESSOR} or {PARALLEL}, got {row.relation!r}")
        if missing := [field for field in needed[row.relation] if pd.isna(getattr(row, field))]:
            raise ValueError(f"dataset_successors.csv line {line}: a {row.relation} line needs {', '.join(missing)}")
    successors_ = table[table["relation"] == SUCCESSOR]
    if successors_[["family", "version"]].fillna("").duplicated().any():
        raise ValueError("dataset_successors.csv: a family (version) has two successors")
    successor = dict(zip(successors_["family"], successors_["other_family"]))
    for start in successor:
        family, seen = start, set()
        while family in successor:
            if family in seen:
                raise ValueError(f"dataset_successors.csv: successors form a cycle through {family}")
            seen.add(family)
            family = successor[family]
    return table
