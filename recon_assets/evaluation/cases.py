"""The labelled Dataset→Publication edges the method is measured on (`recon_assets/reference/evaluation/
labelled_edges.csv`; LABELLED_CASES.md beside it says where every label comes from and how the set was built).

Each case is one real edge in one exclusive class, its label taken from a source outside the KG:

- superseded_version: the archive's own notice that the dataset version was replaced (DAAC or catalogue text);
- foundational: the archive's "please cite" reference paper for the product;
- current_version: a recent paper on a version no notice retires;
- disputed: a paper a published comment disputes;
- retracted: a retracted paper.

Every case carries a grade (DOMAIN.md, "Verdicts over an evidence set"): `C` (labelled from the same file, record or
document as a scorer input: reported apart, never in a headline figure), `F` (the same fact from another document of
the archive: measures the lifecycle's coverage of the archive's facts) or `I` (independent of every scorer input:
only these measure what the score adds), with `grade_reason`; and `version_status`, what the archive says of the
case's dataset version (current, replaced or unknown), used only to define the subgroups that separate the signals.
`split` (tuning / held_out) was fixed when the set was frozen, before any scoring; nothing is tuned on a case by its
id.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from recon_assets.kg.doi import canonical_doi
from recon_assets.lifecycle.versions import version_sort_key

EVALUATION_DIR = Path(__file__).resolve().parents[1] / "reference" / "evaluation"
LABELLED_EDGES = EVALUATION_DIR / "labelled_edges.csv"

SUPERSEDED_VERSION, FOUNDATIONAL, CURRENT_VERSION, DISPUTED, RETRACTED = (
    "superseded_version", "foundational", "current_version", "disputed", "retracted",
)
# Classes whose edges should be flagged (DECLINING or SUPERSEDED), and those that should not.
STALE_CLASSES = (SUPERSEDED_VERSION, DISPUTED, RETRACTED)
SOUND_CLASSES = (FOUNDATIONAL, CURRENT_VERSION)
CLASSES = (*STALE_CLASSES, *SOUND_CLASSES)
SPLITS = ("tuning", "held_out")
GRADES = ("C", "F", "I")
CURRENT, REPLACED, UNKNOWN = "current", "replaced", "unknown"
VERSION_STATUSES = (CURRENT, REPLACED, UNKNOWN)
COLUMNS = [
    "labels_version", "case_id", "class", "split", "grade", "grade_reason", "version_status", "dataset_short_name", "dataset_version", "dataset_doi",
    "dataset_cmr_concept_id", "publication_doi", "publication_title", "publication_year", "label_source",
    "label_source_url", "use_source", "use_source_url", "note",
]
REQUIRED = [
    "labels_version", "case_id", "class", "split", "grade", "grade_reason", "version_status", "publication_doi", "publication_year",
    "label_source",
]


def dataset_key(doi: object, short_name: object, version: object) -> str | None:
    """What a case's dataset is matched to a KG dataset by: its canonical DOI, else 'SHORT_NAME|version sort key'
    ('MOD13Q1|5' for MOD13Q1 005; 'MOD13|' without a version), None without either."""
    if isinstance(doi, str) and (key := canonical_doi(doi)):
        return key
    if not isinstance(short_name, str) or not short_name.strip():
        return None
    sort_key = version_sort_key(version) if isinstance(version, str) and any(c.isdigit() for c in version) else ()
    return f"{short_name.strip().upper()}|{'.'.join(map(str, sort_key))}"


def load_cases(path: Path = LABELLED_EDGES) -> pd.DataFrame:
    """The labelled edges, one row per case: COLUMNS as text (stripped; empty cells NA), `publication_year` an int, and `dataset_key` (`dataset_key`) / `publication_key` (canonical DOI,
    `kg.doi.canonical_doi`) the cases are matched to KG edges by.

    Raises:
        ValueError: naming the file and the rows (case_id and line): no case, missing columns, several
            labels_version values, a required cell empty, a duplicate case_id, an unknown class, split, grade
            (GRADES) or version_status (VERSION_STATUSES), a year that is not a year, a DOI that does not parse, a case naming
            its dataset by neither DOI nor short name, or one edge labelled by two cases.
    """
    try:
        cases = pd.read_csv(path, dtype=str, keep_default_na=False)
    except pd.errors.EmptyDataError as error:
        raise ValueError(f"{path} is empty: no header, no case") from error
    if missing := sorted(set(COLUMNS) - set(cases.columns)):
        raise ValueError(f"{path} lacks columns {missing}")
    if cases.empty:
        raise ValueError(f"{path} has a header but no case")
    cases = cases[COLUMNS].apply(lambda column: column.str.strip()).replace("", pd.NA)
    names = cases["case_id"].fillna("<no case_id>") + [f" (line {index + 2})" for index in cases.index]
    cases["dataset_key"] = [dataset_key(*row) for row in cases[["dataset_doi", "dataset_short_name", "dataset_version"]].itertuples(index=False)]
    cases["publication_key"] = cases["publication_doi"].map(canonical_doi, na_action="ignore")
    year = pd.to_numeric(cases["publication_year"], errors="coerce")
    problems = {
        "labels_version values (one expected)": sorted(cases["labels_version"].dropna().unique()) if cases["labels_version"].nunique() > 1 else [],
        **{f"no {column}": names[cases[column].isna()].tolist() for column in REQUIRED},
        "duplicate case_id": names[cases["case_id"].notna() & cases["case_id"].duplicated()].tolist(),
        "unknown class": names[cases["class"].notna() & ~cases["class"].isin(CLASSES)].tolist(),
        "unknown split": names[cases["split"].notna() & ~cases["split"].isin(SPLITS)].tolist(),
        "unknown grade (C, F or I)": names[cases["grade"].notna() & ~cases["grade"].isin(GRADES)].tolist(),
        "unknown version_status (current, replaced or unknown)": names[
            cases["version_status"].notna() & ~cases["version_status"].isin(VERSION_STATUSES)
        ].tolist(),
        "publication_year not a year": names[cases["publication_year"].notna() & ~year.between(1800, 2100)].tolist(),
        "neither dataset_doi nor dataset_short_name": names[cases["dataset_key"].isna()].tolist(),
        "dataset_doi not a DOI": names[cases["dataset_doi"].notna() & cases["dataset_doi"].map(canonical_doi, na_action="ignore").isna()].tolist(),
        "publication_doi not a DOI": names[cases["publication_doi"].notna() & cases["publication_key"].isna()].tolist(),
        "edge labelled by two cases": names[
            cases["dataset_key"].notna() & cases.duplicated(["dataset_key", "publication_key"], keep=False)
        ].tolist(),
    }
    if problems := {what: rows for what, rows in problems.items() if rows}:
        raise ValueError(f"{path}: {problems}")
    return cases.assign(publication_year=year.astype(int))
