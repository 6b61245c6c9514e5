"""The labelled cases (`recon_assets/reference/labelled_cases.csv`) and the texts the judge reads for the
contradicted pairs (`contradiction_pair_texts.json`); LABELLED_CASES.md beside them says where every label
comes from."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

REFERENCE_DIR = Path(__file__).resolve().parents[1] / "reference"
LABELLED_CASES = REFERENCE_DIR / "labelled_cases.csv"
PAIR_TEXTS = REFERENCE_DIR / "contradiction_pair_texts.json"

KNOWN_SUPERSEDED, KNOWN_FOUNDATIONAL, KNOWN_CONTRADICTED = "known_superseded", "known_foundational", "known_contradicted"
EXPECTATIONS = (KNOWN_SUPERSEDED, KNOWN_FOUNDATIONAL, KNOWN_CONTRADICTED)
KINDS = ("superseded_dataset_version", "retracted_work", "worked_case", "foundational_work", "contradicted_pair")
COLUMNS = [
    "labels_version", "case_id", "kind", "expected", "dataset_doi", "dataset_concept_id", "publication_doi",
    "newer_publication_doi", "inputs", "source",
]


def load_cases(path: Path = LABELLED_CASES) -> pd.DataFrame:
    """The labelled cases, one row per case, columns COLUMNS (strings; empty cells are NA).

    Raises:
        ValueError: missing columns, several labels_version values, a duplicate case_id, an unknown kind or
            expectation, or a row without a source.
    """
    cases = pd.read_csv(path, dtype=str, keep_default_na=False).replace("", pd.NA)
    missing = sorted(set(COLUMNS) - set(cases.columns))
    if missing:
        raise ValueError(f"{path} lacks columns {missing}")
    problems = {
        "labels_version values (one expected)": sorted(cases["labels_version"].dropna().unique()) if cases["labels_version"].nunique(dropna=False) != 1 else [],
        "duplicate case_id": cases.loc[cases["case_id"].duplicated(), "case_id"].tolist(),
        "unknown kind": sorted(set(cases["kind"].dropna()) - set(KINDS)) + (["<empty>"] if cases["kind"].isna().any() else []),
        "unknown expected": sorted(set(cases["expected"].dropna()) - set(EXPECTATIONS)) + (["<empty>"] if cases["expected"].isna().any() else []),
        "no source": cases.loc[cases["source"].isna(), "case_id"].tolist(),
    }
    problems = {what: found for what, found in problems.items() if found}
    if problems:
        raise ValueError(f"{path}: {problems}")
    return cases[COLUMNS]


def load_pair_texts(path: Path = PAIR_TEXTS) -> pd.DataFrame:
    """Title, abstract (None when the source has none) and year of every publication the judge reads, by DOI.

    Returns:
        columns doi, title, abstract, year (int), source.
    """
    works = json.loads(path.read_text())["works"]
    return pd.DataFrame(
        [{"doi": doi, "title": w["title"], "abstract": w.get("abstract"), "year": int(w["year"]), "source": w["source"]} for doi, w in works.items()]
    )
